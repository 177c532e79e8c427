import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadUsearch } from '../../src/exports/vector.js';
import { runScenario, type ScenarioResult } from './scenario.js';

// The `deno` npm package's launcher: it runs the binary that package installed, offline.
const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('Deno', () => {
  it('loads the module from a file URL, bytes, fetch() and a WebAssembly.Module, and gets Node’s answers', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [denoLauncher, 'run', '--sloppy-imports', '--allow-read', '--no-prompt', 'test/edge/deno-main.ts'],
      { cwd: root, timeout: 50_000 },
    );
    const output = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      runtime: string;
      results: Record<string, ScenarioResult>;
    };
    expect(output.runtime).toMatch(/^deno 2\./);
    expect(Object.keys(output.results)).toEqual(['default', 'bytes', 'fetch', 'module']);
    const node = runScenario(await loadUsearch());
    for (const [source, result] of Object.entries(output.results)) {
      expect(result.nearest, source).toBe(30);
      expect(result.selfHits, source).toEqual([5, 123, 400]);
      expect(
        [...result.filtered].sort((a, b) => a - b),
        source,
      ).toEqual([25, 45, 65]);
      expect(result.viewMatches, source).toBe(true);
      // Same bytes, same arithmetic: the same answers as in Node, to the key.
      expect(result, source).toEqual(node);
    }
  });
});

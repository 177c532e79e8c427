// OVPack export and import, and namespaces, in Deno (docs/guide/ovpack.md): the scenario of
// ovpack-scenario.ts between two file stores, with permission on their folders only.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { expectOvpackRoundTrip } from './ovpack-expect.js';
import type { OvpackResult } from './ovpack-scenario.js';

const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const root = fileURLToPath(new URL('../..', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'longship-deno-ovpack-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

it('exports a folder with its vectors, imports it into another store, refuses tampered packs', async () => {
  const [source, target] = [join(temp, 'source'), join(temp, 'target')];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      denoLauncher,
      'run',
      '--sloppy-imports',
      '--no-prompt',
      // openLongship also reads the package's usearch.wasm.
      `--allow-read=${temp},wasm/dist`,
      `--allow-write=${temp}`,
      'test/edge/deno-ovpack-main.ts',
      source,
      target,
    ],
    // The answer carries the large file's text twice.
    { cwd: root, timeout: 80_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const output = JSON.parse(stdout.trim().split('\n').at(-1)!) as { runtime: string; result: OvpackResult };
  expect(output.runtime).toMatch(/^deno 2\./);
  expect(output.result.persistent).toEqual([true, true]);
  await expectOvpackRoundTrip(output.result);
}, 90_000);

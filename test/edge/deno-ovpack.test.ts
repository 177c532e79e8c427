// OVPack export and import, and namespaces, in Deno (docs/guide/ovpack.md): the scenario of
// ovpack-scenario.ts between two file stores, and a pack piped to a file and imported from it, with
// permission on one folder only.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { expectOvpackRoundTrip } from './ovpack-expect.js';
import { FOLDER, type NodeContent, type OvpackResult } from './ovpack-scenario.js';

const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const root = fileURLToPath(new URL('../..', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'longship-deno-ovpack-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

it('exports a folder with its vectors, imports it into another store and from a file, refuses tampered packs', async () => {
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
      temp,
    ],
    // The answer carries the large file's text twice.
    { cwd: root, timeout: 80_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const output = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    runtime: string;
    result: OvpackResult;
    fromFile: { result: unknown; source: NodeContent[]; target: NodeContent[] };
  };
  expect(output.runtime).toMatch(/^deno 2\./);
  expect(output.result.persistent).toEqual([true, true]);
  await expectOvpackRoundTrip(output.result);
  // Piped to a file with Deno.create, imported from the file's stream.
  expect(output.fromFile.result).toEqual({ uri: FOLDER, skipped: false, nodes: 6, vectors: 'restored' });
  expect(output.fromFile.source).toEqual(output.result.source);
  expect(output.fromFile.target).toEqual(output.fromFile.source);
}, 90_000);

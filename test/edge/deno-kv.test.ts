// The Deno KV store in Deno, on Deno.openKv() over a file: what one process writes, a second one
// finds, with the same scores, with read and write permission on the database's folder only.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const root = fileURLToPath(new URL('../..', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'longship-deno-kv-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The JSON line `deno-kv-main.ts` prints in `mode`. */
function deno(mode: string, file: string): Promise<Record<string, unknown>> {
  const args = [
    denoLauncher,
    'run',
    '--sloppy-imports',
    '--unstable-kv',
    '--no-prompt',
    // openLongship also reads the package's usearch.wasm.
    `--allow-read=${temp},wasm/dist`,
    `--allow-write=${temp}`,
    'test/edge/deno-kv-main.ts',
    mode,
    file,
  ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      if (code === 0 && out.includes('\n')) resolve(JSON.parse(out.trim().split('\n').at(-1)!));
      else reject(new Error(`deno exited ${code}: ${err}`));
    }),
  );
}

describe('DenoKvStore in Deno', () => {
  it('keeps what a Longship on Deno.openKv() wrote: a new Deno process finds it, with the same scores', async () => {
    const file = join(temp, 'longship.db');
    const first = await deno('index', file);
    expect(first.runtime).toMatch(/^deno 2\./);
    expect(first.persistent).toBe(true);
    expect((first.resources as { uri: string }[])[0]?.uri).toBe('viking://resources/notes/river.md');
    // The long note was cut into parts under the value limit, and read back whole.
    expect(first.desertLength).toBe('The desert is dry all year. '.length * 5000);
    expect(first.verify).toEqual({ ok: true, problems: [] });
    const again = await deno('find', file);
    expect(again).toEqual(first);
  }, 120_000);

  it('takes the handle Deno.openKv() resolves with, as Deno types it', () => {
    const check = join(temp, 'handle-type.ts');
    const handle = join(root, 'src/store/deno-kv/kv-handle.ts');
    writeFileSync(
      check,
      `import type { DenoKv } from ${JSON.stringify(handle)};\n` +
        `export const open = (): Promise<DenoKv> => Deno.openKv(':memory:');\n`,
    );
    // Throws, with deno's message, when the shape does not fit.
    execFileSync(process.execPath, [denoLauncher, 'check', '--unstable-kv', '--quiet', check], {
      cwd: root,
      stdio: 'pipe',
    });
  }, 60_000);
});

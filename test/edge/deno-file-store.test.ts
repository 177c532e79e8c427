// The file store in Deno, through its node:fs, with only read and write permission on the folder:
// it reads a store Node wrote, writes to it, and holds the same lock Node does.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { LOCK_STALE_MS } from '../../src/store/file/file-lock.js';
import { openFileStore } from '../../src/store/file/file-open.js';
import { EMBEDDER } from '../../src/testing/records.js';
import { seed } from '../../src/testing/sample-tree.js';
import { startChild } from '../store/file-child.js';

const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const root = fileURLToPath(new URL('../..', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'longship-deno-store-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function deno(mode: string, dir: string): { child: ChildProcess; output: Promise<string> } {
  // openLongship also reads the package's usearch.wasm.
  const permissions = [`--allow-read=${dir},wasm/dist`, `--allow-write=${dir}`];
  const child = spawn(
    process.execPath,
    [
      denoLauncher,
      'run',
      '--sloppy-imports',
      '--no-prompt',
      ...permissions,
      'test/edge/deno-file-store-main.ts',
      mode,
      dir,
    ],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (t: string) => (out += t));
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (err += t));
  const output = new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      if (out.includes('\n')) {
        clearInterval(check);
        resolve(out.trim().split('\n').at(-1)!);
      }
    }, 20);
    child.on('exit', (code) => {
      clearInterval(check);
      if (out.includes('\n')) resolve(out.trim().split('\n').at(-1)!);
      else reject(new Error(`deno exited ${code}: ${err}`));
    });
  });
  return { child, output };
}

describe('FileStore in Deno', () => {
  it('reads and writes a store Node wrote, with read and write permission on its folder only', async () => {
    const dir = join(temp, 'shared');
    const store = await openFileStore(dir, { embedder: EMBEDDER });
    await seed(store);
    await store.close();
    const { child, output } = deno('write', dir);
    const result = JSON.parse(await output);
    if (child.exitCode === null) await new Promise((resolve) => child.on('exit', resolve));
    expect(result.runtime).toMatch(/^deno 2\./);
    expect(result.before.nodes).toBe(5);
    expect(result.seqBefore).toBe(2);
    expect(result.after).toBe(6);
    expect(result.snapshotOk).toBe(true);
    expect(result.verify).toEqual({ ok: true, problems: [] });
    const again = await openFileStore(dir);
    const node = await again.node('viking://resources/deno.md');
    expect(node?.meta.at).toEqual(new Date(1_700_000_000_000));
    expect((await again.vectorsOfNode(node!.key))[0]?.vector).toEqual(new Float32Array([1, 2, 3, 4]));
    expect((await again.snapshot('deno'))?.bytes.length).toBe(5 * 1024 * 1024);
    expect(await again.verify()).toEqual({ ok: true, problems: [] });
    await again.close();
  }, 60_000);

  it('holds the lock Node respects, and lets go when it exits', async () => {
    const dir = join(temp, 'locked');
    await (await openFileStore(dir, { embedder: EMBEDDER })).close();
    const { child, output } = deno('hold', dir);
    expect(JSON.parse(await output)).toEqual({ open: true });
    const refused = await openFileStore(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LongshipError);
    expect((refused as LongshipError).code).toBe('STORE_LOCKED');
    expect((refused as LongshipError).message).toContain(dir);
    child.stdin!.end();
    await new Promise((resolve) => child.on('exit', resolve));
    await (await openFileStore(dir)).close();
  }, 60_000);

  it('counts a killed process’s lock as held until it is stale, as it may not ask whether the process runs', async () => {
    const dir = join(temp, 'stale');
    const store = await openFileStore(dir, { embedder: EMBEDDER });
    await seed(store);
    await store.close();
    const holder = startChild(['hold', dir]);
    await holder.line('open ');
    holder.process.kill('SIGKILL');
    await holder.exited;
    const blind = deno('write', dir);
    await expect(blind.output).rejects.toThrow(/open for writing in another process[\s\S]*may not ask/);
    const past = new Date(Date.now() - LOCK_STALE_MS - 1000);
    utimesSync(join(dir, 'lock'), past, past);
    const { child, output } = deno('write', dir);
    expect(JSON.parse(await output).verify).toEqual({ ok: true, problems: [] });
    if (child.exitCode === null) await new Promise((resolve) => child.on('exit', resolve));
  }, 60_000);

  it('keeps what openLongship({ store: path }) wrote: a new Deno process finds it, with the same scores', async () => {
    const dir = join(temp, 'longship');
    const indexing = deno('index', dir);
    const first = JSON.parse(await indexing.output);
    if (indexing.child.exitCode === null) await new Promise((resolve) => indexing.child.on('exit', resolve));
    expect(first.persistent).toBe(true);
    expect(first.resources[0]?.uri).toBe('viking://resources/notes/river.md');
    const again = deno('find', dir);
    expect(JSON.parse(await again.output)).toEqual(first);
  }, 60_000);
});

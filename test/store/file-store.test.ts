import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { appendFile, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openFileStore } from '../../src/store/file/file-open.js';
import type { FullStore } from '../../src/store/full-store.js';
import { changeLogContract } from '../../src/testing/change-log-contract.js';
import { EMBEDDER, node, withContent } from '../../src/testing/records.js';
import { observe, R, seed } from '../../src/testing/sample-tree.js';
import { storeContract } from '../../src/testing/store-contract.js';
import { bundleChild, type Child, startChild } from './file-child.js';
import { fileHarness, refusal, tempFolder } from './file-harness.js';

storeContract('FileStore', () => fileHarness());
changeLogContract('FileStore', () => fileHarness());

/** The unprivileged user a child runs as where the tests run as root. */
const NOBODY = { uid: 65534, gid: 65534 };

/** Every file under `dir` with its bytes, to see that nothing was touched. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = join(dir, name);
    out[name] = statSync(file).isDirectory() ? '<dir>' : readFileSync(file, 'base64');
  }
  return out;
}

/** `count` documents committed one by one under resources/docs. */
async function writeDocs(store: FullStore, from: number, count: number): Promise<void> {
  if (from === 0) {
    const k = await store.allocateKeys(2);
    await store.commit(withContent({ ...node(R, k), kind: 'dir', parent: null }));
    await store.commit(withContent({ ...node(`${R}/docs`, k + 1), kind: 'dir' }));
  }
  for (let i = from; i < from + count; i++) {
    const k = await store.allocateKeys(2);
    await store.commit(withContent(node(`${R}/docs/d${i}`, k, { l2: `text ${i}`.repeat(20) }), [k + 1]));
  }
}

describe('FileStore', () => {
  it('folds the log into checkpoints as it grows, and reopens to the same state', async () => {
    const dir = join(tempFolder(), 'store');
    let store = await openFileStore(dir, { embedder: EMBEDDER, checkpointAfterBytes: 4096 });
    await writeDocs(store, 0, 60);
    const before = await observe(store);
    // Let a compaction queued by the last commit finish: close() waits for it.
    await store.close();
    const logs = readdirSync(dir).filter((name) => name.startsWith('log-'));
    expect(logs).toHaveLength(1);
    expect(Number(logs[0]!.slice(4))).toBeGreaterThan(1);
    expect(existsSync(join(dir, 'checkpoint'))).toBe(true);
    store = await openFileStore(dir);
    expect(await observe(store)).toEqual(before);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
    await writeDocs(store, 60, 5);
    await store.close();
    store = await openFileStore(pathToFileURL(dir));
    expect((await store.stats()).nodes).toBe(67);
    await store.close();
    // A file: URL as a string names the same store.
    store = await openFileStore(pathToFileURL(dir).href);
    expect((await store.meta()).seq).toBe(before.seq + 5);
    expect(store.persistent).toBe(true);
    await store.close();
  });

  it('refuses a damaged checkpoint rather than drop what it held', async () => {
    const dir = join(tempFolder(), 'store');
    const store = await openFileStore(dir, { embedder: EMBEDDER, checkpointAfterBytes: 1024 });
    await writeDocs(store, 0, 20);
    await store.close();
    const file = join(dir, 'checkpoint');
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 1;
    writeFileSync(file, bytes);
    const error = await refusal(openFileStore(dir));
    expect(error.code).toBe('STORE_ERROR');
    expect(error.message).toContain(file);
    // Refused, it let go of its lock.
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });

  describe('drops a torn log tail, never misreads it', () => {
    const damages: Array<[string, (log: string, size: number, lastFrame: number) => Promise<void>]> = [
      ['the last frame cut short', (log, size) => truncate(log, size - 7)],
      [
        'a byte of the last frame changed',
        async (log, size, lastFrame) => {
          // Mid-frame: the zeros that pad a frame to 4 bytes are not checksummed, and need not be.
          const at = (lastFrame + size) >> 1;
          const bytes = readFileSync(log);
          bytes[at] = bytes[at]! ^ 0x40;
          writeFileSync(log, bytes);
        },
      ],
      [
        'zeros after the last frame (an extended file whose data never arrived)',
        (log) => appendFile(log, new Uint8Array(4096)),
      ],
      ['half a frame header after the last frame', (log) => appendFile(log, new Uint8Array([200, 1, 0]))],
    ];
    for (const [what, damage] of damages) {
      it(what, async () => {
        const dir = join(tempFolder(), 'store');
        let store = await openFileStore(dir, { embedder: EMBEDDER });
        await writeDocs(store, 0, 3);
        const kept = await observe(store);
        const lastFrame = statSync(join(dir, 'log-0')).size;
        await writeDocs(store, 3, 1);
        const whole = await observe(store);
        await store.close();
        const log = join(dir, 'log-0');
        const size = statSync(log).size;
        await damage(log, size, lastFrame);
        store = await openFileStore(dir);
        const cut = what.includes('after the last frame');
        // A damaged last frame is dropped whole (that commit is gone); garbage after it is dropped alone.
        expect(await observe(store)).toEqual(cut ? whole : kept);
        if (cut) expect(statSync(log).size).toBe(size);
        else expect(statSync(log).size).toBeLessThan(size - 7);
        expect(await store.verify()).toEqual({ ok: true, problems: [] });
        // The log goes on from the cut: what is written next survives the next reopen.
        await writeDocs(store, 10, 2);
        const after = await observe(store);
        await store.close();
        store = await openFileStore(dir);
        expect(await observe(store)).toEqual(after);
        await store.close();
      });
    }
  });

  describe('refuses a path it cannot use, with a typed error naming it, touching nothing', () => {
    it('a file', async () => {
      const file = join(tempFolder(), 'notes.txt');
      writeFileSync(file, 'my notes');
      const error = await refusal(openFileStore(file));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain(file);
      expect(readFileSync(file, 'utf8')).toBe('my notes');
      const under = await refusal(openFileStore(join(file, 'store')));
      expect(under.code).toBe('INVALID_ARGUMENT');
      expect(under.message).toContain(join(file, 'store'));
      expect(readFileSync(file, 'utf8')).toBe('my notes');
    });

    it('a folder that holds something else', async () => {
      const dir = tempFolder();
      writeFileSync(join(dir, 'thesis.md'), '# Chapter 1');
      mkdirSync(join(dir, 'figures'));
      writeFileSync(join(dir, 'figures', 'a.svg'), '<svg/>');
      const before = contents(dir);
      const error = await refusal(openFileStore(dir));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain(dir);
      expect(error.message).toContain('not a Longship store');
      expect(contents(dir)).toEqual(before);
      // A marker of something else is not ours either.
      writeFileSync(join(dir, 'longship.json'), '{"format":"other"}');
      const marked = contents(dir);
      expect((await refusal(openFileStore(dir))).code).toBe('INVALID_ARGUMENT');
      expect(contents(dir)).toEqual(marked);
    });

    it('a store written by a newer format', async () => {
      const dir = join(tempFolder(), 'store');
      await (await openFileStore(dir)).close();
      writeFileSync(join(dir, 'longship.json'), '{"format":"longship-file-store","version":99}');
      const before = contents(dir);
      const error = await refusal(openFileStore(dir));
      expect(error.code).toBe('SCHEMA_MISMATCH');
      expect(error.message).toContain(dir);
      expect(contents(dir)).toEqual(before);
    });

    it('a folder it cannot write (checked as an unprivileged user where this runs as root)', async ({
      skip,
    }) => {
      const asRoot = process.getuid?.() === 0;
      // As root, the child runs as nobody, who may read neither the checkout (under /root only root
      // can) nor the test's temporary folders (made for root alone): it gets the child bundled, and
      // the folders, in a folder of their own that every user can read.
      const parent = asRoot ? mkdtempSync(join(tmpdir(), 'longship-unprivileged-')) : tempFolder();
      try {
        chmodSync(parent, 0o755);
        let bundled: string | undefined;
        if (asRoot) {
          const probe = spawnSync(process.execPath, ['-e', ''], { ...NOBODY, cwd: parent });
          if (probe.status !== 0) {
            const why = `user ${NOBODY.uid} cannot run ${process.execPath}: ${String(probe.error ?? probe.stderr)}`;
            console.log(`skipped: ${why}`);
            return skip(why);
          }
          bundled = await bundleChild(parent);
        }
        const empty = join(parent, 'empty');
        const store = join(parent, 'store');
        mkdirSync(empty);
        await (await openFileStore(store, { embedder: EMBEDDER })).close();
        for (const dir of [empty, store]) {
          chmodSync(dir, 0o555);
          const before = contents(dir);
          const child = startChild(['hold', dir], asRoot ? NOBODY : {}, bundled);
          const line = await child.line('error ');
          const error = JSON.parse(line.slice('error '.length));
          expect(error.code).toBe('STORE_ERROR');
          expect(error.message).toContain(dir);
          expect(error.message).toContain('EACCES');
          // It could read the folder, and failed where it writes.
          expect(error.message).not.toContain('reading');
          await child.exited;
          expect(contents(dir)).toEqual(before);
        }
      } finally {
        if (asRoot) rmSync(parent, { recursive: true, force: true });
      }
    }, 30_000);

    it('a path that is not a path, and options it does not know', async () => {
      for (const path of ['', 'idb://context', new URL('https://example.com/store'), 42 as never]) {
        expect((await refusal(openFileStore(path))).code).toBe('INVALID_ARGUMENT');
      }
      const dir = join(tempFolder(), 'store');
      expect((await refusal(openFileStore(dir, { name: 'x' } as never))).code).toBe('INVALID_ARGUMENT');
      expect(existsSync(dir)).toBe(false);
    });
  });

  describe('has one writer', () => {
    it('refuses a second open in this process, and opens again once closed', async () => {
      const dir = join(tempFolder(), 'store');
      const first = await openFileStore(dir);
      const error = await refusal(openFileStore(dir));
      expect(error.code).toBe('STORE_LOCKED');
      expect(error.message).toContain(dir);
      await first.close();
      await (await openFileStore(dir)).close();
    });

    it('lets one of several processes creating a new store at once open it; the others get STORE_LOCKED', async () => {
      // Issue 33: the marker was written before the lock was taken, so a loser could trip over the
      // winner's half-made marker and fail with STORE_ERROR (ENOENT).
      const said = (child: Child) => {
        const open = child.line('open ');
        const error = child.line('error ');
        open.catch(() => undefined);
        error.catch(() => undefined);
        return Promise.race([open, error]);
      };
      for (let round = 0; round < 3; round++) {
        const dir = join(tempFolder(), 'store');
        const children = Array.from({ length: 5 }, () => startChild(['race', dir]));
        await Promise.all(children.map((child) => child.line('ready')));
        for (const child of children) child.process.stdin!.write('go\n');
        const lines = await Promise.all(children.map(said));
        for (const child of children) child.process.stdin!.end();
        await Promise.all(children.map((child) => child.exited));
        const codes = lines
          .filter((line) => line.startsWith('error '))
          .map((line) => JSON.parse(line.slice('error '.length)).code);
        expect(
          lines.filter((line) => line.startsWith('open ')),
          `round ${round}: ${lines}`,
        ).toHaveLength(1);
        expect(codes, `round ${round}: ${lines}`).toEqual([
          'STORE_LOCKED',
          'STORE_LOCKED',
          'STORE_LOCKED',
          'STORE_LOCKED',
        ]);
        const store = await openFileStore(dir);
        expect(await store.verify()).toEqual({ ok: true, problems: [] });
        await store.close();
      }
    }, 120_000);

    for (const ending of ['exits', 'is killed'] as const) {
      it(`refuses while another process holds it, and opens once that process ${ending}`, async () => {
        const dir = join(tempFolder(), 'store');
        const seeded = await openFileStore(dir, { embedder: EMBEDDER });
        await seed(seeded);
        await seeded.close();
        const child = startChild(['hold', dir]);
        const pid = Number((await child.line('open ')).split(' ')[1]);
        const error = await refusal(openFileStore(dir));
        expect(error.code).toBe('STORE_LOCKED');
        expect(error.message).toContain(dir);
        expect(error.message).toContain(`pid ${pid}`);
        if (ending === 'exits') child.process.stdin!.end();
        else child.process.kill('SIGKILL');
        expect(await child.exited).toEqual(
          ending === 'exits' ? { code: 0, signal: null } : { code: null, signal: 'SIGKILL' },
        );
        // A kill leaves the lock file behind; its process is gone, so it is stale.
        expect(existsSync(join(dir, 'lock'))).toBe(ending === 'is killed');
        const store = await openFileStore(dir);
        expect((await store.stats()).nodes).toBe(5);
        expect(await store.verify()).toEqual({ ok: true, problems: [] });
        await store.close();
        expect(existsSync(join(dir, 'lock'))).toBe(false);
      }, 30_000);
    }
  });
});

// Snapshots in OPFS files, in real Chromium: a dedicated Worker writes and reads them with sync
// access handles, a SharedWorker through writable streams and Files; strays, damage and two readers at once.
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser, launchChromium, type StaticServer, serveFiles } from './browser.js';
import type { OpfsRequest } from './opfs-snapshot-worker.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const MB = 1024 * 1024;
// Three 4 MB chunks' worth and an odd tail: the file is read in pieces, the sink written at offsets.
const SIZE = 9 * MB + 123;

let browser: Browser;
let server: StaticServer;
let page: Page;

beforeAll(async () => {
  const worker = await bundleForBrowser(here('./opfs-snapshot-worker.ts'));
  server = await serveFiles(here('.'), {
    '/': { body: '<!doctype html><title>Longship OPFS</title>', type: 'text/html' },
    '/bundle/opfs-worker.js': { body: worker },
  });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${server.origin}/`);
  // a, b: dedicated module Workers; shared: a SharedWorker's port. All on one origin, one OPFS.
  await page.evaluate((url) => {
    const w = window as unknown as { workers: Record<string, Worker | MessagePort> };
    w.workers = {
      a: new Worker(url, { type: 'module' }),
      b: new Worker(url, { type: 'module' }),
      shared: new SharedWorker(url, { type: 'module' }).port,
    };
  }, `${server.origin}/bundle/opfs-worker.js`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Sends one request to each named worker at once; their answers, in order. */
async function ask(requests: [string, OpfsRequest][]): Promise<unknown[]> {
  const answers = await page.evaluate(
    (all) =>
      Promise.all(
        all.map(
          ([who, request]) =>
            new Promise<{ result?: unknown; error?: string }>((resolve) => {
              const target = (window as unknown as { workers: Record<string, Worker | MessagePort> }).workers[
                who
              ]!;
              target.onmessage = (event: MessageEvent) => resolve(event.data);
              target.postMessage(request);
            }),
        ),
      ),
    requests,
  );
  for (const answer of answers) if (answer.error) throw new Error(answer.error);
  return answers.map((answer) => answer.result);
}

const call = async <T>(who: string, request: OpfsRequest) => (await ask([[who, request]]))[0] as T;

const equal = { snapshot: 'equal', into: 'equal', intoDisposed: false, verify: true };
const missing = { snapshot: 'missing', into: 'missing', verify: true };

describe('snapshots in OPFS files (Chromium)', () => {
  it('runs in a dedicated Worker with sync access handles, and a SharedWorker without', async () => {
    expect(await call('a', { op: 'where' })).toEqual({ dedicated: true });
    expect(await call('shared', { op: 'where' })).toEqual({ dedicated: false });
  });

  it('writes a file and reads it back equal, whole and into a sink; a newer one replaces it', async () => {
    const db = 'opfs-roundtrip';
    expect(await call('a', { op: 'put', db, name: 'hnsw', size: SIZE, seed: 1 })).toEqual({ ok: true });
    const { header, chunks } = await call<{ header: { file?: boolean; byteLength: number }; chunks: number }>(
      'a',
      { op: 'header', db, name: 'hnsw' },
    );
    expect(header.file).toBe(true);
    expect(header.byteLength).toBe(SIZE);
    expect(chunks).toBe(0);
    const first = await call<string[]>('a', { op: 'files', db });
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^hnsw\.[0-9a-f]{24}$/);
    expect(await call('a', { op: 'read', db, name: 'hnsw', size: SIZE, seed: 1 })).toMatchObject(equal);

    expect(await call('a', { op: 'put', db, name: 'hnsw', size: SIZE - 5, seed: 2 })).toEqual({ ok: true });
    const second = await call<string[]>('a', { op: 'files', db });
    expect(second).toHaveLength(1);
    expect(second[0]).not.toBe(first[0]);
    expect(await call('a', { op: 'read', db, name: 'hnsw', size: SIZE - 5, seed: 2 })).toMatchObject(equal);
    // A snapshot name with characters a file name cannot hold.
    expect(await call('a', { op: 'put', db, name: 'a/b c', size: 10, seed: 3 })).toEqual({ ok: true });
    expect(await call('a', { op: 'read', db, name: 'a/b c', size: 10, seed: 3 })).toMatchObject(equal);
  });

  it('leaves the old snapshot readable after a crash between file and header; the stray goes later', async () => {
    const db = 'opfs-crash';
    await call('a', { op: 'put', db, name: 'bm25', size: SIZE, seed: 4 });
    const [current] = await call<string[]>('a', { op: 'files', db });
    const stray = await call<string>('a', { op: 'stray', db, name: 'bm25' });
    expect(await call('a', { op: 'files', db })).toEqual([current, stray].sort());
    // The next open reads the old snapshot and sweeps the stray, never the file the header names.
    expect(await call('b', { op: 'read', db, name: 'bm25', size: SIZE, seed: 4 })).toMatchObject(equal);
    expect(await call('a', { op: 'files', db })).toEqual([current]);
    // A stray of another name, then a write: only the new snapshot's file is left.
    await call('a', { op: 'stray', db, name: 'catalogue' });
    await call('a', { op: 'put', db, name: 'bm25', size: 1000, seed: 5 });
    const afterWrite = await call<string[]>('a', { op: 'files', db });
    expect(afterWrite).toHaveLength(1);
    expect(afterWrite).not.toContain(current);
    expect(await call('b', { op: 'read', db, name: 'bm25', size: 1000, seed: 5 })).toMatchObject(equal);
  });

  // A dedicated Worker's write (sync access handle) read back by another; a SharedWorker's (writable stream) by itself.
  it.each([
    { writer: 'a', reader: 'b', db: 'opfs-failing', seed: 16 },
    { writer: 'shared', reader: 'shared', db: 'opfs-shared-failing', seed: 17 },
  ])(
    'keeps the old snapshot and leaves no file when a write fails part way ($writer)',
    async ({ writer, reader, db, seed }) => {
      await call(writer, { op: 'put', db, name: 'hnsw', size: SIZE, seed });
      const before = await call<string[]>(writer, { op: 'files', db });
      expect(await call(writer, { op: 'putFailing', db, name: 'hnsw' })).toMatch(/the bytes ran out/);
      expect(await call(writer, { op: 'files', db })).toEqual(before);
      expect(await call(reader, { op: 'read', db, name: 'hnsw', size: SIZE, seed })).toMatchObject(equal);
    },
  );

  it.each(['a', 'shared'])(
    'reads a damaged, truncated or missing file as a missing snapshot, disposing the sink (%s)',
    async (reader) => {
      const db = `opfs-damage-${reader}`;
      for (const how of ['flip', 'truncate', 'remove'] as const) {
        await call('a', { op: 'put', db, name: 'hnsw', size: SIZE, seed: 6 });
        await call('a', { op: 'damage', db, name: 'hnsw', how });
        const read = await call<{ intoOpened: boolean; intoDisposed: boolean }>(reader, {
          op: 'read',
          db,
          name: 'hnsw',
          size: SIZE,
          seed: 6,
        });
        expect(read, how).toMatchObject(missing);
        // A flipped byte is found only once every byte is read: its sink was opened and must go.
        if (how === 'flip') expect(read).toMatchObject({ intoOpened: true, intoDisposed: true });
      }
      // The next snapshot is whole again.
      await call('a', { op: 'put', db, name: 'hnsw', size: SIZE, seed: 7 });
      expect(await call(reader, { op: 'read', db, name: 'hnsw', size: SIZE, seed: 7 })).toMatchObject(equal);
    },
  );

  it('writes files from a SharedWorker too, through a writable stream, and each side reads what the other wrote', async () => {
    const db = 'opfs-shared';
    await call('shared', { op: 'put', db, name: 'hnsw', size: SIZE, seed: 8 });
    const stored = await call<{ header: { file?: boolean }; chunks: number }>('shared', {
      op: 'header',
      db,
      name: 'hnsw',
    });
    expect(stored).toMatchObject({ header: { file: true }, chunks: 0 });
    const [written] = await call<string[]>('shared', { op: 'files', db });
    expect(written).toMatch(/^hnsw\.[0-9a-f]{24}$/);
    // The SharedWorker reads a File (whole, or through its stream into a sink); the dedicated Worker
    // through a sync access handle.
    expect(await call('shared', { op: 'read', db, name: 'hnsw', size: SIZE, seed: 8 })).toMatchObject(equal);
    expect(await call('a', { op: 'read', db, name: 'hnsw', size: SIZE, seed: 8 })).toMatchObject(equal);
    await call('a', { op: 'put', db, name: 'hnsw', size: SIZE, seed: 9 });
    expect(await call('shared', { op: 'read', db, name: 'hnsw', size: SIZE, seed: 9 })).toMatchObject(equal);
    expect(await call('shared', { op: 'files', db })).not.toContain(written);
    // With snapshotFiles: false it writes IndexedDB Blobs, and the file it leaves a stray goes.
    await call('shared', { op: 'put', db, name: 'hnsw', size: 77, seed: 10, files: false });
    expect(await call('shared', { op: 'header', db, name: 'hnsw' })).toMatchObject({ chunks: 1 });
    expect(await call('shared', { op: 'files', db })).toEqual([]);
    expect(await call('a', { op: 'read', db, name: 'hnsw', size: 77, seed: 10 })).toMatchObject(equal);
  });

  it('reads the rest of a file whole in a SharedWorker when the File stream stops mid-file', async () => {
    const db = 'opfs-stall';
    await call('shared', { op: 'put', db, name: 'hnsw', size: SIZE, seed: 11 });
    const read = { op: 'read', db, name: 'hnsw', size: SIZE, seed: 11 } as const;
    expect(await call('shared', { ...read, stallAfter: 100_000 })).toMatchObject(equal);
    expect(await call('shared', { ...read, stallAfter: 0 })).toMatchObject(equal);
  });

  it("keeps IndexedDB Blobs in a dedicated Worker with snapshotFiles: false, and 'auto' moves them", async () => {
    const db = 'opfs-legacy';
    await call('a', { op: 'put', db, name: 'nodes', size: SIZE, seed: 11, files: false });
    expect(await call('a', { op: 'files', db })).toEqual([]);
    expect(await call('a', { op: 'read', db, name: 'nodes', size: SIZE, seed: 11 })).toMatchObject(equal);
    await call('a', { op: 'put', db, name: 'nodes', size: SIZE, seed: 12 });
    expect(await call('a', { op: 'header', db, name: 'nodes' })).toMatchObject({
      header: { file: true },
      chunks: 0,
    });
    expect(await call('a', { op: 'read', db, name: 'nodes', size: SIZE, seed: 12 })).toMatchObject(equal);
  });

  it('lets two dedicated Workers read one snapshot at once', async () => {
    const db = 'opfs-two-readers';
    await call('a', { op: 'put', db, name: 'hnsw', size: SIZE, seed: 13 });
    const read: OpfsRequest = { op: 'read', db, name: 'hnsw', size: SIZE, seed: 13 };
    for (let round = 0; round < 3; round++) {
      expect(
        await ask([
          ['a', read],
          ['b', read],
        ]),
      ).toEqual([expect.objectContaining(equal), expect.objectContaining(equal)]);
    }
  });

  it('offers a dedicated Worker the file as ranges after the read, held until they are let go', async () => {
    const db = 'opfs-ranges';
    await call('a', { op: 'put', db, name: 'bm25', size: SIZE, seed: 16 });
    const ranges: OpfsRequest = { op: 'ranges', db, name: 'bm25', size: SIZE, seed: 16 };
    expect(await call('a', ranges)).toEqual({
      ranged: true,
      adopted: true,
      equal: true,
      pastEnd: 'STORE_ERROR',
    });
    // A SharedWorker reads through a File's stream: nothing to offer.
    expect(await call('shared', ranges)).toEqual({ ranged: false, adopted: false });
    const [old] = await call<string[]>('a', { op: 'files', db });
    await call('b', { op: 'put', db, name: 'bm25', size: 1000, seed: 17 });
    expect(await call('a', { op: 'files', db })).toContain(old);
    await call('a', { op: 'releaseRanges' });
    // The next write of the name sweeps it.
    await call('b', { op: 'put', db, name: 'bm25', size: 1000, seed: 18 });
    expect(await call('a', { op: 'files', db })).not.toContain(old);
  });

  it('keeps a file a reader holds when it is replaced, and removes it once let go', async () => {
    const db = 'opfs-held';
    await call('a', { op: 'put', db, name: 'hnsw', size: 1000, seed: 14 });
    const [old] = await call<string[]>('a', { op: 'files', db });
    await call('b', { op: 'hold', db, name: 'hnsw' });
    // Read-only handles share: another reader still gets the fast path.
    expect(await call('a', { op: 'openToo', db, name: 'hnsw' })).toBe(true);
    await call('a', { op: 'put', db, name: 'hnsw', size: 2000, seed: 15 });
    expect(await call('a', { op: 'read', db, name: 'hnsw', size: 2000, seed: 15 })).toMatchObject(equal);
    // Chromium will not remove a file a reader holds: it stays, a stray, until a sweep after.
    expect(await call('a', { op: 'files', db })).toContain(old);
    await call('b', { op: 'release' });
    await call('a', { op: 'read', db, name: 'hnsw', size: 2000, seed: 15 });
    const after = await call<string[]>('a', { op: 'files', db });
    expect(after).toHaveLength(1);
    expect(after).not.toContain(old);
  });
});

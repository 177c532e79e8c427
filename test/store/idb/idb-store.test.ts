import { forceCloseDatabase, IDBFactory } from 'fake-indexeddb';
import { type IDBPDatabase, unwrap } from 'idb';
import { describe, expect, it } from 'vitest';
import { openIdbStore } from '../../../src/store/idb/idb-open.js';
import { IDB_SCHEMA_VERSION } from '../../../src/store/idb/idb-schema.js';
import { crc32 } from '../../../src/store/snapshot/crc32.js';
import { STORE_SCHEMA_VERSION } from '../../../src/store/store.js';
import { changeLogContract } from '../../../src/testing/change-log-contract.js';
import { codeOf, dir, EMBEDDER, withContent } from '../../../src/testing/records.js';
import { storeContract } from '../../../src/testing/store-contract.js';
import { idbHarness } from '../harness.js';

storeContract('IdbStore', () => idbHarness());
changeLogContract('IdbStore', () => idbHarness());

/** A plain connection at `version`, without the store's versionchange handling: an old tab. */
function openRaw(factory: IDBFactory, name: string, version?: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, version);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains('x')) request.result.createObjectStore('x');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

describe('IdbStore', () => {
  it('keeps snapshot chunks as Blobs, and still reads chunks kept as Uint8Arrays', async () => {
    const factory = new IDBFactory();
    const harness = idbHarness(factory, 'blob-chunks');
    const store = await harness.open({ embedder: EMBEDDER });
    // Over two chunks, not a multiple of 4 MiB.
    const bytes = new Uint8Array(9 * 1024 * 1024 + 13).map((_, i) => (i * 2654435761) >>> 27);
    await store.putSnapshot({ name: 'big', seq: 0, bytes });
    await store.close();

    const raw = await openRaw(factory, 'blob-chunks');
    const all = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const chunks = await all(raw.transaction('snapshotChunks').objectStore('snapshotChunks').getAll());
    expect(chunks).toHaveLength(3);
    expect(chunks.every((chunk) => chunk.bytes instanceof Blob)).toBe(true);
    // The layout before Blobs: the same chunks, as Uint8Arrays.
    const arrays = await Promise.all(
      chunks.map(async (chunk) => ({ ...chunk, bytes: new Uint8Array(await chunk.bytes.arrayBuffer()) })),
    );
    const tx = raw.transaction('snapshotChunks', 'readwrite');
    for (const chunk of arrays) tx.objectStore('snapshotChunks').put(chunk);
    await new Promise((resolve) => {
      tx.oncomplete = resolve;
    });
    raw.close();

    const again = await harness.open({ embedder: EMBEDDER });
    const read = (await again.snapshot('big'))!.bytes;
    // Not toEqual: it compares 9 M elements one by one.
    expect(Buffer.compare(read, bytes)).toBe(0);
    await again.close();
  });

  it('reads a snapshot whose header predates `hash`: summed with CRC-32', async () => {
    const factory = new IDBFactory();
    const harness = idbHarness(factory, 'crc-header');
    const store = await harness.open({ embedder: EMBEDDER });
    const bytes = new Uint8Array(5 * 1024 * 1024 + 7).map((_, i) => (i * 2654435761) >>> 26);
    await store.putSnapshot({ name: 'old', seq: 0, bytes });
    await store.close();

    const raw = await openRaw(factory, 'crc-header');
    const tx = raw.transaction('snapshots', 'readwrite');
    const headers = tx.objectStore('snapshots');
    headers.get('old').onsuccess = function (this: IDBRequest) {
      const { hash, ...header } = this.result;
      expect(hash).toBe('fnv4');
      headers.put({ ...header, checksum: crc32(bytes) });
    };
    await new Promise((resolve) => {
      tx.oncomplete = resolve;
    });
    raw.close();

    const again = await harness.open({ embedder: EMBEDDER });
    expect(Buffer.compare((await again.snapshot('old'))!.bytes, bytes)).toBe(0);
    const into = new Uint8Array(bytes.length);
    const read = await again.snapshotInto('old', () => ({
      write: (piece: Uint8Array, offset: number) => into.set(piece, offset),
      dispose: () => undefined,
    }));
    expect(read?.seq).toBe(0);
    expect(Buffer.compare(into, bytes)).toBe(0);
    await again.close();
  });

  it('tells onIssued once a commit is under way, not for a batch it refuses; a hook that throws fails nothing', async () => {
    const harness = idbHarness(new IDBFactory(), 'issued');
    const store = await harness.open({ embedder: EMBEDDER });
    const k = await store.allocateKeys(6);
    const events: string[] = [];
    const batch = withContent(dir('viking://resources', k), [k + 1]);
    const committing = store.commit(batch, undefined, () => events.push('issued'));
    const committed = committing.then(() => events.push('committed'));
    await committed;
    expect(events).toEqual(['issued', 'committed']);

    // A vector of the wrong length is refused while planning: nothing was issued.
    const wrong = withContent(dir('viking://resources/b', k + 2), []);
    wrong.putVectors.push({ key: k + 3, nodeKey: k + 2, chunk: 0, vector: new Float32Array(3) });
    expect(await codeOf(store.commit(wrong, undefined, () => events.push('wrongly issued')))).toBe(
      'DIMENSION_MISMATCH',
    );
    expect(events).not.toContain('wrongly issued');

    const first = await committing;
    const seq = await store.commit(
      withContent(dir('viking://resources/c', k + 4), [k + 5]),
      undefined,
      () => {
        throw new Error('the hook broke');
      },
    );
    expect(seq).toBe(first + 1);
    expect((await store.node('viking://resources/c'))?.key).toBe(k + 4);
    expect((await store.verify()).ok).toBe(true);
    await store.close();
  });

  it('uses the store schema version as the database version', async () => {
    expect(IDB_SCHEMA_VERSION).toBe(STORE_SCHEMA_VERSION);
    const store = await idbHarness().open();
    expect((await store.meta()).schemaVersion).toBe(STORE_SCHEMA_VERSION);
  });

  it('refuses without a factory', async () => {
    expect(await codeOf(openIdbStore('x', {} as never))).toBe('INVALID_ARGUMENT');
  });

  it('gives STORE_BLOCKED when an older connection will not let it upgrade, and lets go when it is let through', async () => {
    const factory = new IDBFactory();
    const old = await openRaw(factory, 'blocked', 1);
    expect(await codeOf(openIdbStore('blocked', { indexedDB: factory }))).toBe('STORE_BLOCKED');
    old.close();
    // The upgrade goes through once the old tab lets go; the store closes the connection nobody
    // awaits, so deleting the database is not blocked by it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise<void>((resolve, reject) => {
      const request = factory.deleteDatabase('blocked');
      request.onblocked = () => reject(new Error('a leaked connection blocks the delete'));
      request.onsuccess = () => resolve();
    });
  });

  it('steps aside for a newer version in another tab, then fails with STORE_CLOSED', async () => {
    const factory = new IDBFactory();
    const store = await openIdbStore('newer', { indexedDB: factory, embedder: EMBEDDER });
    const k = await store.allocateKeys(1);
    await store.commit(withContent(dir('viking://resources', k)));
    const newer = await openRaw(factory, 'newer', IDB_SCHEMA_VERSION + 1);
    expect(await codeOf(store.node('viking://resources'))).toBe('STORE_CLOSED');
    newer.close();
    expect(await codeOf(openIdbStore('newer', { indexedDB: factory }))).toBe('SCHEMA_MISMATCH');
  });

  it('fails with STORE_CLOSED when the browser closes the connection', async () => {
    const factory = new IDBFactory();
    const store = await openIdbStore('lost', { indexedDB: factory });
    // forceCloseDatabase closes a connection as a browser does when storage is cleared or lost.
    forceCloseDatabase(
      unwrap((store as unknown as { connection: { db: IDBPDatabase } }).connection.db) as never,
    );
    expect(await codeOf(store.meta())).toBe('STORE_CLOSED');
  });
});

// A module Worker, or a SharedWorker, for chromium-opfs-snapshots.test.ts: each message is one
// operation on a real IndexedDB store and its OPFS snapshot files; the answer is its outcome.
import { defaultIndexedDB } from '../../src/env/indexeddb.js';
import type { SnapshotRanges } from '../../src/store/change-log.js';
import { openIdbStore } from '../../src/store/idb/idb-open.js';
import { fileName } from '../../src/store/idb/opfs-snapshots.js';
import { newGeneration } from '../../src/store/snapshot/snapshot-format.js';

export type OpfsRequest =
  | { op: 'put'; db: string; name: string; size: number; seed: number; files?: 'auto' | false }
  | {
      op: 'read';
      db: string;
      name: string;
      size: number;
      seed: number;
      /** Files' streams give this many bytes, then none, as Chromium's was once seen to. */
      stallAfter?: number;
    }
  | { op: 'putFailing'; db: string; name: string }
  | { op: 'files'; db: string }
  | { op: 'header'; db: string; name: string }
  | { op: 'stray'; db: string; name: string }
  | { op: 'damage'; db: string; name: string; how: 'flip' | 'truncate' | 'remove' }
  | { op: 'hold'; db: string; name: string }
  | { op: 'openToo'; db: string; name: string }
  | { op: 'release' }
  | { op: 'ranges'; db: string; name: string; size: number; seed: number }
  | { op: 'releaseRanges' }
  | { op: 'where' };

/** 'equal' when read back as written, 'differs' when read but not equal, 'missing' when not read. */
export type ReadOutcome = 'equal' | 'differs' | 'missing';

const dirOf = (db: string) => `longship-snapshots.${encodeURIComponent(db)}`;

/** The snapshot's bytes: a pattern that differs by seed and position. */
function expected(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (Math.imul(i ^ (i >>> 11), 31) + seed) & 255;
  return bytes;
}

/** Given in odd-sized pieces, so the store cuts them into its own chunks. */
function* pieces(bytes: Uint8Array): Iterable<Uint8Array> {
  const piece = 1024 * 1024 + 7;
  for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
}

/** A File's stream that gives its first `after` bytes and then never another. */
function stalling(after: number): File['stream'] {
  return function (this: File) {
    const head = this.slice(0, after);
    let given = false;
    return new ReadableStream({
      type: 'bytes',
      async pull(controller) {
        if (given) return new Promise<void>(() => {});
        given = true;
        controller.enqueue(new Uint8Array(await head.arrayBuffer()));
      },
    }) as ReturnType<File['stream']>;
  };
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

async function store(db: string, files?: 'auto' | false) {
  return openIdbStore(db, {
    indexedDB: defaultIndexedDB()!,
    ...(files === undefined ? {} : { snapshotFiles: files }),
  });
}

/** The header as stored, and how many IndexedDB chunks the name has, through IndexedDB itself. */
async function header(db: string, name: string): Promise<{ header: unknown; chunks: number }> {
  const raw = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(db);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const tx = raw.transaction(['snapshots', 'snapshotChunks'], 'readonly');
    const ask = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const found = await ask(tx.objectStore('snapshots').get(name));
    const chunks = await ask(tx.objectStore('snapshotChunks').count(IDBKeyRange.bound([name], [name, []])));
    return { header: found, chunks };
  } finally {
    raw.close();
  }
}

async function dir(db: string) {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(dirOf(db), { create: true });
}

async function currentFile(db: string, name: string): Promise<FileSystemFileHandle> {
  const { header: found } = await header(db, name);
  const { generation } = found as { generation: string };
  return (await dir(db)).getFileHandle(fileName(name, generation));
}

type Sync = {
  read(b: Uint8Array, o: { at: number }): number;
  write(b: Uint8Array, o: { at: number }): number;
  truncate(n: number): void;
  getSize(): number;
  flush(): void;
  close(): void;
};
const syncOf = (file: FileSystemFileHandle, mode: string) =>
  (file as unknown as { createSyncAccessHandle(o: { mode: string }): Promise<Sync> }).createSyncAccessHandle({
    mode,
  });

let held: Sync | undefined;
let heldRanges: SnapshotRanges | undefined;

async function handle(request: OpfsRequest): Promise<unknown> {
  switch (request.op) {
    case 'where':
      return {
        dedicated:
          typeof (globalThis as { FileSystemSyncAccessHandle?: unknown }).FileSystemSyncAccessHandle ===
          'function',
      };
    case 'put': {
      const s = await store(request.db, request.files);
      try {
        await s.putSnapshot({
          name: request.name,
          seq: 0,
          bytes: pieces(expected(request.size, request.seed)),
        });
        return { ok: (await s.verify()).ok };
      } finally {
        await s.close();
      }
    }
    case 'putFailing': {
      // Bytes that fail part way, after a chunk has gone to the file.
      async function* failing(): AsyncIterable<Uint8Array> {
        yield expected(5 * 1024 * 1024, 0);
        throw new Error('the bytes ran out');
      }
      const s = await store(request.db);
      try {
        await s.putSnapshot({ name: request.name, seq: 0, bytes: failing() });
        return 'written';
      } catch (error) {
        return String(error);
      } finally {
        await s.close();
      }
    }
    case 'read': {
      const want = expected(request.size, request.seed);
      const s = await store(request.db);
      const stream = File.prototype.stream;
      if (request.stallAfter !== undefined) File.prototype.stream = stalling(request.stallAfter);
      try {
        const whole = await s.snapshot(request.name);
        let disposed = false;
        let into: Uint8Array | undefined;
        const read = await s.snapshotInto(request.name, (length) => {
          into = new Uint8Array(length);
          return {
            write: (bytes: Uint8Array, offset: number) => into!.set(bytes, offset),
            dispose: () => {
              disposed = true;
            },
          };
        });
        const outcome = (bytes: Uint8Array | undefined): ReadOutcome =>
          bytes === undefined ? 'missing' : same(bytes, want) ? 'equal' : 'differs';
        return {
          snapshot: outcome(whole?.bytes),
          into: outcome(read ? into : undefined),
          // A sink opened for a snapshot that then failed its check must be disposed.
          intoDisposed: disposed,
          intoOpened: into !== undefined,
          verify: (await s.verify()).ok,
        };
      } finally {
        File.prototype.stream = stream;
        await s.close();
      }
    }
    case 'files': {
      const names: string[] = [];
      for await (const key of (
        (await dir(request.db)) as unknown as { keys(): AsyncIterable<string> }
      ).keys()) {
        names.push(key);
      }
      return names.sort();
    }
    case 'header':
      return header(request.db, request.name);
    case 'stray': {
      // What a crash between a file and its header leaves: a complete file that no header names.
      const name = fileName(request.name, newGeneration());
      const file = await (await dir(request.db)).getFileHandle(name, { create: true });
      const sync = await syncOf(file, 'readwrite');
      sync.write(expected(5000, 9), { at: 0 });
      sync.flush();
      sync.close();
      return name;
    }
    case 'damage': {
      const file = await currentFile(request.db, request.name);
      if (request.how === 'remove') {
        await (await dir(request.db)).removeEntry(file.name);
        return true;
      }
      const sync = await syncOf(file, 'readwrite');
      try {
        if (request.how === 'truncate') sync.truncate(sync.getSize() - 1);
        else {
          const at = Math.floor(sync.getSize() / 2);
          const byte = new Uint8Array(1);
          sync.read(byte, { at });
          byte[0]! ^= 1;
          sync.write(byte, { at });
        }
        sync.flush();
      } finally {
        sync.close();
      }
      return true;
    }
    case 'hold': {
      held = await syncOf(await currentFile(request.db, request.name), 'read-only');
      return true;
    }
    case 'openToo': {
      // Whether a read-only sync access handle can be had while another worker holds one: the fast
      // path for two tabs reading at once.
      try {
        (await syncOf(await currentFile(request.db, request.name), 'read-only')).close();
        return true;
      } catch (error) {
        return String(error);
      }
    }
    case 'release':
      held?.close();
      held = undefined;
      return true;
    case 'ranges': {
      // A sink that keeps nothing as it is read, and takes the file's ranges for later instead.
      const want = expected(request.size, request.seed);
      const s = await store(request.db);
      let ranged: boolean | undefined;
      try {
        const read = await s.snapshotInto(request.name, (_length, given) => {
          ranged = given;
          return {
            write: () => undefined,
            dispose: () => undefined,
            adopt: (ranges: SnapshotRanges) => {
              heldRanges = ranges;
            },
          };
        });
        if (!read || !heldRanges) return { ranged, adopted: false };
        const at = Math.floor(request.size / 3);
        const piece = new Uint8Array(4096);
        heldRanges.read(piece, at);
        let pastEnd = 'read';
        try {
          heldRanges.read(new Uint8Array(10), request.size - 5);
        } catch (error) {
          pastEnd = (error as { code?: string }).code ?? String(error);
        }
        return { ranged, adopted: true, equal: same(piece, want.subarray(at, at + piece.length)), pastEnd };
      } finally {
        await s.close();
      }
    }
    case 'releaseRanges':
      heldRanges?.close();
      heldRanges = undefined;
      return true;
  }
}

type Port = { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown): void };

function serve(port: Port) {
  port.onmessage = async (event: MessageEvent<OpfsRequest>) => {
    try {
      port.postMessage({ result: await handle(event.data) });
    } catch (error) {
      port.postMessage({ error: `${(error as { code?: string }).code ?? ''} ${String(error)}` });
    }
  };
}

const scope = globalThis as unknown as Port & { onconnect?: ((event: MessageEvent) => void) | null };
// A SharedWorker is handed a port per page; a dedicated Worker talks through its own scope.
if ('onconnect' in scope) scope.onconnect = (event) => serve(event.ports[0] as unknown as Port);
else serve(scope);

// Bundled by test/edge/durable-object-store.test.ts and run in workerd by Miniflare: a SQLite-backed
// Durable Object that holds DurableObjectStores over its own `ctx.storage` and runs each store call
// Node sends it (durable-object-remote.ts), so the contract suites test the store where it lives.

import type { SnapshotSink } from '../../src/store/change-log.js';
import type { DurableObjectStore } from '../../src/store/durable-object/durable-object-store.js';
import { openDurableObjectStore } from '../../src/store/durable-object/open-durable-object-store.js';
import type { DurableObjectSqlStorage } from '../../src/store/durable-object/sql-storage.js';
import { decodeWire, encodeWire } from './durable-object-wire.js';

interface Namespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

interface Env {
  STORE: Namespace;
  KV_STORE: Namespace;
}

/** The methods Node may call as they are; the rest take a hand here. */
const CALLS = new Set([
  'meta',
  'allocateKeys',
  'write',
  'get',
  'lookup',
  'descendants',
  'changesSince',
  'pruneChanges',
  'snapshot',
  'deleteSnapshot',
  'close',
  'destroy',
]);

/** Snapshot bytes as they arrive from Node, one request a piece: what putSnapshot reads. */
class Upload {
  readonly #pieces: Uint8Array[] = [];
  #ended = false;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;
  readonly controller = new AbortController();
  outcome: Promise<unknown> | undefined;

  push(piece: Uint8Array): void {
    this.#pieces.push(piece);
    this.#wake?.();
  }

  end(failure?: Error): void {
    this.#ended = true;
    this.#failure = failure;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const piece = this.#pieces.shift();
      if (piece) yield piece;
      else if (this.#failure) throw this.#failure;
      else if (this.#ended) return;
      else await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

export class StoreObject {
  readonly #storage: DurableObjectSqlStorage;
  readonly #stores = new Map<number, DurableObjectStore>();
  readonly #scans = new Map<number, AsyncIterator<unknown>>();
  readonly #uploads = new Map<number, Upload>();
  #next = 1;

  constructor(ctx: { storage: DurableObjectSqlStorage }) {
    this.#storage = ctx.storage;
  }

  async fetch(request: Request): Promise<Response> {
    const { op, args } = decodeWire<{ op: string; args: unknown[] }>(
      new Uint8Array(await request.arrayBuffer()),
    );
    try {
      return new Response(encodeWire({ result: await this.#run(op, args) }));
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      return new Response(encodeWire({ error: { code, message: message ?? String(error) } }));
    }
  }

  async #run(op: string, args: unknown[]): Promise<unknown> {
    if (op === 'open') {
      const id = this.#next++;
      this.#stores.set(id, await openDurableObjectStore(this.#storage, args[0] as never));
      return id;
    }
    if (op === 'call') {
      const [handle, method, rest] = args as [number, string, unknown[]];
      if (!CALLS.has(method)) throw new Error(`no such call ${method}`);
      const store = this.#stores.get(handle) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return store[method]!(...rest);
    }
    if (op === 'scan') {
      const [handle, table, batchSize] = args as [number, 'nodes', number | undefined];
      const id = this.#next++;
      this.#scans.set(id, this.#stores.get(handle)!.scan(table, batchSize)[Symbol.asyncIterator]());
      return id;
    }
    if (op === 'next') return this.#scans.get(args[0] as number)!.next();
    if (op === 'snapshotInto') return this.#snapshotInto(args[0] as number, args[1] as string);
    if (op.startsWith('upload')) return this.#upload(op, args);
    if (op === 'chunkIds') return this.#chunkIds();
    if (op === 'sql') return this.#storage.sql.exec(...(args as [string])).toArray();
    if (op === 'corrupt') return this.#corrupt(...(args as [string, string, number]));
    throw new Error(`no such op ${op}`);
  }

  /** A snapshot read into a sink here, and its writes sent to Node's sink. */
  async #snapshotInto(handle: number, name: string) {
    const writes: [Uint8Array, number][] = [];
    let ranged = false;
    const got = await this.#stores.get(handle)!.snapshotInto(name, (byteLength, canRange) => {
      ranged = canRange;
      return {
        byteLength,
        write: (bytes, offset) => writes.push([bytes.slice(), offset]),
        dispose() {},
      } satisfies SnapshotSink & { byteLength: number };
    });
    return got && { seq: got.seq, byteLength: got.sink.byteLength, ranged, writes };
  }

  async #upload(op: string, args: unknown[]): Promise<unknown> {
    if (op === 'uploadBegin') {
      const [handle, name, seq] = args as [number, string, number];
      const id = this.#next++;
      const upload = new Upload();
      // Settled here, so a refusal before the first piece is not an unhandled rejection.
      upload.outcome = this.#stores
        .get(handle)!
        .putSnapshot({ name, seq, bytes: upload }, upload.controller.signal)
        .then(
          () => ({ ok: true }),
          (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
        );
      this.#uploads.set(id, upload);
      return id;
    }
    const upload = this.#uploads.get(args[0] as number)!;
    if (op === 'uploadPiece') return upload.push(args[1] as Uint8Array);
    if (op === 'uploadAbort') return upload.controller.abort(new Error('aborted in Node'));
    upload.end(op === 'uploadFail' ? new Error(args[1] as string) : undefined);
    this.#uploads.delete(args[0] as number);
    return upload.outcome;
  }

  #chunkIds(): unknown {
    return this.#storage.sql
      .exec(
        'SELECT DISTINCT name, generation, chunk FROM longship_snapshot_parts ORDER BY name, generation, chunk',
      )
      .toArray()
      .map((row) => [row.name, row.generation, row.chunk]);
  }

  #corrupt(name: string, how: string, index = 0): void {
    const [row] = this.#storage.sql
      .exec('SELECT header FROM longship_snapshots WHERE name = ?', name)
      .toArray();
    const { generation } = JSON.parse(row!.header as string) as { generation: string };
    const where = 'WHERE name = ? AND generation = ? AND chunk = ?';
    if (how === 'drop-chunk') {
      this.#storage.sql.exec(`DELETE FROM longship_snapshot_parts ${where}`, name, generation, index);
      return;
    }
    // Flips a byte in the middle of the chunk: in its first part, which holds at least one byte.
    const [part] = this.#storage.sql
      .exec(`SELECT bytes FROM longship_snapshot_parts ${where} AND part = 0`, name, generation, index)
      .toArray();
    const bytes = new Uint8Array(part!.bytes as ArrayBuffer);
    bytes[bytes.length >> 1]! ^= 0xff;
    this.#storage.sql.exec(
      `UPDATE longship_snapshot_parts SET bytes = ? ${where} AND part = 0`,
      bytes,
      name,
      generation,
      index,
    );
  }
}

/** The same, in a Durable Object class declared without SQLite storage. */
export class KvStoreObject extends StoreObject {}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { host, pathname } = new URL(request.url);
    const namespace = host === 'kv' ? env.KV_STORE : env.STORE;
    return namespace.get(namespace.idFromName(pathname.slice(1))).fetch(request);
  },
};

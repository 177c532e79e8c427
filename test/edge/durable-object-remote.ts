// A Store in Node whose every call runs in a Durable Object under Miniflare
// (durable-object-worker.ts): what the contract suites test there. It only forwards: each method is
// one request (a snapshot's bytes, one request a piece), and errors come back with their codes.

import type { Miniflare } from 'miniflare';
import { type ErrorCode, LongshipError } from '../../src/errors.js';
import type { ChangeLog, Snapshot, SnapshotInput, SnapshotSink } from '../../src/store/change-log.js';
import type {
  ChangeRecord,
  NodeRecord,
  OpenStoreOptions,
  RecordTables,
  Store,
  StoreKeys,
  StoreLookups,
  StoreMeta,
  StoreWrites,
} from '../../src/store/store.js';
import type { SnapshotTamper } from '../../src/testing/harness.js';
import { decodeWire, encodeWire } from './durable-object-wire.js';

/** Sends one op to the Durable Object called `name`, and answers with its result or throws its error. */
export type Send = (op: string, ...args: unknown[]) => Promise<unknown>;

/** `host` 'kv' reaches the class declared without SQLite storage. */
export function sender(miniflare: () => Miniflare, name: string, host = 'store'): Send {
  return async (op, ...args) => {
    const response = await miniflare().dispatchFetch(`http://${host}/${name}`, {
      method: 'POST',
      body: encodeWire({ op, args }),
    });
    const answer = decodeWire<{ result?: unknown; error?: { code?: ErrorCode; message: string } }>(
      new Uint8Array(await response.arrayBuffer()),
    );
    if (!answer.error) return answer.result;
    const { code, message } = answer.error;
    throw code ? new LongshipError(code, message) : new Error(message);
  };
}

/** Opens a store in the object, as the harness's `open`. */
export async function openRemoteStore(send: Send, options?: OpenStoreOptions): Promise<Store & ChangeLog> {
  return new RemoteStore(send, (await send('open', options)) as number);
}

class RemoteStore implements Store, ChangeLog {
  readonly persistent = true;
  constructor(
    private readonly send: Send,
    private readonly handle: number,
  ) {}

  #call<T>(method: string, ...args: unknown[]): Promise<T> {
    return this.send('call', this.handle, method, args) as Promise<T>;
  }

  meta = () => this.#call<StoreMeta>('meta');
  allocateKeys = (count: number) => this.#call<number>('allocateKeys', count);
  write = (writes: StoreWrites) => this.#call<boolean>('write', writes);
  get = <T extends keyof StoreKeys>(table: T, keys: readonly StoreKeys[T][]) =>
    this.#call<(RecordTables[T] | undefined)[]>('get', table, keys);
  lookup = <T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
    table: T,
    field: F,
    value: StoreLookups[T][F],
  ) => this.#call<RecordTables[T][]>('lookup', table, field, value);
  descendants = (uri: string) => this.#call<NodeRecord[]>('descendants', uri);
  changesSince = (seq: number) => this.#call<ChangeRecord[]>('changesSince', seq);
  pruneChanges = (seq: number) => this.#call<void>('pruneChanges', seq);
  snapshot = (name: string) => this.#call<Snapshot | undefined>('snapshot', name);
  deleteSnapshot = (name: string) => this.#call<void>('deleteSnapshot', name);
  close = () => this.#call<void>('close');
  destroy = () => this.#call<void>('destroy');

  async *scan<T extends keyof RecordTables>(table: T, batchSize?: number): AsyncIterable<RecordTables[T][]> {
    const id = await this.send('scan', this.handle, table, batchSize);
    for (;;) {
      const { done, value } = (await this.send('next', id)) as IteratorResult<RecordTables[T][]>;
      if (done) return;
      yield value;
    }
  }

  async putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    const id = await this.send('uploadBegin', this.handle, input?.name, input?.seq);
    const pieces = input.bytes instanceof Uint8Array ? [input.bytes] : input.bytes;
    try {
      for await (const piece of pieces) {
        if (signal?.aborted) break;
        await this.send('uploadPiece', id, piece);
      }
    } catch (error) {
      await this.send('uploadFail', id, (error as Error).message);
      throw error;
    }
    if (signal?.aborted) await this.send('uploadAbort', id);
    const outcome = (await this.send('uploadEnd', id)) as { ok?: true; code?: ErrorCode; message?: string };
    if (!outcome.ok) throw new LongshipError(outcome.code!, outcome.message!);
  }

  async snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    const got = (await this.send('snapshotInto', this.handle, name)) as
      | { seq: number; byteLength: number; writes: [Uint8Array, number][] }
      | undefined;
    if (!got) return undefined;
    // Ranges read synchronously, which a request cannot: the sink here is told there are none.
    const sink = open(got.byteLength, false);
    try {
      for (const [bytes, offset] of got.writes) sink.write(bytes, offset);
    } catch (error) {
      sink.dispose();
      throw error;
    }
    return { seq: got.seq, sink };
  }
}

/** Damage to the object's stored snapshots, made with SQL inside it. */
export function remoteTamper(send: Send): SnapshotTamper {
  return {
    corruptSnapshot: async (name, how, index) => void (await send('corrupt', name, how, index)),
    chunkIds: async () => (await send('chunkIds')) as [string, string, number][],
  };
}

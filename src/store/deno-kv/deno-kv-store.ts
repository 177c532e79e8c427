// A Store over a Deno KV handle (docs/guide/deno-kv.md): the nine methods and a change log, each a
// few key ranges or one atomic batch. The operations the engine derives from them (fullStore) it
// derives: a commit is planned outside the KV and written by `write` with its check of the meta key.

import { LongshipError } from '../../errors.js';
import { SerialQueue } from '../../serial-queue.js';
import type { ChangeLog, Snapshot, SnapshotInput, SnapshotSink } from '../change-log.js';
import { decideEmbedder } from '../embedder-check.js';
import { vectorWipe } from '../plan/commit-plan.js';
import type {
  ChangeRecord,
  EmbedderInfo,
  EmbedderMismatch,
  NodeRecord,
  PostingRecord,
  RecordTables,
  RelationRecord,
  Store,
  StoreKeys,
  StoreLookups,
  StoreMeta,
  StoreOperations,
  StoreStats,
  StoreWrites,
  VerifyReport,
} from '../store.js';
import { commitEach, del, getValues, listAll } from './kv-batches.js';
import { kvErrors } from './kv-errors.js';
import type { DenoKv, KvKey } from './kv-handle.js';
import { applyJournal, commitWrites, type MetaEntry, readMeta } from './kv-journal.js';
import type { KvKeys } from './kv-keys.js';
import { KvSnapshots } from './kv-snapshots.js';
import { decodeChange, decodeVector, joinRecord, type StoredRecord } from './kv-values.js';
import { kvProblems } from './kv-verify.js';
import { mutationsOf } from './kv-writes.js';

/** How many times useEmbedder tries again when another writer committed meanwhile. */
const EMBEDDER_ATTEMPTS = 5;

/** The Deno KV store. Open it with `openDenoKvStore`. */
export class DenoKvStore
  implements Store, ChangeLog, Pick<StoreOperations, 'useEmbedder' | 'verify' | 'stats'>
{
  readonly persistent = true;
  #closed = false;
  readonly #writes = new SerialQueue();
  /** Settles once the journal this object is applying, if any, is applied: reads wait for it. */
  #applied: Promise<unknown> = Promise.resolve();
  readonly #snapshots: KvSnapshots;

  constructor(
    private readonly kv: DenoKv,
    private readonly k: KvKeys,
  ) {
    this.#snapshots = new KvSnapshots(
      kv,
      k,
      () => this.#live(),
      async () => (await this.meta()).seq,
    );
  }

  #live(): void {
    if (this.#closed) throw new LongshipError('STORE_CLOSED', 'the store is closed');
  }

  /** Runs a read once any journal being applied is, with KV failures as STORE_ERROR. */
  async #read<T>(task: () => Promise<T>): Promise<T> {
    this.#live();
    await this.#applied;
    return kvErrors(task);
  }

  /** The meta entry, a published journal applied first. */
  async #meta(): Promise<MetaEntry> {
    let meta = await readMeta(this.kv, this.k);
    while (meta.value.applying) {
      await applyJournal(this.kv, this.k, meta);
      meta = await readMeta(this.kv, this.k);
    }
    return meta;
  }

  meta(): Promise<StoreMeta> {
    return this.#read(async () => {
      const [{ value }, next] = await Promise.all([this.#meta(), this.kv.get<number>(this.k.nextKey())]);
      return {
        seq: value.seq,
        nextKey: next.value ?? 1,
        ...(value.embedder ? { embedder: value.embedder } : {}),
      };
    });
  }

  async allocateKeys(count: number): Promise<number> {
    this.#live();
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new LongshipError('INVALID_ARGUMENT', 'allocateKeys needs a positive integer count');
    }
    return kvErrors(async () => {
      for (;;) {
        const entry = await this.kv.get<number>(this.k.nextKey());
        const first = entry.value ?? 1;
        const op = this.kv.atomic().check({ key: this.k.nextKey(), versionstamp: entry.versionstamp });
        if ((await op.set(this.k.nextKey(), first + count).commit()).ok) return first;
      }
    });
  }

  async write(writes: StoreWrites): Promise<boolean> {
    this.#live();
    return this.#writes.run(() =>
      kvErrors(async () => {
        this.#live();
        const meta = await this.#meta();
        if (meta.value.seq !== writes.change.seq - 1) return false;
        const mutations = await mutationsOf(this.kv, this.k, writes);
        const embedder = writes.embedder ?? meta.value.embedder;
        const next = { seq: writes.change.seq, ...(embedder ? { embedder: { ...embedder } } : {}) };
        const written = commitWrites(this.kv, this.k, mutations, meta, next);
        this.#applied = written.catch(() => undefined);
        return written;
      }),
    );
  }

  get<T extends keyof StoreKeys>(
    table: T,
    keys: readonly StoreKeys[T][],
  ): Promise<(RecordTables[T] | undefined)[]> {
    return this.#read(async () => {
      if (table === 'nodes') return (await this.#nodes(keys as readonly string[])) as RecordTables[T][];
      if (table === 'vectors') return (await this.#vectors(keys as readonly number[])) as RecordTables[T][];
      if (table === 'postings') return (await this.#postings(keys as readonly number[])) as RecordTables[T][];
      throw new LongshipError('INVALID_ARGUMENT', `no table ${String(table)} to get from`);
    });
  }

  lookup<T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
    table: T,
    field: F,
    value: StoreLookups[T][F],
  ): Promise<RecordTables[T][]> {
    return this.#read(async () => {
      const k = this.k;
      const lastPart = async (prefix: KvKey) => (await listAll(this.kv, { prefix })).map((e) => e.key.at(-1));
      switch (`${table}.${String(field)}`) {
        case 'nodes.key': {
          const uri = (await this.kv.get<string>(k.nodeByKey(value as number))).value;
          return (uri === null ? [] : await this.#nodes([uri])).filter((n) => n !== undefined) as never;
        }
        case 'nodes.parent':
          return (await this.#nodes((await lastPart(k.nodeByParent(value as string))) as string[])) as never;
        case 'vectors.nodeKey':
          return (await this.#vectors(
            (await lastPart(k.vectorByNode(value as number))) as number[],
          )) as never;
        case 'relations.from':
          return (await listAll<RelationRecord>(this.kv, { prefix: k.relationsFrom(value as string) })).map(
            (e) => e.value,
          ) as never;
        case 'relations.to': {
          const froms = (await lastPart(k.relationByTo(value as string))) as string[];
          const found = await getValues(
            this.kv,
            froms.map((from) => k.relation(from, value as string)),
          );
          return found.filter((r) => r !== null) as never;
        }
      }
      throw new LongshipError('INVALID_ARGUMENT', `no lookup of ${table} by ${String(field)}`);
    });
  }

  descendants(uri: string): Promise<NodeRecord[]> {
    // '0' follows '/': the range holds exactly the URIs that start with `uri + '/'`.
    return this.#read(async () => {
      const found = await listAll<StoredRecord<NodeRecord>>(this.kv, {
        start: this.k.node(`${uri}/`),
        end: this.k.node(`${uri}0`),
      });
      return Promise.all(found.map((e) => this.#joinNode(e.value)));
    });
  }

  async *scan<T extends keyof RecordTables>(table: T, batchSize = 1000): AsyncIterable<RecordTables[T][]> {
    this.#live();
    await this.#applied;
    const prefix =
      { nodes: this.k.nodes(), vectors: this.k.vectors(), postings: this.k.postings() }[table as 'nodes'] ??
      this.k.relationsFrom();
    let batch: unknown[] = [];
    for await (const entry of this.kv.list({ prefix }, { batchSize: Math.min(batchSize, 1000) })) {
      this.#live();
      batch.push(await this.#decode(table, entry.key, entry.value));
      if (batch.length >= batchSize) {
        yield batch as RecordTables[T][];
        batch = [];
      }
    }
    if (batch.length > 0) yield batch as RecordTables[T][];
  }

  async #decode(table: keyof RecordTables, key: KvKey, value: unknown): Promise<unknown> {
    if (table === 'nodes') return this.#joinNode(value as StoredRecord<NodeRecord>);
    if (table === 'vectors') return decodeVector(key.at(-1) as number, value as Uint8Array);
    if (table === 'postings') return this.#joinPosting(value as StoredRecord<PostingRecord>);
    return value;
  }

  async #nodes(uris: readonly string[]): Promise<(NodeRecord | undefined)[]> {
    const found = await getValues(this.kv, uris.map(this.k.node));
    const seen = new Set<unknown>();
    return Promise.all(
      found.map((v) => {
        if (!v) return undefined;
        // A URI asked twice gets two records, as from any other store.
        const stored = seen.has(v) ? structuredClone(v) : v;
        seen.add(v);
        return this.#joinNode(stored as StoredRecord<NodeRecord>);
      }),
    );
  }

  async #vectors(keys: readonly number[]) {
    const found = await getValues(this.kv, keys.map(this.k.vector));
    return found.map((v, i) => (v ? decodeVector(keys[i]!, v as Uint8Array) : undefined));
  }

  async #postings(keys: readonly number[]): Promise<(PostingRecord | undefined)[]> {
    const found = await getValues(this.kv, keys.map(this.k.posting));
    return Promise.all(
      found.map((v) => (v ? this.#joinPosting(v as StoredRecord<PostingRecord>) : undefined)),
    );
  }

  #joinNode(stored: StoredRecord<NodeRecord>): Promise<NodeRecord> {
    return joinRecord(stored, this.k.nodePart(stored.record.uri), (keys) => getValues(this.kv, keys));
  }

  #joinPosting(stored: StoredRecord<PostingRecord>): Promise<PostingRecord> {
    return joinRecord(stored, this.k.postingPart(stored.record.key), (keys) => getValues(this.kv, keys));
  }

  /**
   * The embedder recorded, or a reset: every vector deleted and the new embedder recorded in one
   * write, then the snapshots of the old vectors deleted (a snapshot left by a crash between the two
   * is of other dimensions, and rebuilt).
   */
  async useEmbedder(embedder: EmbedderInfo, onMismatch?: EmbedderMismatch): Promise<{ reset: boolean }> {
    this.#live();
    for (let attempt = 1; ; attempt++) {
      const meta = await this.meta();
      const decision = decideEmbedder(meta.embedder, embedder, onMismatch);
      if (decision === 'keep') return { reset: false };
      const removed: number[] = [];
      if (decision === 'reset')
        for await (const rows of this.scan('vectors')) removed.push(...rows.map((v) => v.key));
      const writes = vectorWipe(meta.seq + 1, removed);
      writes.embedder = { id: embedder.id, dimensions: embedder.dimensions };
      if (await this.write(writes)) {
        if (decision === 'reset') {
          const names = await this.#read(() =>
            listAll<{ name: string }>(this.kv, { prefix: this.k.snapshots() }),
          );
          for (const { value } of names) await this.deleteSnapshot(value.name);
        }
        return { reset: decision === 'reset' };
      }
      if (attempt === EMBEDDER_ATTEMPTS) {
        throw new LongshipError(
          'STORE_ERROR',
          'other writers kept committing while the embedder was recorded',
        );
      }
    }
  }

  async verify(): Promise<VerifyReport> {
    const meta = await this.meta();
    const changes = await this.changesSince(0);
    const problems = await this.#read(() => kvProblems(this.kv, this.k, this, meta, changes));
    return { ok: problems.length === 0, problems };
  }

  async stats(): Promise<StoreStats> {
    return this.#read(async () => {
      const count = async (prefix: KvKey) => {
        let n = 0;
        for await (const _ of this.kv.list({ prefix })) n++;
        return n;
      };
      const k = this.k;
      const [nodes, vectors, postings, relations, snapshots] = await Promise.all(
        [k.nodes(), k.vectors(), k.postings(), k.relationsFrom(), k.snapshots()].map(count),
      );
      const changes = new Set((await listAll(this.kv, { prefix: k.changes() })).map((e) => e.key.at(-2)))
        .size;
      return {
        nodes: nodes!,
        vectors: vectors!,
        postings: postings!,
        relations: relations!,
        changes,
        snapshots: snapshots!,
      };
    });
  }

  // The change log: each change's JSON in chunks under [prefix, 'changes', seq, i].
  changesSince(seq: number): Promise<ChangeRecord[]> {
    return this.#read(async () => {
      const found = await listAll<Uint8Array>(this.kv, {
        prefix: this.k.changes(),
        start: this.k.change(seq + 1),
      });
      const bySeq = new Map<number, Uint8Array[]>();
      for (const { key, value } of found) {
        const at = key.at(-2) as number;
        bySeq.set(at, [...(bySeq.get(at) ?? []), value]);
      }
      return [...bySeq.values()].map(decodeChange);
    });
  }

  pruneChanges(throughSeq: number): Promise<void> {
    return this.#read(async () => {
      const found = await listAll(this.kv, { prefix: this.k.changes(), end: this.k.change(throughSeq + 1) });
      await commitEach(
        this.kv,
        found.map((e) => del(e.key)),
      );
    });
  }

  putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    return this.#read(() => this.#snapshots.put(input, signal));
  }

  snapshot(name: string): Promise<Snapshot | undefined> {
    return this.#read(() => this.#snapshots.get(name));
  }

  async snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    // Not through #read: what the sink throws reaches the caller as it is.
    this.#live();
    await this.#applied;
    return this.#snapshots.into(name, open);
  }

  deleteSnapshot(name: string): Promise<void> {
    return this.#read(() => this.#snapshots.delete(name));
  }

  /** Closes the store; the KV handle is the caller's, and stays open. */
  async close(): Promise<void> {
    this.#closed = true;
  }

  /** Deletes everything under the store's prefix, and closes it. */
  async destroy(): Promise<void> {
    this.#live();
    await this.#writes.idle();
    this.#closed = true;
    await kvErrors(async () => {
      const found = await listAll(this.kv, { prefix: this.k.all() });
      await commitEach(
        this.kv,
        found.map((e) => del(e.key)),
      );
    });
  }
}

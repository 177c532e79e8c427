// The Store on IndexedDB (through `idb`). A commit is one readwrite transaction over the record
// stores and the state: its reads plan the batch, its writes apply it, and IndexedDB makes the
// whole either durable or absent. Open it with openIdbStore (idb-open.ts). Snapshots' bytes go to
// OPFS files where they can be written (opfs-snapshots.ts), as they read back fast, else to Blobs.

import type { IDBPDatabase } from 'idb';
import { throwIfAborted } from '../../abort.js';
import { LongshipError } from '../../errors.js';
import type { Snapshot, SnapshotInput, SnapshotSink } from '../change-log.js';
import { decideEmbedder } from '../embedder-check.js';
import type { FullStore } from '../full-store.js';
import { type CommitPlan, lastCommitted, planCommit, vectorsDropped } from '../plan/commit-plan.js';
import type { StoreState } from '../plan/plan-reader.js';
import type {
  ChangeRecord,
  CommittedChange,
  EmbedderInfo,
  EmbedderMismatch,
  NodeRecord,
  PostingRecord,
  RecordTables,
  RelationRecord,
  StoreKeys,
  StoreLookups,
  StoreMeta,
  StoreStats,
  StoreTables,
  StoreWrites,
  VectorRecord,
  VerifyReport,
  WriteBatch,
} from '../store.js';
import { findProblems } from '../verify.js';
import { fire, IdbConnection, stateOf, type Tx, under } from './idb-connection.js';
import { toStoreError } from './idb-errors.js';
import { type LongshipDB, STATE_KEY, type StoreName } from './idb-schema.js';
import {
  deleteIdbSnapshot,
  putIdbSnapshot,
  readIdbSnapshot,
  readIdbSnapshotInto,
  readStoredSnapshot,
} from './idb-snapshots.js';
import { issueWrites, lookupIn, planReader } from './idb-transactions.js';
import type { SnapshotFiles } from './opfs-snapshots.js';

const RECORD_STORES: StoreName[] = ['nodes', 'vectors', 'postings', 'relations', 'changes', 'meta'];
const ALL_STORES: StoreName[] = [...RECORD_STORES, 'snapshots', 'snapshotChunks'];

const primaryKey = {
  nodes: (r: NodeRecord) => r.uri,
  vectors: (r: VectorRecord) => r.key,
  postings: (r: PostingRecord) => r.key,
  relations: (r: RelationRecord) => [r.from, r.to],
  changes: (r: ChangeRecord) => r.seq,
} as const;

const byFromTo = (a: RelationRecord, b: RelationRecord) =>
  a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0;

/** The IndexedDB Store. Open it with `openIdbStore`. */
export class IdbStore implements FullStore {
  readonly persistent = true;
  private readonly connection: IdbConnection;
  private last: ((seq: number) => CommittedChange | undefined) | undefined;

  /**
   * Takes an open connection; openIdbStore does the opening, upgrading and embedder check. `files`:
   * the database's snapshot files, where there is an OPFS (headers naming a file read nowhere else).
   */
  constructor(
    db: IDBPDatabase<LongshipDB>,
    private readonly factory: IDBFactory,
    readonly name: string,
    private readonly files?: SnapshotFiles,
  ) {
    this.connection = new IdbConnection(db, name);
  }

  private read<T>(stores: StoreName[], during: string, body: (tx: Tx<'readonly'>) => Promise<T>): Promise<T> {
    return this.connection.read(stores, during, body);
  }

  private transact<T>(
    stores: StoreName[],
    during: string,
    body: (tx: Tx<'readwrite'>) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.connection.write(stores, during, body, signal);
  }

  async commit(batch: WriteBatch, signal?: AbortSignal, onIssued?: () => void): Promise<number> {
    let written: CommitPlan | undefined;
    const seq = await this.transact(
      RECORD_STORES,
      'commit',
      async (tx) => {
        const plan = await planCommit(batch, planReader(tx), () => throwIfAborted(signal));
        issueWrites(tx, plan, plan.state);
        written = plan;
        // Asked for now, the commit starts once these requests are done, not after this thread has
        // taken each of their answers, while onIssued's work keeps it busy.
        tx.commit?.();
        try {
          onIssued?.();
        } catch {
          // The commit is under way: a failing hook must not make it look failed.
        }
        return plan.change.seq;
      },
      signal,
    );
    // Only once the transaction has committed: an aborted one leaves the last commit as it was.
    if (written) this.last = lastCommitted(written);
    return seq;
  }

  write(writes: StoreWrites): Promise<boolean> {
    return this.transact(RECORD_STORES, 'write', async (tx) => {
      const state = await stateOf(tx);
      if (writes.change?.seq !== state.seq + 1) return false;
      const embedder = writes.embedder ?? state.embedder;
      issueWrites(tx, writes, { ...state, seq: writes.change.seq, ...(embedder ? { embedder } : {}) });
      return true;
    });
  }

  committed(seq: number): CommittedChange | undefined {
    return this.last?.(seq);
  }

  allocateKeys(count: number): Promise<number> {
    return this.transact(['meta'], 'allocateKeys', async (tx) => {
      if (!Number.isSafeInteger(count) || count < 1) {
        throw new LongshipError('INVALID_ARGUMENT', 'allocateKeys needs a positive integer count');
      }
      const state = await stateOf(tx);
      fire(tx.objectStore('meta').put({ ...state, nextKey: state.nextKey + count }, STATE_KEY));
      return state.nextKey;
    });
  }

  node(uri: string): Promise<NodeRecord | undefined> {
    return this.read(['nodes'], 'node', (tx) => tx.objectStore('nodes').get(uri));
  }

  nodes(uris: readonly string[]): Promise<(NodeRecord | undefined)[]> {
    // All asked at once in one transaction: its requests run back to back, not a round trip each.
    return this.read(['nodes'], 'nodes', (tx) => {
      const nodes = tx.objectStore('nodes');
      return Promise.all(uris.map((uri) => nodes.get(uri)));
    });
  }

  get<T extends keyof StoreKeys>(
    table: T,
    keys: readonly StoreKeys[T][],
  ): Promise<(RecordTables[T] | undefined)[]> {
    // All asked at once in one transaction: its requests run back to back, not a round trip each.
    return this.read([table], 'get', (tx) => {
      const store = tx.objectStore(table);
      return Promise.all(keys.map((key) => store.get(key) as Promise<RecordTables[T] | undefined>));
    });
  }

  lookup<T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
    table: T,
    field: F,
    value: StoreLookups[T][F],
  ): Promise<RecordTables[T][]> {
    return this.read([table], 'lookup', (tx) => lookupIn(tx, table, field, value));
  }

  nodeByKey(key: number): Promise<NodeRecord | undefined> {
    return this.read(['nodes'], 'nodeByKey', (tx) => tx.objectStore('nodes').index('key').get(key));
  }

  children(uri: string): Promise<NodeRecord[]> {
    return this.read(['nodes'], 'children', (tx) => tx.objectStore('nodes').index('parent').getAll(uri));
  }

  descendants(uri: string): Promise<NodeRecord[]> {
    // '0' is the character after '/', so this range holds exactly the URIs that start with uri + '/'.
    const range = IDBKeyRange.bound(`${uri}/`, `${uri}0`, false, true);
    return this.read(['nodes'], 'descendants', (tx) => tx.objectStore('nodes').getAll(range));
  }

  vectors(keys: readonly number[]): Promise<VectorRecord[]> {
    const unique = [...new Set(keys)].sort((a, b) => a - b);
    return this.read(['vectors'], 'vectors', async (tx) => {
      const store = tx.objectStore('vectors');
      const found = await Promise.all(unique.map((key) => store.get(key)));
      return found.filter((v): v is VectorRecord => v !== undefined);
    });
  }

  vectorsOfNode(nodeKey: number): Promise<VectorRecord[]> {
    return this.read(['vectors'], 'vectorsOfNode', async (tx) =>
      (await tx.objectStore('vectors').index('nodeKey').getAll(nodeKey)).sort((a, b) => a.chunk - b.chunk),
    );
  }

  posting(key: number): Promise<PostingRecord | undefined> {
    return this.read(['postings'], 'posting', (tx) => tx.objectStore('postings').get(key));
  }

  relations(uri: string): Promise<RelationRecord[]> {
    return this.read(['relations'], 'relations', async (tx) => {
      const store = tx.objectStore('relations');
      const all = [...(await store.getAll(under(uri))), ...(await store.index('to').getAll(uri))];
      const unique = new Map(all.map((r) => [`${r.from}\u0000${r.to}`, r]));
      return [...unique.values()].sort(byFromTo);
    });
  }

  async *scan<T extends keyof StoreTables>(table: T, batchSize = 1000): AsyncIterable<StoreTables[T][]> {
    let after: IDBValidKey | undefined;
    const keyOf = primaryKey[table] as (record: StoreTables[T]) => IDBValidKey;
    for (;;) {
      const range = after === undefined ? null : IDBKeyRange.lowerBound(after, true);
      const rows = (await this.read([table], 'scan', (tx) =>
        tx.objectStore(table).getAll(range, batchSize),
      )) as StoreTables[T][];
      if (rows.length === 0) return;
      yield rows;
      after = keyOf(rows[rows.length - 1]!);
    }
  }

  nodesNeedingVectors(): Promise<NodeRecord[]> {
    return this.read(['nodes', 'vectors'], 'nodesNeedingVectors', async (tx) => {
      const embedded = new Set<number>();
      let cursor = await tx.objectStore('vectors').index('nodeKey').openKeyCursor(null, 'nextunique');
      while (cursor) {
        embedded.add(cursor.key);
        cursor = await cursor.continue();
      }
      return (await tx.objectStore('nodes').getAll()).filter((n) => !embedded.has(n.key));
    });
  }

  changesSince(seq: number): Promise<ChangeRecord[]> {
    return this.read(['changes'], 'changesSince', async (tx) =>
      // Records logged before node keys were: no node changes listed.
      (await tx.objectStore('changes').getAll(IDBKeyRange.lowerBound(seq, true))).map((change) => ({
        ...change,
        addedNodeKeys: change.addedNodeKeys ?? [],
        removedNodeKeys: change.removedNodeKeys ?? [],
      })),
    );
  }

  pruneChanges(throughSeq: number): Promise<void> {
    return this.transact(['changes'], 'pruneChanges', async (tx) => {
      fire(tx.objectStore('changes').delete(IDBKeyRange.upperBound(throughSeq)));
    });
  }

  async meta(): Promise<StoreMeta> {
    const state = await this.read(['meta'], 'meta', stateOf);
    return { schemaVersion: this.connection.db.version, ...state };
  }

  async useEmbedder(embedder: EmbedderInfo, onMismatch?: EmbedderMismatch): Promise<{ reset: boolean }> {
    const result = await this.transact(
      ['meta', 'vectors', 'changes', 'snapshots', 'snapshotChunks'],
      'useEmbedder',
      async (tx) => {
        const state = await stateOf(tx);
        const decision = decideEmbedder(state.embedder, embedder, onMismatch);
        if (decision === 'keep') return { reset: false };
        const next: StoreState = { ...state, embedder: { id: embedder.id, dimensions: embedder.dimensions } };
        if (decision === 'reset') {
          const removed = await tx.objectStore('vectors').getAllKeys();
          next.seq = state.seq + 1;
          fire(tx.objectStore('vectors').clear());
          fire(tx.objectStore('snapshots').clear());
          fire(tx.objectStore('snapshotChunks').clear());
          fire(tx.objectStore('changes').put(vectorsDropped(next.seq, removed)));
        }
        fire(tx.objectStore('meta').put(next, STATE_KEY));
        return { reset: decision === 'reset' };
      },
    );
    // The headers went with the vectors: so do their files.
    if (result.reset) await this.files?.sweep(this.connection);
    return result;
  }

  async putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    if (this.files?.writes) return this.files.put(this.connection, input, signal);
    await putIdbSnapshot(this.connection, input, signal);
    // A file the previous header named (another tab wrote it) is now a stray.
    await this.files?.sweep(this.connection, input.name);
  }

  async snapshot(name: string): Promise<Snapshot | undefined> {
    const stored = await readStoredSnapshot(this.connection, name);
    if (!stored) return undefined;
    if (stored.header.file) return this.files?.read(stored.header);
    return readIdbSnapshot(stored);
  }

  async snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    const stored = await readStoredSnapshot(this.connection, name);
    if (!stored) return undefined;
    if (stored.header.file) return this.files?.readInto(stored.header, open);
    return readIdbSnapshotInto(stored, open);
  }

  /**
   * Removes snapshot files no header names (a crash between a file and its header, a file a reader
   * held when it was to go); skipped while a snapshot is being written. openIdbStore calls it.
   */
  async sweepSnapshotFiles(): Promise<void> {
    await this.files?.sweep(this.connection, undefined, true);
  }

  async deleteSnapshot(name: string): Promise<void> {
    await deleteIdbSnapshot(this.connection, name);
    await this.files?.sweep(this.connection, name);
  }

  verify(): Promise<VerifyReport> {
    return this.read(ALL_STORES, 'verify', async (tx) => {
      const problems = findProblems({
        state: await stateOf(tx),
        nodes: await tx.objectStore('nodes').getAll(),
        vectors: await tx.objectStore('vectors').getAll(),
        postings: await tx.objectStore('postings').getAll(),
        relations: await tx.objectStore('relations').getAll(),
        changes: await tx.objectStore('changes').getAll(),
        // A header whose bytes are in a file has no chunks to look for.
        snapshots: (await tx.objectStore('snapshots').getAll()).map((h) =>
          h.file ? { ...h, chunkCount: 0 } : h,
        ),
        chunkIds: await tx.objectStore('snapshotChunks').getAllKeys(),
      });
      return { ok: problems.length === 0, problems };
    });
  }

  stats(): Promise<StoreStats> {
    return this.read(ALL_STORES, 'stats', async (tx) => ({
      nodes: await tx.objectStore('nodes').count(),
      vectors: await tx.objectStore('vectors').count(),
      postings: await tx.objectStore('postings').count(),
      relations: await tx.objectStore('relations').count(),
      changes: await tx.objectStore('changes').count(),
      snapshots: await tx.objectStore('snapshots').count(),
    }));
  }

  async close(): Promise<void> {
    this.connection.close('close() was called');
  }

  async destroy(): Promise<void> {
    await this.close();
    await this.files?.destroy();
    const request = this.factory.deleteDatabase(this.name);
    await new Promise<void>((resolve, reject) => {
      request.onsuccess = () => resolve();
      request.onerror = () => reject(toStoreError(request.error, `store ${this.name}: destroy`));
    });
  }
}

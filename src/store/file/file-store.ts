// The Store in a folder, for Node and Deno: the tables live in memory (the same MemoryData and
// planner as MemoryStore, so the two agree on every batch), and every change is first appended to a
// write-ahead log and flushed; the log is folded into a checkpoint now and then, and snapshots are
// files of their own. The format, the crash guarantees and the lock: docs/guide/file-store.md. Open one
// with openFileStore (file-open.ts).

import { throwIfAborted } from '../../abort.js';
import { LongshipError } from '../../errors.js';
import type { Snapshot, SnapshotInput, SnapshotSink } from '../change-log.js';
import { decideEmbedder } from '../embedder-check.js';
import type { FullStore } from '../full-store.js';
import { MemoryStore } from '../memory/memory-store.js';
import { lastCommitted, planCommit } from '../plan/commit-plan.js';
import type { StoreState } from '../plan/plan-reader.js';
import { checkSnapshotInput } from '../snapshot/snapshot-format.js';
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
import { CHECKPOINT_FILE, compactLog, type LoggedTables, MARKER_FILE } from './file-checkpoint.js';
import type { FileLock } from './file-lock.js';
import { fileError, syncDirectory } from './file-log.js';
import { type CommitBody, type DecodedRecord, RecordKind } from './file-records.js';
import { applyRecord } from './file-replay.js';
import {
  listSnapshots,
  readSnapshot,
  readSnapshotInto,
  SNAPSHOT_DIR,
  snapshotFile,
  writeSnapshotTemp,
} from './file-snapshots.js';

/** What openFileStore hands the store it opened. */
export interface FileStoreParts extends LoggedTables {
  lock: FileLock;
  checkpointAfterBytes: number;
}

/** The Store in a folder. Open it with `openFileStore`. */
export class FileStore implements FullStore {
  readonly persistent = true;
  /** The folder, absolute. */
  readonly path: string;
  readonly #parts: FileStoreParts;
  readonly #reads: MemoryStore;
  #closed = false;
  /** Counts embedder resets: a snapshot begun before one must not land after it. */
  #resets = 0;
  #last: ((seq: number) => CommittedChange | undefined) | undefined;

  constructor(parts: FileStoreParts) {
    this.#parts = parts;
    this.path = parts.dir;
    this.#reads = new MemoryStore(parts.data);
  }

  #live(): FileStoreParts {
    if (this.#closed) throw new LongshipError('STORE_CLOSED', `the store at ${this.path} is closed`);
    return this.#parts;
  }

  /** Appends a record, flushed when `sync`, then applies it: the tables never run ahead of the log. */
  async #write(record: DecodedRecord, sync: boolean): Promise<void> {
    const { log, codec, data } = this.#parts;
    await log.append([codec.encode(record.kind, record.body, record.vectors)], sync);
    applyRecord(data, record);
  }

  async commit(batch: WriteBatch, signal?: AbortSignal, onIssued?: () => void): Promise<number> {
    const { data } = this.#live();
    throwIfAborted(signal);
    return data.exclusive(async () => {
      this.#live();
      const plan = await planCommit(batch, data.reader(), () => throwIfAborted(signal));
      throwIfAborted(signal);
      const written = this.#writeCommit(plan, plan.state);
      try {
        onIssued?.();
      } catch {
        // The commit is under way: a failing hook must not make it look failed.
      }
      await written;
      this.#last = lastCommitted(plan);
      this.#compactIfDue();
      return plan.change.seq;
    });
  }

  async write(writes: StoreWrites): Promise<boolean> {
    const { data } = this.#live();
    const copy = structuredClone(writes);
    return data.exclusive(async () => {
      this.#live();
      if (copy.change.seq !== data.state.seq + 1) return false;
      const embedder = copy.embedder ?? data.state.embedder;
      await this.#writeCommit(copy, {
        ...data.state,
        seq: copy.change.seq,
        ...(embedder ? { embedder } : {}),
      });
      this.#compactIfDue();
      return true;
    });
  }

  /** Logs and applies a commit; the log's record keeps the state after it whole, as it always has. */
  #writeCommit(writes: StoreWrites, state: StoreState): Promise<void> {
    const { putVectors, ...rest } = writes;
    const body: CommitBody = { plan: { ...rest, state }, nextKey: this.#parts.data.state.nextKey };
    return this.#write({ kind: RecordKind.commit, body, vectors: putVectors }, true);
  }

  committed(seq: number): CommittedChange | undefined {
    return this.#last?.(seq);
  }

  async allocateKeys(count: number): Promise<number> {
    const { data } = this.#live();
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new LongshipError('INVALID_ARGUMENT', 'allocateKeys needs a positive integer count');
    }
    const first = data.state.nextKey;
    data.state.nextKey += count;
    // Not flushed: the next commit's flush carries it, and a key handed out but never committed is
    // harmless to hand out again after a crash (nothing durable holds it).
    await this.#parts.log.append(
      [this.#parts.codec.encode(RecordKind.keys, { nextKey: data.state.nextKey })],
      false,
    );
    return first;
  }

  // The reads, written out alike on purpose: each checks the store is open, then reads the tables
  // in memory. One method each, not a loop over names, so each keeps its Store signature.
  async node(uri: string): Promise<NodeRecord | undefined> {
    this.#live();
    return this.#reads.node(uri);
  }

  async nodes(uris: readonly string[]): Promise<(NodeRecord | undefined)[]> {
    this.#live();
    return this.#reads.nodes(uris);
  }

  async get<T extends keyof StoreKeys>(
    table: T,
    keys: readonly StoreKeys[T][],
  ): Promise<(RecordTables[T] | undefined)[]> {
    this.#live();
    return this.#reads.get(table, keys);
  }

  async lookup<T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
    table: T,
    field: F,
    value: StoreLookups[T][F],
  ): Promise<RecordTables[T][]> {
    this.#live();
    return this.#reads.lookup(table, field, value);
  }

  async nodeByKey(key: number): Promise<NodeRecord | undefined> {
    this.#live();
    return this.#reads.nodeByKey(key);
  }

  async children(uri: string): Promise<NodeRecord[]> {
    this.#live();
    return this.#reads.children(uri);
  }

  async descendants(uri: string): Promise<NodeRecord[]> {
    this.#live();
    return this.#reads.descendants(uri);
  }

  async vectors(keys: readonly number[]): Promise<VectorRecord[]> {
    this.#live();
    return this.#reads.vectors(keys);
  }

  async vectorsOfNode(nodeKey: number): Promise<VectorRecord[]> {
    this.#live();
    return this.#reads.vectorsOfNode(nodeKey);
  }

  async posting(key: number): Promise<PostingRecord | undefined> {
    this.#live();
    return this.#reads.posting(key);
  }

  async relations(uri: string): Promise<RelationRecord[]> {
    this.#live();
    return this.#reads.relations(uri);
  }

  scan<T extends keyof StoreTables>(table: T, batchSize?: number): AsyncIterable<StoreTables[T][]> {
    return this.#reads.scan(table, batchSize);
  }

  async nodesNeedingVectors(): Promise<NodeRecord[]> {
    this.#live();
    return this.#reads.nodesNeedingVectors();
  }

  async changesSince(seq: number): Promise<ChangeRecord[]> {
    this.#live();
    return this.#reads.changesSince(seq);
  }

  async pruneChanges(throughSeq: number): Promise<void> {
    const { data } = this.#live();
    // Not flushed: changes that come back after a crash are replayed again, which is harmless.
    await data.exclusive(() =>
      this.#write({ kind: RecordKind.prune, body: { throughSeq }, vectors: [] }, false),
    );
  }

  async meta(): Promise<StoreMeta> {
    this.#live();
    return this.#reads.meta();
  }

  async useEmbedder(embedder: EmbedderInfo, onMismatch?: EmbedderMismatch): Promise<{ reset: boolean }> {
    const { data, files, dir } = this.#live();
    return data.exclusive(async () => {
      this.#live();
      const decision = decideEmbedder(data.state.embedder, embedder, onMismatch);
      if (decision === 'keep') return { reset: false };
      const reset = decision === 'reset';
      if (reset) {
        // The snapshots go first: a crash between leaves the old embedder and no snapshots, which
        // the indexes rebuild; never a new embedder beside snapshots of the old one's vectors.
        this.#resets++;
        await files.fs.promises.rm(files.path.join(dir, SNAPSHOT_DIR), { recursive: true, force: true });
        await syncDirectory(files, dir);
      }
      const body = { embedder: { id: embedder.id, dimensions: embedder.dimensions }, reset };
      await this.#write({ kind: RecordKind.embedder, body, vectors: [] }, true);
      return { reset };
    });
  }

  async putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    const { data, files, dir } = this.#live();
    checkSnapshotInput(input?.name, input?.seq, data.state.seq);
    throwIfAborted(signal);
    const resets = this.#resets;
    const temp = await writeSnapshotTemp(files, dir, input, signal, () => this.#live());
    const file = snapshotFile(files, dir, input.name);
    await data.exclusive(async () => {
      try {
        this.#live();
        throwIfAborted(signal);
        if (this.#resets !== resets) {
          throw new LongshipError(
            'STORE_ERROR',
            `snapshot ${input.name}: the store's vectors were reset meanwhile`,
          );
        }
        await files.fs.promises.rename(temp, file);
      } catch (error) {
        await files.fs.promises.rm(temp, { force: true });
        throw error instanceof LongshipError ? error : fileError('renaming the snapshot', file, error);
      }
      await syncDirectory(files, files.path.join(dir, SNAPSHOT_DIR));
    });
  }

  async snapshot(name: string): Promise<Snapshot | undefined> {
    const { files, dir } = this.#live();
    return readSnapshot(files, snapshotFile(files, dir, name), name);
  }

  async snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    const { files, dir } = this.#live();
    return readSnapshotInto(files, snapshotFile(files, dir, name), name, open);
  }

  async deleteSnapshot(name: string): Promise<void> {
    const { data, files, dir } = this.#live();
    await data.exclusive(async () => {
      await files.fs.promises.rm(snapshotFile(files, dir, name), { force: true });
      await syncDirectory(files, files.path.join(dir, SNAPSHOT_DIR)).catch(() => undefined);
    });
  }

  async verify(): Promise<VerifyReport> {
    const { data, files, dir } = this.#live();
    const snapshots = await listSnapshots(files, dir);
    const problems = findProblems({
      state: data.state,
      nodes: await collect(this.#reads.scan('nodes', Number.MAX_SAFE_INTEGER)),
      vectors: await collect(this.#reads.scan('vectors', Number.MAX_SAFE_INTEGER)),
      postings: await collect(this.#reads.scan('postings', Number.MAX_SAFE_INTEGER)),
      relations: await collect(this.#reads.scan('relations', Number.MAX_SAFE_INTEGER)),
      changes: await collect(this.#reads.scan('changes', Number.MAX_SAFE_INTEGER)),
      snapshots: snapshots.headers,
      chunkIds: snapshots.chunkIds,
    });
    return { ok: problems.length === 0, problems };
  }

  async stats(): Promise<StoreStats> {
    const { files, dir } = this.#live();
    const stats = await this.#reads.stats();
    return { ...stats, snapshots: (await listSnapshots(files, dir)).headers.length };
  }

  /** Folds the log into a new checkpoint once it outgrows the old one, after the commits queued now. */
  #compactIfDue(): void {
    const parts = this.#parts;
    if (parts.log.size <= Math.max(parts.checkpointAfterBytes, parts.checkpointBytes)) return;
    // A failure leaves the old checkpoint and log in place (the rename is the switch): try again later.
    void parts.data.exclusive(() => (this.#closed ? undefined : compactLog(parts))).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const { data, log, lock } = this.#parts;
    // After whatever is under way (a commit, a compaction).
    await data.exclusive(async () => {
      this.#closed = true;
      await this.#reads.close();
      await log.sync().catch(() => undefined);
      await log.close();
      await lock.release();
    });
  }

  async destroy(): Promise<void> {
    const { files, dir } = this.#live();
    await this.close();
    const ours = (name: string) =>
      name === CHECKPOINT_FILE ||
      name === SNAPSHOT_DIR ||
      name === MARKER_FILE ||
      name.startsWith('log-') ||
      name.endsWith('.tmp');
    for (const name of await files.fs.promises.readdir(dir)) {
      if (ours(name))
        await files.fs.promises.rm(files.path.join(dir, name), { recursive: true, force: true });
    }
    await syncDirectory(files, dir);
  }
}

async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const batch of batches) all.push(...batch);
  return all;
}

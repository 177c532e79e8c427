// A Store in a Cloudflare Durable Object's SQLite storage (`ctx.storage`), with the change log and
// the index snapshots (ChangeLog), so an object evicted and woken again loads its indexes rather
// than rebuilding them (docs/guide/durable-objects.md). The SQL API is synchronous and private to
// the object: each write is one transactionSync, and the engine plans commits from the nine methods
// (full-store.ts), reading in-process rows.

import { LongshipError } from '../../errors.js';
import type { ChangeLog, Snapshot, SnapshotInput, SnapshotSink } from '../change-log.js';
import type {
  ChangeRecord,
  EmbedderInfo,
  NodeRecord,
  RecordTables,
  Store,
  StoreKeys,
  StoreLookups,
  StoreMeta,
  StoreWrites,
} from '../store.js';
import { storeError } from './do-errors.js';
import {
  nodeColumns,
  nodeOf,
  postingColumns,
  postingOf,
  relationColumns,
  relationOf,
  vectorColumns,
  vectorOf,
} from './do-rows.js';
import { createSchema, dropSchema } from './do-schema.js';
import { DoSnapshots } from './do-snapshots.js';
import type { DurableObjectSqlStorage, SqlValue } from './sql-storage.js';
import { parseTagged, stringifyTagged } from './tagged-json.js';

type Row = Record<string, SqlValue>;

/** Each table: its name, the column get() reads it by (relations: none), its order, and its records. */
const TABLE = {
  nodes: { name: 'longship_nodes', key: 'uri', order: 'uri', of: nodeOf },
  vectors: { name: 'longship_vectors', key: 'key', order: 'key', of: vectorOf },
  postings: { name: 'longship_postings', key: 'key', order: 'key', of: postingOf },
  relations: { name: 'longship_relations', key: '', order: 'from_uri, to_uri', of: relationOf },
} as const;

/** The column behind each field {@link Store.lookup} finds records by. */
const LOOKUP_COLUMNS: Record<string, Record<string, string>> = {
  nodes: { key: 'key', parent: 'parent' },
  vectors: { nodeKey: 'node_key' },
  relations: { from: 'from_uri', to: 'to_uri' },
};

/**
 * The Durable Object store. Open it with {@link openDurableObjectStore}; hand it to `openLongship`.
 */
export class DurableObjectStore implements Store, ChangeLog {
  readonly persistent = true;
  #closed = false;
  readonly #storage: DurableObjectSqlStorage;
  readonly #snapshots: DoSnapshots;

  constructor(storage: DurableObjectSqlStorage) {
    this.#storage = storage;
    createSchema(storage);
    this.#snapshots = new DoSnapshots(storage, () => this.#meta().seq);
  }

  #live(): DurableObjectSqlStorage {
    if (this.#closed) throw new LongshipError('STORE_CLOSED', 'the store is closed');
    return this.#storage;
  }

  #rows(query: string, ...bindings: SqlValue[]): Row[] {
    try {
      return this.#live()
        .sql.exec(query, ...bindings)
        .toArray();
    } catch (error) {
      throw storeError(error, 'a statement');
    }
  }

  #meta(): StoreMeta {
    const [row] = this.#rows('SELECT seq, next_key, embedder FROM longship_meta WHERE id = 1');
    if (!row) throw new LongshipError('STORE_ERROR', 'the store has no meta row');
    const meta: StoreMeta = { seq: Number(row.seq), nextKey: Number(row.next_key) };
    if (row.embedder !== null) meta.embedder = JSON.parse(row.embedder as string) as EmbedderInfo;
    return meta;
  }

  async meta(): Promise<StoreMeta> {
    return this.#meta();
  }

  async allocateKeys(count: number): Promise<number> {
    this.#live();
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new LongshipError('INVALID_ARGUMENT', 'allocateKeys needs a positive integer count');
    }
    const [row] = this.#rows(
      'UPDATE longship_meta SET next_key = next_key + ? WHERE id = 1 RETURNING next_key - ? AS first',
      count,
      count,
    );
    return Number(row!.first);
  }

  async write(writes: StoreWrites): Promise<boolean> {
    const storage = this.#live();
    try {
      return storage.transactionSync(() => {
        if (writes.change.seq !== this.#meta().seq + 1) return false;
        this.#apply(writes);
        return true;
      });
    } catch (error) {
      throw storeError(error, `commit ${writes.change.seq}`);
    }
  }

  /** The writes, inside the caller's transaction: deletions first, then puts, then the log. */
  #apply(writes: StoreWrites): void {
    const { sql } = this.#storage;
    for (const uri of writes.deleteNodes) sql.exec('DELETE FROM longship_nodes WHERE uri = ?', uri);
    for (const key of writes.deleteVectors) sql.exec('DELETE FROM longship_vectors WHERE key = ?', key);
    for (const key of writes.deletePostings) sql.exec('DELETE FROM longship_postings WHERE key = ?', key);
    for (const r of writes.deleteRelations) {
      sql.exec('DELETE FROM longship_relations WHERE from_uri = ? AND to_uri = ?', r.from, r.to);
    }
    for (const node of writes.putNodes) {
      sql.exec(
        'INSERT OR REPLACE INTO longship_nodes (uri, key, parent, record) VALUES (?, ?, ?, ?)',
        ...nodeColumns(node),
      );
    }
    for (const vector of writes.putVectors) {
      sql.exec(
        'INSERT OR REPLACE INTO longship_vectors (key, node_key, chunk, vector) VALUES (?, ?, ?, ?)',
        ...vectorColumns(vector),
      );
    }
    for (const posting of writes.putPostings) {
      sql.exec(
        'INSERT OR REPLACE INTO longship_postings (key, record) VALUES (?, ?)',
        ...postingColumns(posting),
      );
    }
    for (const relation of writes.putRelations) {
      sql.exec(
        'INSERT OR REPLACE INTO longship_relations (from_uri, to_uri, record) VALUES (?, ?, ?)',
        ...relationColumns(relation),
      );
    }
    sql.exec(
      'INSERT OR REPLACE INTO longship_changes (seq, record) VALUES (?, ?)',
      writes.change.seq,
      stringifyTagged(writes.change),
    );
    // Only seq: nextKey may have moved on since the writes were planned.
    sql.exec('UPDATE longship_meta SET seq = ? WHERE id = 1', writes.change.seq);
    if (writes.embedder) {
      const { id, dimensions } = writes.embedder;
      sql.exec('UPDATE longship_meta SET embedder = ? WHERE id = 1', JSON.stringify({ id, dimensions }));
    }
  }

  async get<T extends keyof StoreKeys>(
    table: T,
    keys: readonly StoreKeys[T][],
  ): Promise<(RecordTables[T] | undefined)[]> {
    const spec = TABLE[table as keyof typeof TABLE];
    if (!spec?.key)
      throw new LongshipError('INVALID_ARGUMENT', `get() reads nodes, vectors or postings, not ${table}`);
    // One binding for any number of keys: a statement may bind at most 100 values.
    const rows = this.#rows(
      `SELECT * FROM ${spec.name} WHERE ${spec.key} IN (SELECT value FROM json_each(?))`,
      JSON.stringify(keys),
    );
    const byKey = new Map(rows.map((row) => [row[spec.key], row]));
    return keys.map((key) => {
      const row = byKey.get(key as SqlValue);
      return row ? (spec.of(row) as RecordTables[T]) : undefined;
    });
  }

  async lookup<T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
    table: T,
    field: F,
    value: StoreLookups[T][F],
  ): Promise<RecordTables[T][]> {
    const column = LOOKUP_COLUMNS[table]?.[field as string];
    if (!column) {
      throw new LongshipError('INVALID_ARGUMENT', `lookup() cannot find ${table} by ${String(field)}`);
    }
    const spec = TABLE[table];
    const rows = this.#rows(
      `SELECT * FROM ${spec.name} WHERE ${column} = ? ORDER BY ${spec.order}`,
      value as SqlValue,
    );
    return rows.map((row) => spec.of(row) as RecordTables[T]);
  }

  async descendants(uri: string): Promise<NodeRecord[]> {
    // '0' follows '/': the range holds exactly the URIs that start with uri + '/'.
    const rows = this.#rows(
      'SELECT record FROM longship_nodes WHERE uri >= ? AND uri < ? ORDER BY uri',
      `${uri}/`,
      `${uri}0`,
    );
    return rows.map(nodeOf);
  }

  async *scan<T extends keyof RecordTables>(table: T, batchSize = 256): AsyncIterable<RecordTables[T][]> {
    const spec = TABLE[table];
    if (!spec)
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `scan() walks nodes, vectors, postings or relations, not ${table}`,
      );
    const size = Math.max(1, Math.floor(batchSize));
    // Keyset pages: each batch starts after the last primary key of the one before.
    const after = table === 'relations' ? '(from_uri, to_uri) > (?, ?)' : `${spec.order} > ?`;
    let last: SqlValue[] | undefined;
    for (;;) {
      const where = last ? `WHERE ${after}` : '';
      const rows = this.#rows(
        `SELECT * FROM ${spec.name} ${where} ORDER BY ${spec.order} LIMIT ?`,
        ...(last ?? []),
        size,
      );
      if (rows.length === 0) return;
      yield rows.map((row) => spec.of(row) as RecordTables[T]);
      const end = rows.at(-1)!;
      last = table === 'relations' ? [end.from_uri!, end.to_uri!] : [end[spec.order]!];
      if (rows.length < size) return;
    }
  }

  async changesSince(seq: number): Promise<ChangeRecord[]> {
    const rows = this.#rows('SELECT record FROM longship_changes WHERE seq > ? ORDER BY seq', seq);
    return rows.map((row) => parseTagged<ChangeRecord>(row.record as string));
  }

  async pruneChanges(throughSeq: number): Promise<void> {
    this.#rows('DELETE FROM longship_changes WHERE seq <= ?', throughSeq);
  }

  putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    return this.#snapshots.putSnapshot(input, signal);
  }

  snapshot(name: string): Promise<Snapshot | undefined> {
    return this.#snapshots.snapshot(name);
  }

  snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    return this.#snapshots.snapshotInto(name, open);
  }

  deleteSnapshot(name: string): Promise<void> {
    return this.#snapshots.deleteSnapshot(name);
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  async destroy(): Promise<void> {
    this.#closed = true;
    dropSchema(this.#storage);
  }
}

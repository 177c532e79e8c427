// A store as a third party writes one (docs/guide/custom-store.md): the nine Store
// methods over plain Maps, no change log, no operation of its own. map-store.test.ts runs it under the
// store contract and behind a Longship.

import { LongshipError } from '../../src/errors.js';
import type {
  NodeRecord,
  PostingRecord,
  RecordTables,
  RelationRecord,
  Store,
  StoreMeta,
  VectorRecord,
} from '../../src/store/store.js';

/** What a MapStore holds, kept apart from it so that a second open finds what the first wrote. */
export interface MapTables {
  nodes: Map<string, NodeRecord>;
  vectors: Map<number, VectorRecord>;
  postings: Map<number, PostingRecord>;
  relations: Map<string, RelationRecord>;
  meta: StoreMeta;
}

export function mapTables(): MapTables {
  const meta = { seq: 0, nextKey: 1 };
  return { nodes: new Map(), vectors: new Map(), postings: new Map(), relations: new Map(), meta };
}

const relationId = (r: { from: string; to: string }) => `${r.from}\u0000${r.to}`;
const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
/** Each table's primary key, as one string or number that sorts as the key does. */
const primaryKey = {
  nodes: (r: NodeRecord) => r.uri,
  vectors: (r: VectorRecord) => r.key,
  postings: (r: PostingRecord) => r.key,
  relations: relationId,
} as const;

function inKeyOrder<T extends keyof RecordTables>(table: T, rows: RecordTables[T][]): RecordTables[T][] {
  const key = primaryKey[table] as (r: RecordTables[T]) => string | number;
  return rows.sort((a, b) => compare(key(a), key(b)));
}

/** The whole store: nine methods and `persistent`. */
export function openMapStore(tables: MapTables): Store {
  let closed = false;
  const live = () => {
    if (closed) throw new LongshipError('STORE_CLOSED', 'the map store is closed');
    return tables;
  };
  const rows = <T extends keyof RecordTables>(table: T) =>
    inKeyOrder(table, [...(live()[table] as Map<unknown, RecordTables[T]>).values()]);
  return {
    persistent: false,
    async meta() {
      return structuredClone(live().meta);
    },
    async allocateKeys(count) {
      const { meta } = live();
      if (!Number.isSafeInteger(count) || count < 1) throw new LongshipError('INVALID_ARGUMENT', 'a count');
      meta.nextKey += count;
      return meta.nextKey - count;
    },
    async write(writes) {
      const t = live();
      if (writes.change.seq !== t.meta.seq + 1) return false;
      const w = structuredClone(writes);
      for (const uri of w.deleteNodes) t.nodes.delete(uri);
      for (const key of w.deleteVectors) t.vectors.delete(key);
      for (const key of w.deletePostings) t.postings.delete(key);
      for (const r of w.deleteRelations) t.relations.delete(relationId(r));
      for (const n of w.putNodes) t.nodes.set(n.uri, n);
      for (const v of w.putVectors) t.vectors.set(v.key, v);
      for (const p of w.putPostings) t.postings.set(p.key, p);
      for (const r of w.putRelations) t.relations.set(relationId(r), r);
      t.meta.seq = w.change.seq;
      if (w.embedder) t.meta.embedder = w.embedder;
      return true;
    },
    async get(table, keys) {
      const map = live()[table] as Map<unknown, RecordTables[typeof table]>;
      return keys.map((key) => structuredClone(map.get(key)));
    },
    async lookup(table, field, value) {
      const found = rows(table).filter(
        (r) => (r as unknown as Record<string, unknown>)[field as string] === value,
      );
      return structuredClone(found);
    },
    async descendants(uri) {
      return structuredClone(rows('nodes').filter((n) => n.uri.startsWith(`${uri}/`)));
    },
    async *scan(table, batchSize = 1000) {
      const all = rows(table);
      for (let at = 0; at < all.length; at += batchSize) {
        live();
        yield structuredClone(all.slice(at, at + batchSize));
      }
    },
    async close() {
      closed = true;
    },
    async destroy() {
      Object.assign(live(), mapTables());
      closed = true;
    },
  };
}

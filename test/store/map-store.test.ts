// A store as a third party writes one (docs/internals/store.md, "Write your own store"): the nine Store
// methods over plain Maps, no change log, no operation of its own. It passes the store contract, and
// backs a Longship: the engine derives everything else, and keeps the change log in memory.

import { describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
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
import { codeOf } from '../../src/testing/records.js';
import { storeContract } from '../../src/testing/store-contract.js';
import { embedderInfo, hashEmbedder } from '../context/fixtures.js';

/** What a MapStore holds, kept apart from it so that a second open finds what the first wrote. */
interface MapTables {
  nodes: Map<string, NodeRecord>;
  vectors: Map<number, VectorRecord>;
  postings: Map<number, PostingRecord>;
  relations: Map<string, RelationRecord>;
  meta: StoreMeta;
}

function mapTables(): MapTables {
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
function openMapStore(tables: MapTables): Store {
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

storeContract('a store of nine methods over Maps', () => {
  const tables = mapTables();
  return { open: async () => openMapStore(tables) };
});

const R = 'viking://resources';
const uris = (result: { resources: { uri: string }[] }) => result.resources.map((item) => item.uri);

describe('a Longship over a store without a change log', () => {
  it('adds and finds, and rebuilds its indexes from the store at the next open', async () => {
    const tables = mapTables();
    const longship = await openLongship({ store: openMapStore(tables), embedder: hashEmbedder });
    expect(longship.persistent).toBe(false);
    await longship.addResource('# Tides\n\nThe moon pulls the oceans into tides.\n', { name: 'tides.md' });
    await longship.addResource('# Rivers\n\nRivers flood in spring.\n', { name: 'rivers.md' });
    const found = await longship.find('moon oceans');
    expect(uris(found)[0]).toBe(`${R}/tides.md`);
    expect((await longship.verify()).problems).toEqual([]);
    // The changes the indexes hold are dropped from the log in memory as soon as they are applied,
    // and no snapshot is written: the next open rebuilds anyway.
    await longship.indexes.flush();
    expect(await longship.store.changesSince(0)).toEqual([]);
    expect(await longship.store.stats()).toMatchObject({ changes: 0, snapshots: 0 });
    await longship.close();

    const again = await openLongship({ store: openMapStore(tables), embedder: hashEmbedder });
    expect(again.indexes.openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' });
    expect(await again.find('moon oceans')).toEqual(found);
    expect(await again.read(`${R}/rivers.md`)).toContain('Rivers flood in spring.');
    await again.close();
    expect(tables.meta.embedder).toEqual(embedderInfo);
  });

  it("follows another writer's commits by rebuilding from the store", async () => {
    const tables = mapTables();
    const first = await openLongship({ store: openMapStore(tables), embedder: hashEmbedder });
    const second = await openLongship({ store: openMapStore(tables), embedder: hashEmbedder });
    await second.write(`${R}/lake.md`, 'The lake freezes in winter.');
    // The first one's log in memory never saw that commit: the gap makes it rebuild, not miss it.
    await first.write(`${R}/sea.md`, 'The sea is salt.');
    await first.indexes.catchUp();
    expect(uris(await first.find('lake freezes'))).toContain(`${R}/lake.md`);
    expect((await first.verify()).problems).toEqual([]);
    await first.close();
    await second.close();
  });

  it('plans a commit again when another writer moved the store on, and gives up after a few tries', async () => {
    const base = openMapStore(mapTables());
    // Each refusal is what write() answers when another writer committed since the plan was made.
    let refuse = 0;
    let refused = 0;
    const write: Store['write'] = async (writes) => {
      if (refused === refuse) return base.write(writes);
      refused++;
      return false;
    };
    const longship = await openLongship({ store: { ...base, write }, embedder: hashEmbedder });
    refuse = 2;
    await longship.write(`${R}/a.md`, 'first');
    expect(refused).toBe(2);
    expect(await longship.read(`${R}/a.md`)).toBe('first');
    refuse = Number.POSITIVE_INFINITY;
    expect(await codeOf(longship.write(`${R}/b.md`, 'never'))).toBe('STORE_ERROR');
    refuse = refused;
    expect(await codeOf(longship.read(`${R}/b.md`))).toBe('NOT_FOUND');
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('refuses a store without one of the nine methods, or with half a change log', async () => {
    const { lookup: _, ...missing } = openMapStore(mapTables());
    const half = { ...openMapStore(mapTables()), changesSince: async () => [] };
    for (const store of [missing, half]) {
      expect(await codeOf(openLongship({ store: store as Store, embedder: hashEmbedder }))).toBe(
        'INVALID_ARGUMENT',
      );
    }
  });
});

// Makes the demo's pack (demo/src/pack-format.ts): indexes the sample corpus as the demo does (the
// folder npm-docs, the bundled model) into a memory store, then writes every record it holds and the
// snapshots of its indexes, which an engine opened over those records saved at its close.
// Usage: tsx tools/demo/pack.ts <file>. The demo's Vite config runs it when its cached pack is stale.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  decodePack,
  encodePack,
  PACK_FORMAT,
  type Pack,
  type PackSnapshot,
} from '../../demo/src/pack-format.js';
import { writePack } from '../../demo/src/pack-import.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import type { FullStore } from '../../src/store/full-store.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import {
  type NodeRecord,
  type PostingRecord,
  type RecordTables,
  type RelationRecord,
  STORE_SCHEMA_VERSION,
  type VectorRecord,
} from '../../src/store/store.js';
import { corpusEntries, packHash, packVersion } from './pack-inputs.js';

async function all<T extends keyof RecordTables>(
  store: { scan(table: T): AsyncIterable<RecordTables[T][]> },
  table: T,
) {
  const records: RecordTables[T][] = [];
  for await (const batch of store.scan(table)) records.push(...batch);
  return records;
}

/** Every snapshot the engine keeps, in the order it writes them (a graph's owners before the graph). */
const snapshotOrder = ['hnsw-owners', 'hnsw', 'bm25', 'nodes'];

/** The store's snapshots, each of its last change: an older one would replay changes the pack lacks. */
async function snapshotsOf(store: FullStore): Promise<PackSnapshot[]> {
  const { seq } = await store.meta();
  const snapshots: PackSnapshot[] = [];
  for (const name of snapshotOrder) {
    const snapshot = await store.snapshot(name);
    if (!snapshot) throw new Error(`the engine saved no ${name} snapshot`);
    if (snapshot.seq !== seq)
      throw new Error(`the ${name} snapshot is of change ${snapshot.seq}, not ${seq}`);
    snapshots.push({ name, bytes: snapshot.bytes });
  }
  // A snapshot this list does not know would be left out, and its index rebuilt at every first visit.
  const held = (await store.stats()).snapshots;
  if (held !== snapshots.length)
    throw new Error(`the store holds ${held} snapshots, not ${snapshots.length}`);
  return snapshots;
}

/** The store, whose close() is left to us: the engine's close saves the snapshots we read after it. */
function keptOpen(store: FullStore): FullStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'close') return async () => {};
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The corpus indexed as the demo indexes it: every record, the root marked as this pack's. */
async function indexCorpus(embedder: Embedder, hash: string) {
  const store = await openMemoryStore();
  const longship = await openLongship({ store, embedder });
  const result = await longship.addResource(corpusEntries(), { name: 'npm-docs' });
  if (result.skipped.length > 0) throw new Error(`skipped: ${result.skipped.join(', ')}`);
  const nodes = (await all(store, 'nodes')) as NodeRecord[];
  const vectors = (await all(store, 'vectors')) as VectorRecord[];
  const postings = (await all(store, 'postings')) as PostingRecord[];
  const relations = (await all(store, 'relations')) as RelationRecord[];
  const { nextKey } = await store.meta();
  await longship.close();
  // The page knows a store filled from this pack by its folder's mark (demo/src/main.ts).
  const root = nodes.find((node) => node.uri === 'viking://resources/npm-docs');
  if (!root) throw new Error('the corpus has no folder node');
  root.meta = { ...root.meta, pack: hash };
  // The header is JSON: a record that would not come back the same cannot go in it.
  for (const node of nodes) {
    if (JSON.stringify(JSON.parse(JSON.stringify(node.meta))) !== JSON.stringify(node.meta)) {
      throw new Error(`${node.uri}'s meta is not JSON`);
    }
  }
  return { nextKey, nodes, vectors, postings, relations };
}

/**
 * The snapshots of the pack's records: written into a new store as a visitor's worker writes them
 * (writePack), opened by an engine, which builds its indexes and saves them at close.
 */
async function snapshotsFor(pack: Pack, embedder: Embedder): Promise<PackSnapshot[]> {
  const info = { id: embedder.id, dimensions: embedder.dimensions };
  const store = await openMemoryStore({ embedder: info });
  if (!(await writePack(store, pack, info))) throw new Error('the pack could not be written');
  const longship = await openLongship({ store: keptOpen(store), embedder });
  await longship.close();
  const snapshots = await snapshotsOf(store);
  await store.close();
  return snapshots;
}

async function main(file: string) {
  const started = performance.now();
  const hash = packHash();
  // One model for both engines: each leaves an embedder it was given alone at close.
  const embedder = transformersEmbedder();
  const { nextKey, nodes, vectors, postings, relations } = await indexCorpus(embedder, hash);
  const header = {
    format: PACK_FORMAT,
    hash,
    embedder: { id: embedder.id, dimensions: embedder.dimensions },
    schema: STORE_SCHEMA_VERSION,
    version: packVersion(),
    nextKey,
    nodes,
    postings,
    relations,
  };
  const records = decodePack(encodePack(header, vectors, []));
  const snapshots = await snapshotsFor(records, embedder);
  await embedder.dispose?.();
  const bytes = encodePack(header, vectors, snapshots);
  mkdirSync(dirname(file), { recursive: true });
  // Whole or not at all: a dev server that stops half-way leaves no half a pack in the cache.
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `pack ${hash}: ${nodes.length} nodes, ${vectors.length} vectors, ${snapshots.length} snapshots, ` +
      `${(bytes.length / 1e6).toFixed(1)} MB in ${seconds} s`,
  );
}

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx tools/demo/pack.ts <file>');
  process.exit(2);
}
await main(file);

// Makes the demo's pack (demo/src/pack-format.ts): indexes the sample corpus as the demo does (the
// folder npm-docs, the bundled model) into a memory store, then writes every record it holds.
// Usage: tsx tools/demo/pack.ts <file>. The demo's Vite config runs it when its cached pack is stale.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { encodePack, PACK_FORMAT } from '../../demo/src/pack-format.js';
import { openLongship } from '../../src/engine.js';
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

async function main(file: string) {
  const started = performance.now();
  const hash = packHash();
  const store = await openMemoryStore();
  const longship = await openLongship({ store });
  const embedder = { id: longship.embedder.id, dimensions: longship.embedder.dimensions };
  const entries = corpusEntries();
  const result = await longship.addResource(entries, { name: 'npm-docs' });
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
  const bytes = encodePack(
    {
      format: PACK_FORMAT,
      hash,
      embedder,
      schema: STORE_SCHEMA_VERSION,
      version: packVersion(),
      nextKey,
      nodes,
      postings,
      relations,
    },
    vectors,
  );
  mkdirSync(dirname(file), { recursive: true });
  // Whole or not at all: a dev server that stops half-way leaves no half a pack in the cache.
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `pack ${hash}: ${entries.length} pages, ${nodes.length} nodes, ${vectors.length} vectors, ` +
      `${(bytes.length / 1e6).toFixed(1)} MB in ${seconds} s`,
  );
}

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx tools/demo/pack.ts <file>');
  process.exit(2);
}
await main(file);

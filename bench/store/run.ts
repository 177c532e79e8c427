// npm run bench:store -- --n 100000 --json bench/results/store.json
// The cost of keeping the derived indexes (HNSW + BM25) in a Store: write n documents (one node,
// one clustered vector, one short posting each) in batches, snapshot, close, reopen from the
// snapshots (reopen_ms), reopen with the snapshots removed (rebuild_ms), and compare the time a
// document spends in store + index with the time the bundled model takes to embed it.
import 'fake-indexeddb/auto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import type { VikingUri } from '../../src/context/uri.js';
import { openDerivedIndexes, snapshotNames } from '../../src/derived/derived-indexes.js';
import { NodeCatalogue } from '../../src/derived/node-catalogue.js';
import { VectorOwners } from '../../src/derived/vector-owners.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { nodesPerEmbedCall } from '../../src/ingest/commit/commit-units.js';
import { keyPool } from '../../src/ingest/commit/write-batch.js';
import { bm25Indexes, loadLexicalIndex } from '../../src/lexical/bm25-index.js';
import { loadScope } from '../../src/retrieve/scope.js';
import type { RetrievalSources } from '../../src/retrieve/sources.js';
import type { FullStore } from '../../src/store/full-store.js';
import { openIdbStore } from '../../src/store/idb/idb-open.js';
import { MemoryData } from '../../src/store/memory/memory-data.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { WriteBatch } from '../../src/store/store.js';
import { loadVectorIndex, usearchIndexes } from '../../src/vector/usearch-index.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import { median } from '../lib/stats.js';
import { markdownReport, type Row } from './report.js';
import { Documents } from './synthetic.js';
import { documentBatch, nodeRecord, writeDocuments } from './write-documents.js';

interface Args {
  n: number;
  dims: number;
  batch: number;
  runtimes: string[];
  json: string | undefined;
  embedSample: number;
  /** Keep the rows already in --json (other runtimes), replacing those of the runtimes run now. */
  append: boolean;
  /** Run nothing: write the markdown again from the rows in --json. */
  renderOnly: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    n: 10_000,
    dims: 512,
    batch: 1000,
    runtimes: ['node+fake-indexeddb', 'node+memory'],
    json: undefined,
    embedSample: 256,
    append: false,
    renderOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--') continue;
    if (flag === '--append' || flag === '--render-only') {
      if (flag === '--append') args.append = true;
      else args.renderOnly = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--n') args.n = Number(value);
    else if (flag === '--dims') args.dims = Number(value);
    else if (flag === '--batch') args.batch = Number(value);
    else if (flag === '--runtimes') args.runtimes = value.split(',');
    else if (flag === '--json') args.json = value;
    else if (flag === '--embed-sample') args.embedSample = Number(value);
    else
      throw new Error(
        `unknown flag ${flag}; flags: --n --dims --batch --runtimes --json --embed-sample --append --render-only`,
      );
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
// The machine is shared: each row says how busy it was.
const loadAtStart = loadavg()[0]!;
if (args.renderOnly) {
  if (!args.json) throw new Error('--render-only needs --json PATH');
  write(args.json, JSON.parse(readFileSync(args.json, 'utf8')) as Row[]);
  process.exit(0);
}
// Each runtime in a process of its own, one after another: a reopen must start from a fresh WASM heap
// and fresh memory, not from what the runtime before left grown and touched.
if (args.runtimes.length > 1) {
  const rest = process.argv
    .slice(2)
    .filter((flag, i, all) => flag !== '--runtimes' && all[i - 1] !== '--runtimes');
  for (const [i, runtime] of args.runtimes.entries()) {
    const more = i > 0 && args.json && !rest.includes('--append') ? ['--append'] : [];
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, process.argv[1]!, ...rest, ...more, '--runtimes', runtime],
      {
        stdio: 'inherit',
      },
    );
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
  process.exit(0);
}
const log = (message: string) => console.log(`[${(performance.now() / 1000).toFixed(1)} s] ${message}`);
const EMBEDDER = { id: 'bench/clustered', dimensions: args.dims };
const ROOT = 'viking://resources';
/** Documents written the way ingestion writes them, after the n: in commits of one embedding call's worth. */
const INGEST_DOCS = 256;
const DOCS_PER_INGEST_COMMIT = nodesPerEmbedCall;
/**
 * Rounds of INGEST_DOCS, each timed apart; the figure is their median. One round of 256 met a
 * collection, or the postings' doubling (at 100k a copy of ~30 MB), often enough to swing between
 * runs: those are costs a long ingestion shares out over many thousands of documents.
 */
const INGEST_ROUNDS = 8;
/** Rounds of the model's sample, likewise. */
const EMBED_ROUNDS = 3;
/** Every snapshot a reopen reads. */
const SNAPSHOTS = [...Object.values(snapshotNames), 'hnsw-owners'];

/** Milliseconds `run` takes, and its result. */
async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await run();
  return [performance.now() - started, result];
}

/** Opens the same store again each call. */
function storeOpener(runtime: string): () => Promise<FullStore> {
  if (runtime === 'node+fake-indexeddb') {
    const factory = new IDBFactory();
    return () => openIdbStore('bench-store', { indexedDB: factory, embedder: EMBEDDER });
  }
  if (runtime === 'node+memory') {
    const data = new MemoryData();
    return () => openMemoryStore({ data, embedder: EMBEDDER });
  }
  throw new Error(`unknown runtime ${runtime}`);
}

async function benchRuntime(runtime: string, usearch: UsearchModule, embedMsPerDoc: number): Promise<Row> {
  const { n, dims, batch } = args;
  const docs = new Documents(dims, 42);
  const open = storeOpener(runtime);
  const openIndexes = (store: FullStore) =>
    openDerivedIndexes({
      store,
      factories: { vector: usearchIndexes(usearch), lexical: bm25Indexes },
      dimensions: dims,
      snapshotDelayMs: Number.POSITIVE_INFINITY,
    });

  log(`${runtime}: writing ${n} documents in commits of ${batch}`);
  let store = await open();
  const rootKey = await store.allocateKeys(1);
  await store.commit({
    putNodes: [{ ...nodeRecord(ROOT, '', rootKey, 'Resources'), parent: null }],
    putPostings: [{ key: rootKey, body: 'Resources' }],
  });
  let indexes = await openIndexes(store);
  const dir = `${ROOT}/bench`;
  const dirKey = await store.allocateKeys(1);
  const keys = keyPool(indexes.store);
  await indexes.store.commit({
    putNodes: [nodeRecord(dir, ROOT, dirKey, 'Bench')],
    putPostings: [{ key: dirKey, body: 'Bench' }],
  });
  const [loadMs] = await timed(async () => {
    for (let first = 0; first < n; first += batch) {
      await writeDocuments(indexes.store, keys, docs, dir, first, Math.min(batch, n - first));
      if ((first / batch) % 10 === 9) log(`  ${first + batch} written`);
    }
  });
  log(`  loaded in ${(loadMs / 1000).toFixed(1)} s (${((n / loadMs) * 1000).toFixed(0)} docs/s)`);

  // What ingestion does: one commit per embedding call (64 one-chunk documents), into an index of n.
  // Each round's batches are drawn before it is timed: the store and index are what is measured.
  const ingestRounds: number[] = [];
  for (let round = 0; round < INGEST_ROUNDS; round++) {
    const first = n + round * INGEST_DOCS;
    const batches: WriteBatch[] = [];
    for (let i = 0; i < INGEST_DOCS; i += DOCS_PER_INGEST_COMMIT) {
      batches.push(await documentBatch(keys, docs, dir, first + i, DOCS_PER_INGEST_COMMIT));
    }
    const [ms] = await timed(async () => {
      for (const batch of batches) await indexes.store.commit(batch);
    });
    ingestRounds.push(ms / INGEST_DOCS);
  }
  const ingestMsPerDoc = median(ingestRounds);
  log(
    `  ${DOCS_PER_INGEST_COMMIT} documents a commit: ${ingestMsPerDoc.toFixed(3)} ms a document (store + index; median of ${INGEST_ROUNDS} rounds of ${INGEST_DOCS}: ${ingestRounds.map((ms) => ms.toFixed(3)).join(', ')})`,
  );

  const queries = Array.from({ length: 20 }, (_, i) => docs.vector(n * 10 + i));
  const before = queries.map((q) => indexes.vectors.search(q, 10).map((h) => h.key));
  const [snapshotMs] = await timed(() => indexes.flush());
  let snapshotBytes = 0;
  for (const name of SNAPSHOTS) snapshotBytes += (await store.snapshot(name))!.bytes.byteLength;
  log(`  snapshot written in ${snapshotMs.toFixed(0)} ms (${(snapshotBytes / 1e6).toFixed(1)} MB)`);
  await indexes.close({ snapshot: false });
  await store.close();

  const [reopenMs, reopened] = await timed(async () => {
    const s = await open();
    return { store: s, indexes: await openIndexes(s) };
  });
  if (Object.values(reopened.indexes.openedFrom).some((from) => from !== 'snapshot')) {
    throw new Error(
      `expected a reopen from the snapshots, got ${JSON.stringify(reopened.indexes.openedFrom)}`,
    );
  }
  const [searchMs, after] = await timed(async () =>
    queries.map((q) => reopened.indexes.vectors.search(q, 10).map((h) => h.key)),
  );
  const sameAfterReopen = JSON.stringify(after) === JSON.stringify(before);
  log(`  reopened from the snapshots in ${reopenMs.toFixed(0)} ms; same hits: ${sameAfterReopen}`);
  // What a first find() adds before it searches: the scope of every node, from the catalogue.
  // Whole and typed (no cast), so that a field the retriever comes to need fails to compile here.
  const scopeSources: RetrievalSources = {
    store: reopened.store,
    vectors: reopened.indexes.vectors,
    lexical: reopened.indexes.lexical,
    nodes: reopened.indexes.nodes,
    embedder: { embed: () => Promise.reject(new Error('a scope embeds nothing')) },
    vectorKeyToNodeKey: (key) => reopened.indexes.nodeOfVector(key),
    vectorKeysOfNode: (key) => reopened.indexes.vectorKeysOfNode(key),
    vectorCountOfNode: (key) => reopened.indexes.vectorCountOfNode(key),
  };
  const [scopeMs, scope] = await timed(() => loadScope(scopeSources, [ROOT as VikingUri]));
  if (scope.nodes.length !== n + INGEST_ROUNDS * INGEST_DOCS + 1) {
    throw new Error(`a scope of ${scope.nodes.length} nodes`);
  }
  // Where the reopen time goes: reading the snapshot bytes, then loading each index.
  const [readMs, snapshots] = await timed(async () => {
    const read = async (name: string) => (await reopened.store.snapshot(name))!.bytes;
    return {
      vector: await read(snapshotNames.vector),
      owners: await read('hnsw-owners'),
      lexical: await read(snapshotNames.lexical),
      nodes: await read(snapshotNames.nodes),
    };
  });
  const [vectorLoadMs] = await timed(async () => loadVectorIndex(usearch, snapshots.vector).dispose());
  const [lexicalLoadMs] = await timed(async () => loadLexicalIndex(snapshots.lexical));
  const [catalogueLoadMs] = await timed(async () => {
    VectorOwners.load(snapshots.owners);
    NodeCatalogue.load(snapshots.nodes);
  });
  log(
    `  reopen, piece by piece: read ${readMs.toFixed(0)} ms, HNSW load ${vectorLoadMs.toFixed(0)} ms, ` +
      `BM25 load ${lexicalLoadMs.toFixed(0)} ms, vector owners + node catalogue load ${catalogueLoadMs.toFixed(0)} ms; ` +
      `first scope ${scopeMs.toFixed(0)} ms`,
  );
  await reopened.indexes.close({ snapshot: false });
  for (const name of SNAPSHOTS) await reopened.store.deleteSnapshot(name);
  await reopened.store.close();

  const [rebuildMs, rebuilt] = await timed(async () => {
    const s = await open();
    return { store: s, indexes: await openIndexes(s) };
  });
  const recall =
    queries
      .map((q, i) => {
        const hits = new Set(rebuilt.indexes.vectors.search(q, 10).map((h) => h.key));
        return before[i]!.filter((key) => hits.has(key)).length / 10;
      })
      .reduce((a, b) => a + b, 0) / queries.length;
  log(
    `  rebuilt without snapshots in ${(rebuildMs / 1000).toFixed(1)} s; overlap with the first hits ${recall}`,
  );
  store = rebuilt.store;
  indexes = rebuilt.indexes;
  await indexes.close({ snapshot: false });
  await store.close();

  return {
    runtime,
    n,
    reopen_ms: Math.round(reopenMs),
    rebuild_ms: Math.round(rebuildMs),
    ingest_overhead_pct: Number(((ingestMsPerDoc / embedMsPerDoc) * 100).toFixed(1)),
    dims,
    store_index_ms_per_doc: Number(ingestMsPerDoc.toFixed(3)),
    store_index_ms_per_doc_rounds: ingestRounds.map((ms) => Number(ms.toFixed(3))),
    embed_ms_per_doc: Number(embedMsPerDoc.toFixed(3)),
    batch_load_docs_per_s: Math.round((n / loadMs) * 1000),
    batch_overhead_pct: Number(((loadMs / n / embedMsPerDoc) * 100).toFixed(1)),
    snapshot_ms: Math.round(snapshotMs),
    snapshot_mb: Number((snapshotBytes / 1e6).toFixed(1)),
    snapshot_read_ms: Math.round(readMs),
    hnsw_load_ms: Math.round(vectorLoadMs),
    bm25_load_ms: Math.round(lexicalLoadMs),
    catalogue_load_ms: Math.round(catalogueLoadMs),
    first_scope_ms: Math.round(scopeMs),
    search_ms_after_reopen: Number((searchMs / queries.length).toFixed(3)),
    same_hits_after_reopen: sameAfterReopen,
    rebuild_overlap_at_10: Number(recall.toFixed(3)),
    load_average: [Number(loadAtStart.toFixed(1)), Number(loadavg()[0]!.toFixed(1))],
  };
}

/** Milliseconds the bundled model takes per document, embedding in its default batches: the median of rounds. */
async function measureEmbedder(): Promise<number> {
  const embedder = transformersEmbedder();
  const docs = new Documents(args.dims, 7);
  const texts = Array.from({ length: args.embedSample }, (_, i) => docs.text(i));
  await embedder.embed(texts.slice(0, 8)); // loads the model
  const rounds: number[] = [];
  for (let round = 0; round < EMBED_ROUNDS; round++) {
    const [ms] = await timed(() => embedder.embed(texts));
    rounds.push(ms / texts.length);
  }
  await embedder.dispose?.();
  log(`  the model's rounds: ${rounds.map((ms) => ms.toFixed(3)).join(', ')} ms a document`);
  return median(rounds);
}

log(
  `bench:store n=${args.n} dims=${args.dims} batch=${args.batch} (Node ${process.version}, ${cpus().length} cores)`,
);
const embedMsPerDoc = await measureEmbedder();
log(`bundled model: ${embedMsPerDoc.toFixed(2)} ms a document (sample of ${args.embedSample})`);
const usearch = await loadUsearch();
const firstTouchMsPerMb = measureFirstTouch();
log(`first write to fresh memory: ${firstTouchMsPerMb.toFixed(2)} ms/MB`);
const rows: Row[] =
  args.append && args.json && existsSync(args.json)
    ? (JSON.parse(readFileSync(args.json, 'utf8')) as Row[]).filter(
        (row) => !args.runtimes.includes(row.runtime),
      )
    : [];
for (const runtime of args.runtimes) {
  rows.push({
    ...(await benchRuntime(runtime, usearch, embedMsPerDoc)),
    first_touch_ms_per_mb: firstTouchMsPerMb,
  });
  if (args.json) write(args.json, rows);
}
console.table(
  rows.map(({ runtime, n, reopen_ms, rebuild_ms, ingest_overhead_pct }) => ({
    runtime,
    n,
    reopen_ms,
    rebuild_ms,
    ingest_overhead_pct,
  })),
);

/**
 * Milliseconds to write each MB of fresh memory: loading a snapshot into a WASM heap that has to grow
 * touches every page for the first time, and on some VMs that costs more than the copy itself.
 */
function measureFirstTouch(): number {
  const mb = 256;
  const started = performance.now();
  new Uint8Array(mb * 1024 * 1024).fill(1);
  return Number(((performance.now() - started) / mb).toFixed(3));
}

function write(path: string, rows: Row[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(rows, null, 2)}\n`);
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GB, Node ${process.version}`;
  writeFileSync(
    path.replace(/\.json$/, '.md'),
    markdownReport(rows, { machine, date: new Date().toISOString() }),
  );
}

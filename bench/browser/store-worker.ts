// A module Worker for bench:browser's large store: it writes n synthetic documents (a node, one
// clustered 512-d vector and a posting each) into an IndexedDB Longship in large commits, and it
// times a cold open of that store to the first find() result. Vectors come from a function embedder
// over bench/store's seeded Documents: building 100k documents with the model would take hours here.
// It also times what ingestion adds to the model at that size (op 'ingest', issue 4's overhead).
import { bundledModel } from '../../src/embed/bundled-model.js';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { indexesOf, openLongship } from '../../src/engine.js';
import { defaultIndexedDB } from '../../src/env/indexeddb.js';
import { LongshipError } from '../../src/errors.js';
import { nodesPerEmbedCall } from '../../src/ingest/commit/commit-units.js';
import { keyPool } from '../../src/ingest/commit/write-batch.js';
import { openIdbStore } from '../../src/store/idb/idb-open.js';
import type { WriteBatch } from '../../src/store/store.js';
import { median } from '../lib/stats.js';
import { Documents } from '../store/synthetic.js';
import { documentBatch, writeDocuments } from '../store/write-documents.js';

export type StoreWorkerRequest =
  | { op: 'build'; name: string; n: number; dims: number; batch: number; usearch: string }
  | { op: 'open'; name: string; dims: number; usearch: string; queries: string[] }
  | { op: 'reads'; name: string }
  | { op: 'copy'; from: string; to: string }
  | {
      op: 'ingest';
      name: string;
      dims: number;
      usearch: string;
      docs: number;
      /** Rounds of each measure (default {@link ROUNDS}); the smoke run's one. */
      rounds?: number;
      /** The bundled model's folder and onnxruntime-web's dist folder, as served. */
      modelDirectory: string;
      wasmPaths: string;
    };

export type StoreWorkerAnswer =
  | { op: 'build'; ms: number; n: number; closeMs: number }
  | {
      op: 'open';
      bootMs: number;
      /** From `new Worker` to the first result: the worker's clock starts when it is created. */
      firstResultMs: number;
      /** openLongship(): the store, the snapshots, the indexes. */
      openMs: number;
      /** The first find() after it (scope load, query embedding, search). */
      firstFindMs: number;
      /** Later find()s, p50. */
      warmFindMs: number;
      /** find()s each right after a use of a result was recorded (a commit), p50. */
      afterWriteFindMs: number;
      hits: number;
      openedFrom: Record<string, string>;
      /** What the indexes hold, and a traced find() when the first found nothing: to see why. */
      sizes: Record<string, number>;
      emptyTrace?: unknown;
    }
  | {
      op: 'reads';
      /** openIdbStore(), and reading each snapshot on its own (bytes checked, nothing parsed). */
      storeMs: number;
      snapshots: { name: string; mb: number; ms: number; from: 'file' | 'indexeddb' }[];
    }
  | { op: 'copy'; mb: number }
  | {
      op: 'ingest';
      /** Documents (node, vector, posting) committed as ingestion commits them into the n-document store, indexed. */
      storeIndexMsPerDoc: number;
      /** The first writes after the open, before those (a directory, then one commit of documents): the indexes made writable once. */
      firstCommitMs: number;
      /** The bundled model in this worker (WASM, one thread), loaded first, in batches of 32. */
      embedMsPerDoc: number;
      /**
       * Rounds of: addResource() of `docs` one-chunk notes with the bundled model, to its result; the
       * snapshot that the job left pending, written at once after it (flush()); the bundled model
       * alone on the batches that ingestion asked it for.
       */
      endToEnd: { ingestMs: number; modelMs: number; snapshotMs: number; snapshotHeldMs: number }[];
      docs: number;
    }
  | { error: string }
  | { progress: number };

/**
 * How long `run` takes, and the longest this thread went meanwhile without running a task of its
 * event loop (timers tick every few ms: what a message arriving then would have waited).
 */
async function timedHeld(run: () => Promise<unknown>): Promise<{ ms: number; heldMs: number }> {
  const started = performance.now();
  let last = started;
  let heldMs = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    heldMs = Math.max(heldMs, now - last);
    last = now;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  await run();
  const ended = performance.now();
  running = false;
  return { ms: ended - started, heldMs: Math.max(heldMs, ended - last) };
}

/** From `new Worker` to this module evaluated (its imports fetched, parsed and run): in the page's figure, not openMs. */
const bootMs = performance.now();

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<StoreWorkerRequest>) => void) | null;
  onconnect?: ((event: MessageEvent) => void) | null;
  postMessage(message: StoreWorkerAnswer): void;
};

/** Where answers go: the dedicated Worker's scope, or the port of the page a SharedWorker serves. */
let reply = (message: StoreWorkerAnswer) => scope.postMessage(message);

const dir = 'viking://resources/bench';
/** Documents per commit when timing ingestion: one embedding call's worth (src/ingest). */
const PER_COMMIT = nodesPerEmbedCall;
/** Rounds of the model, and of the store + index, within one run: the median of each is compared. */
const ROUNDS = 3;

/** The snapshots openLongship reads, in its order. */
const SNAPSHOTS = ['hnsw-owners', 'hnsw', 'bm25', 'nodes'];

/** The synthetic embedder: a text's vector is the Documents vector of a number hashed from it. */
function embedderFor(dims: number) {
  const docs = new Documents(dims, 42);
  return functionEmbedder({
    id: `bench/synthetic-${dims}`,
    dimensions: dims,
    embed: async (texts) =>
      texts.map((text) => {
        let hash = 0x811c9dc5;
        for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
        return docs.vector(hash >>> 0);
      }),
  });
}

async function build(request: Extract<StoreWorkerRequest, { op: 'build' }>): Promise<StoreWorkerAnswer> {
  const started = performance.now();
  const longship = await openLongship({
    store: { indexedDB: request.name },
    embedder: embedderFor(request.dims),
    usearch: new URL(request.usearch),
  });
  await longship.mkdir(dir, { parents: true });
  const docs = new Documents(request.dims, 42);
  const { store } = longship;
  const keys = keyPool(store);
  for (let first = 0; first < request.n; first += request.batch) {
    const count = Math.min(request.batch, request.n - first);
    await writeDocuments(store, keys, docs, dir, first, count);
    reply({ progress: first + count });
  }
  const written = performance.now();
  // close() writes the snapshots a later open starts from.
  await longship.close();
  return { op: 'build', ms: written - started, n: request.n, closeMs: performance.now() - written };
}

async function open(request: Extract<StoreWorkerRequest, { op: 'open' }>): Promise<StoreWorkerAnswer> {
  const started = performance.now();
  const longship = await openLongship({
    store: { indexedDB: request.name },
    embedder: embedderFor(request.dims),
    usearch: new URL(request.usearch),
  });
  const opened = performance.now();
  const [first, ...rest] = request.queries;
  const result = await longship.find(first!, { limit: 10 });
  const found = performance.now();
  const times: number[] = [];
  for (const query of rest) {
    const t = performance.now();
    await longship.find(query, { limit: 10 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  // A recorded use is a write: the scopes must follow it without reading every node again.
  const session = longship.session('bench');
  const afterWrite: number[] = [];
  for (const query of rest.slice(0, 5)) {
    const hit = result.resources[0]?.uri;
    if (hit) await session.used([hit]);
    const t = performance.now();
    await longship.find(query, { limit: 10 });
    afterWrite.push(performance.now() - t);
  }
  afterWrite.sort((a, b) => a - b);
  const openedFrom = { ...indexesOf(longship).openedFrom };
  const { nodes, vectors, lexical } = indexesOf(longship);
  const sizes = { nodes: nodes.size, vectors: vectors.size, lexical: lexical.size };
  const emptyTrace =
    result.total === 0 ? (await longship.find(first!, { limit: 10, trace: true })).trace : undefined;
  await longship.close();
  return {
    op: 'open',
    bootMs,
    firstResultMs: found,
    openMs: opened - started,
    firstFindMs: found - opened,
    warmFindMs: times[Math.floor(times.length / 2)] ?? Number.NaN,
    afterWriteFindMs: afterWrite[Math.floor(afterWrite.length / 2)] ?? Number.NaN,
    hits: result.total,
    openedFrom,
    sizes,
    ...(emptyTrace ? { emptyTrace } : {}),
  };
}

/**
 * The snapshots' share of a cold open: each read as openLongship reads it (the graph through
 * snapshotInto, into a buffer here rather than the WASM heap), bytes checked, nothing parsed.
 */
async function reads(request: Extract<StoreWorkerRequest, { op: 'reads' }>): Promise<StoreWorkerAnswer> {
  const started = performance.now();
  const store = await openIdbStore(request.name, { indexedDB: defaultIndexedDB()! });
  const storeMs = performance.now() - started;
  const snapshots: Extract<StoreWorkerAnswer, { op: 'reads' }>['snapshots'] = [];
  const inFiles = await headersInFiles(request.name);
  for (const name of SNAPSHOTS) {
    const t = performance.now();
    let bytes = 0;
    if (name === 'hnsw') {
      const read = await store.snapshotInto(name, (length) => {
        const into = new Uint8Array(length);
        bytes = length;
        return {
          write: (piece: Uint8Array, offset: number) => into.set(piece, offset),
          dispose: () => undefined,
        };
      });
      if (!read) throw new Error(`snapshot ${name} is missing`);
    } else {
      const read = await store.snapshot(name);
      if (!read) throw new Error(`snapshot ${name} is missing`);
      bytes = read.bytes.length;
    }
    snapshots.push({
      name,
      mb: bytes / 2 ** 20,
      ms: performance.now() - t,
      from: inFiles.has(name) ? 'file' : 'indexeddb',
    });
  }
  await store.close();
  return { op: 'reads', storeMs, snapshots };
}

/**
 * The same snapshots in IndexedDB Blobs, in a database of their own (`snapshotFiles: false`): an A/B
 * of the two ways to keep them, read in the same processes. Kept once written.
 */
async function copy(request: Extract<StoreWorkerRequest, { op: 'copy' }>): Promise<StoreWorkerAnswer> {
  const from = await openIdbStore(request.from, { indexedDB: defaultIndexedDB()! });
  const to = await openIdbStore(request.to, { indexedDB: defaultIndexedDB()!, snapshotFiles: false });
  let bytes = 0;
  try {
    // Copied afresh each run: the formats change, and the two reads should be of the same bytes.
    for (const name of SNAPSHOTS) {
      const snapshot = await from.snapshot(name);
      if (!snapshot) throw new Error(`snapshot ${name} is missing`);
      // seq 0: the copy's store has no changes; what is compared is the reading.
      await to.putSnapshot({ name, seq: 0, bytes: snapshot.bytes });
      bytes += snapshot.bytes.length;
    }
  } finally {
    await from.close();
    await to.close();
  }
  return { op: 'copy', mb: bytes / 2 ** 20 };
}

/** The snapshots whose header says their bytes are in a file, read through IndexedDB itself. */
function headersInFiles(name: string): Promise<Set<string>> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const all = db.transaction('snapshots').objectStore('snapshots').getAll();
      all.onerror = () => reject(all.error);
      all.onsuccess = () => {
        db.close();
        resolve(new Set(all.result.filter((h) => h.file).map((h) => h.name)));
      };
    };
  });
}

/**
 * What the store and index add to embedding, at the store's size, two ways. First, the store alone:
 * `docs` documents committed one embedding call's worth at a time (as ingestion commits) into a
 * directory of their own, each commit indexed, against the bundled model embedding the same texts.
 * Then end to end: `addResource()` of `docs` one-chunk notes with the bundled model (behind the
 * store's embedder id), against the model alone on exactly the batches ingestion asked it for. The
 * documents go again after each.
 */
async function ingest(request: Extract<StoreWorkerRequest, { op: 'ingest' }>): Promise<StoreWorkerAnswer> {
  const model = transformersEmbedder({
    model: { ...bundledModel, directory: request.modelDirectory },
    wasmPaths: request.wasmPaths,
  });
  const synthetic = embedderFor(request.dims);
  /** The batches the model embedded through the store's embedder; none while this is undefined. */
  let asked: string[][] | undefined;
  const longship = await openLongship({
    store: { indexedDB: request.name },
    embedder: functionEmbedder({
      id: synthetic.id,
      dimensions: request.dims,
      embed: (texts, signal) => {
        const options = signal ? { signal } : {};
        if (!asked) return synthetic.embed(texts, options);
        asked.push([...texts]);
        return model.embed(texts, options);
      },
    }),
    usearch: new URL(request.usearch),
  });
  const docs = new Documents(request.dims, 42);
  const keys = keyPool(longship.store);
  const parent = `${dir}-ingest`;
  const firstId = 10_000_000; // far from the store's own documents
  const texts = Array.from({ length: request.docs }, (_, i) => docs.text(firstId + i));
  const timed = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };
  const roundCount = request.rounds ?? ROUNDS;
  /** roundCount timings of `run`, one after another. */
  const rounds = async (run: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let round = 0; round < roundCount; round++) times.push(await timed(run));
    return times;
  };
  try {
    // What a run that failed half way left behind goes first.
    await longship.rm(parent, { recursive: true }).catch((error: unknown) => {
      if (!(error instanceof LongshipError && error.code === 'NOT_FOUND')) throw error;
    });
    // The model first, before any write and with no snapshot pending, so that none runs beside it.
    await indexesOf(longship).flush();
    // Loads the model and runs it once on the whole sample: its first pass at a batch size is ~25%
    // slower than the next, and ingestion's steady state is the one to compare with.
    await model.embed(texts);
    const embedMs = median(await rounds(() => model.embed(texts)));
    // The first writes after an open turn the indexes read in place into writable ones, once: timed
    // apart, so that the figures below are the steady cost of a document, as bench:store's.
    const firstCommitMs = await timed(async () => {
      await longship.mkdir(parent);
      await writeDocuments(longship.store, keys, docs, parent, firstId - PER_COMMIT, PER_COMMIT);
    });
    // Each round's batches are drawn before it is timed: the store and index are what is measured.
    const storeIndexRounds: number[] = [];
    for (let round = 0; round < roundCount; round++) {
      const batches: WriteBatch[] = [];
      for (let first = 0; first < request.docs; first += PER_COMMIT) {
        const count = Math.min(PER_COMMIT, request.docs - first);
        batches.push(await documentBatch(keys, docs, parent, firstId + round * request.docs + first, count));
      }
      storeIndexRounds.push(
        await timed(async () => {
          for (const batch of batches) await longship.store.commit(batch);
        }),
      );
    }
    const storeIndexMs = median(storeIndexRounds);

    // End to end, roundCount times, each job right before the model alone on what it asked for: the model's
    // speed drifts within a run, so a round compares two timings taken seconds apart, not minutes.
    const endToEnd: { ingestMs: number; modelMs: number; snapshotMs: number; snapshotHeldMs: number }[] = [];
    for (let round = 0; round < roundCount; round++) {
      await longship.rm(parent, { recursive: true });
      // The job starts with no snapshot pending, as in a store that has been idle.
      await indexesOf(longship).flush();
      const notes = texts.map((content, i) => ({ path: `note-${i}.txt`, content }));
      asked = [];
      // The job, then the refresh of the directories above it that the queue runs once it drains.
      const ingestMs = await timed(async () => {
        await longship.addResource(notes, { target: parent });
        await longship.waitProcessed();
      });
      const batches = asked;
      asked = undefined;
      // The snapshot the job left pending (written in the background ~2 s after it): timed apart,
      // with the longest it held the worker at a time (what a find arriving then would wait).
      const { ms: snapshotMs, heldMs: snapshotHeldMs } = await timedHeld(() => indexesOf(longship).flush());
      const modelMs = await timed(async () => {
        for (const batch of batches) await model.embed(batch);
      });
      endToEnd.push({ ingestMs, modelMs, snapshotMs, snapshotHeldMs });
    }
    await longship.rm(parent, { recursive: true });
    return {
      op: 'ingest',
      storeIndexMsPerDoc: storeIndexMs / request.docs,
      firstCommitMs,
      embedMsPerDoc: embedMs / request.docs,
      endToEnd,
      docs: request.docs,
    };
  } finally {
    await longship.close();
    await model.dispose?.();
  }
}

async function answer(data: StoreWorkerRequest): Promise<void> {
  try {
    reply(
      data.op === 'build'
        ? await build(data)
        : data.op === 'open'
          ? await open(data)
          : data.op === 'reads'
            ? await reads(data)
            : data.op === 'ingest'
              ? await ingest(data)
              : await copy(data),
    );
  } catch (error) {
    reply({
      error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error),
    });
  }
}

// As a SharedWorker (bench:browser --shared, openLongshipInWorker()'s default kind), requests come on a port.
if ('onconnect' in scope) {
  scope.onconnect = ({ ports }) => {
    const port = ports[0]!;
    reply = (message) => port.postMessage(message);
    port.onmessage = ({ data }) => answer(data as StoreWorkerRequest);
  };
} else {
  scope.onmessage = ({ data }) => answer(data);
}

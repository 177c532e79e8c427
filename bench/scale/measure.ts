// The measurements of bench:scale at one size: the object's store grown to `passages` and
// snapshotted, opened cold once with nothing past the snapshots; then a tail of single writes left in
// the change log past them, and opened cold `opens` times, each in a fresh workerd over the same
// storage, with find() timed in the first.
import { median, quantile } from '../lib/stats.js';
import { type HeapUsage, Inspector } from './inspector.js';
import { ask, startObjects, WORKER_NAME } from './objects.js';

/** The object measured; another, never opened, loads the Worker's script before it is timed. */
const OBJECT = 'agent';
const WARM = 'warm';
/** Passages a load request carries on: long enough to be cheap, short enough to report progress. */
const PER_REQUEST = 5000;
const MB = 2 ** 20;

export interface Settings {
  opens: number;
  queries: number;
  /** Single writes left in the change log past the snapshots. */
  tail: number;
}

interface Stored {
  wasmBytes: number;
  indexBytes: number;
  vectors: number;
  nodes: number;
  databaseBytes: number;
  snapshots: Record<string, number>;
  changeRows: number;
  pastSnapshots: number;
  vectorRows: number;
}

export interface Row {
  passages: number;
  vectors: number;
  nodes: number;
  /** Seconds this size's new passages took to load, and per passage. */
  loadS: number;
  loadMsPerPassage: number;
  closeMs: number;
  /** Commits in the change log past the snapshots when it opens. */
  logCommits: number;
  /** Rows in the change log table: what is kept of it. */
  changeRows: number;
  /** The open inside the object (snapshots loaded, log replayed), each run; and its median. */
  openMs: number[];
  openMedianMs: number;
  /** The first request to the object, from Node: the open plus workerd's routing. */
  openRoundTripMedianMs: number;
  openedFrom: Record<string, string>;
  findP50Ms: number;
  findP95Ms: number;
  /** The queries' time together over their number: finer than workerd's clock, which ticks in ms. */
  findMeanMs: number;
  resultsPerFind: number;
  /** The isolate's live JS heap (after a full collection): with only the script loaded, then with the store open. */
  heapBeforeMb: number;
  heapOpenMb: number;
  /** The most the heap held while the open ran, sampled every 20 ms (garbage included). */
  heapPeakMb: number;
  heapAfterFindsMb: number;
  /** ArrayBuffers' bytes outside the heap (not the WASM memory), as V8 reports them once open. */
  arrayBuffersMb: number;
  /** WASM linear memory (it never shrinks) and the part of it the HNSW index (vectors and graph) uses. */
  wasmMb: number;
  indexMb: number;
  /** Live JS heap + ArrayBuffers + WASM memory once open: what counts against the isolate's 128 MB. */
  totalMb: number;
  databaseMb: number;
  /** One cold open with nothing in the log past the snapshots, before the tail is written. */
  emptyLog: {
    openMs: number;
    heapMb: number;
    arrayBuffersMb: number;
    wasmMb: number;
    indexMb: number;
    totalMb: number;
  };
  snapshotsMb: Record<string, number>;
}

/** Grows the object's store to `passages` (from `had`) and snapshots it: nothing in the log past them. */
export async function grow(folder: string, had: number, passages: number) {
  const miniflare = await startObjects(folder);
  try {
    let loadMs = 0;
    for (let from = had; from < passages; from += PER_REQUEST) {
      const count = Math.min(PER_REQUEST, passages - from);
      const { answer } = await ask<{ loadMs: number }>(miniflare, OBJECT, 'load', { from, count });
      loadMs += answer.loadMs;
      console.log(
        `  loaded ${from + count} passages (${Math.round((answer.loadMs / count) * 1000) / 1000} ms each)`,
      );
    }
    const closed = await ask<{ closeMs: number }>(miniflare, OBJECT, 'close');
    return { loadMs, closeMs: closed.answer.closeMs };
  } finally {
    await miniflare.dispose();
  }
}

/** `count` single writes past the snapshots; then the object is evicted, not closed, so they stay in the log. */
async function writeTail(folder: string, from: number, count: number) {
  const miniflare = await startObjects(folder);
  try {
    await ask(miniflare, OBJECT, 'write', { from, count });
  } finally {
    await miniflare.dispose();
  }
}

/** One cold open: a fresh workerd, the script warmed on another object, then the object's first request. */
async function coldOpen(folder: string, finds: { from: number; count: number } | undefined) {
  const miniflare = await startObjects(folder);
  const inspector = await Inspector.connect(miniflare, WORKER_NAME);
  try {
    const poke = () => ask(miniflare, WARM, 'ping');
    await poke();
    const before = await inspector.liveHeap(poke);
    let peak = before.usedSize;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, (await inspector.heap()).usedSize);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const opened = await ask<{ openMs: number; openedFrom: Record<string, string> }>(
      miniflare,
      OBJECT,
      'open',
    );
    sampling = false;
    await sampler;
    const open = await inspector.liveHeap(poke);
    peak = Math.max(peak, open.usedSize);
    const stored = (await ask<Stored>(miniflare, OBJECT, 'memory')).answer;
    let found: { times: number[]; totalMs: number; found: number; heap: HeapUsage } | undefined;
    if (finds) {
      // A few unmeasured queries first: the first find compiles its code paths.
      await ask(miniflare, OBJECT, 'find', { from: 1_000_000, count: 10 });
      const { answer } = await ask<{ times: number[]; totalMs: number; found: number }>(
        miniflare,
        OBJECT,
        'find',
        finds,
      );
      found = { ...answer, heap: await inspector.liveHeap(poke) };
    }
    return { opened: opened.answer, roundTripMs: opened.roundTripMs, before, open, peak, stored, found };
  } finally {
    inspector.close();
    await miniflare.dispose();
  }
}

/** The live JS heap of the Worker with its script loaded and no Longship open: as bundled, and minified. */
export async function scriptHeaps(folder: string): Promise<{ bundledMb: number; minifiedMb: number }> {
  const heaps = [];
  for (const minify of [false, true]) {
    const miniflare = await startObjects(folder, { minify });
    const inspector = await Inspector.connect(miniflare, WORKER_NAME);
    try {
      const poke = () => ask(miniflare, WARM, 'ping');
      await poke();
      heaps.push((await inspector.liveHeap(poke)).usedSize / MB);
    } finally {
      inspector.close();
      await miniflare.dispose();
    }
  }
  return { bundledMb: heaps[0]!, minifiedMb: heaps[1]! };
}

/** The figures at this size, the store already grown to it and snapshotted; `tailFrom`: the tail's first id. */
export async function measureSize(
  folder: string,
  passages: number,
  loaded: { loadMs: number; closeMs: number; newPassages: number },
  settings: Settings,
  tailFrom: number,
): Promise<Row> {
  // Once with nothing past the snapshots: the graph stays a read-only view of its snapshot.
  const clean = await coldOpen(folder, undefined);
  await writeTail(folder, tailFrom, settings.tail);
  const runs = [];
  for (let run = 0; run < settings.opens; run++) {
    runs.push(await coldOpen(folder, run === 0 ? { from: 0, count: settings.queries } : undefined));
  }
  const first = runs[0]!;
  const { stored } = first;
  const times = first.found!.times;
  const mb = (bytes: number) => bytes / MB;
  const heapOpen = median(runs.map((r) => r.open.usedSize));
  const arrayBuffers = median(runs.map((r) => r.open.backingStorageSize ?? 0));
  return {
    passages,
    vectors: stored.vectors,
    nodes: stored.nodes,
    loadS: loaded.loadMs / 1000,
    loadMsPerPassage: loaded.loadMs / loaded.newPassages,
    closeMs: loaded.closeMs,
    logCommits: stored.pastSnapshots,
    changeRows: stored.changeRows,
    openMs: runs.map((r) => r.opened.openMs),
    openMedianMs: median(runs.map((r) => r.opened.openMs)),
    openRoundTripMedianMs: median(runs.map((r) => r.roundTripMs)),
    openedFrom: first.opened.openedFrom,
    findP50Ms: median(times),
    findP95Ms: quantile(times, 0.95),
    findMeanMs: first.found!.totalMs / times.length,
    resultsPerFind: first.found!.found / times.length,
    heapBeforeMb: mb(median(runs.map((r) => r.before.usedSize))),
    heapOpenMb: mb(heapOpen),
    heapPeakMb: mb(Math.max(...runs.map((r) => r.peak))),
    heapAfterFindsMb: mb(first.found!.heap.usedSize),
    wasmMb: mb(stored.wasmBytes),
    indexMb: mb(stored.indexBytes),
    arrayBuffersMb: mb(arrayBuffers),
    totalMb: mb(heapOpen + arrayBuffers + stored.wasmBytes),
    databaseMb: mb(stored.databaseBytes),
    emptyLog: {
      openMs: clean.opened.openMs,
      heapMb: mb(clean.open.usedSize),
      arrayBuffersMb: mb(clean.open.backingStorageSize ?? 0),
      wasmMb: mb(clean.stored.wasmBytes),
      indexMb: mb(clean.stored.indexBytes),
      totalMb: mb(clean.open.usedSize + (clean.open.backingStorageSize ?? 0) + clean.stored.wasmBytes),
    },
    snapshotsMb: Object.fromEntries(
      Object.entries(stored.snapshots).map(([name, bytes]) => [name, mb(bytes)]),
    ),
  };
}

// The floor under any load into a fresh heap: how long the machine takes to write that many bytes of
// memory it has never touched, on one thread and split over several. On some VMs each 4 KB page
// fault costs ~10 µs, so that writing fresh memory, not copying it, is what a load spends.
import { Worker } from 'node:worker_threads';
import { median } from './stats.js';

export interface FreshWrites {
  mb: number;
  /** Medians over the rounds, in ms, by thread count. */
  oneThreadMs: number;
  twoThreadsMs: number;
  rounds: number;
}

// Each thread writes one byte a page of its share of a new SharedArrayBuffer (allocated lazily, so
// its pages are fresh) and answers; the threads are started before the clock, as a loader's would be.
const WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ buffer, from, to }) => {
  const bytes = new Uint8Array(buffer);
  for (let i = from; i < to; i += 4096) bytes[i] = 1;
  parentPort.postMessage('done');
});
parentPort.postMessage('ready');`;

const once = (worker: Worker) => new Promise<unknown>((resolve) => worker.once('message', resolve));

/** Milliseconds to write `mb` MB of fresh memory, split over `threads` threads. */
export async function freshWriteMs(mb: number, threads: number): Promise<number> {
  const workers = Array.from({ length: threads }, () => new Worker(WORKER, { eval: true }));
  try {
    await Promise.all(workers.map(once));
    const started = performance.now();
    const buffer = new SharedArrayBuffer(Math.round(mb * 1024 * 1024));
    const share = Math.ceil(buffer.byteLength / threads / 4096) * 4096;
    await Promise.all(
      workers.map((worker, i) => {
        const done = once(worker);
        worker.postMessage({ buffer, from: i * share, to: Math.min(buffer.byteLength, (i + 1) * share) });
        return done;
      }),
    );
    return performance.now() - started;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** {@link freshWriteMs} on one thread and on two, alternating, `rounds` times each. */
export async function measureFreshWrites(mb: number, rounds = 3): Promise<FreshWrites> {
  const one: number[] = [];
  const two: number[] = [];
  for (let round = 0; round < rounds; round++) {
    one.push(await freshWriteMs(mb, 1));
    two.push(await freshWriteMs(mb, 2));
  }
  return { mb, oneThreadMs: median(one), twoThreadsMs: median(two), rounds };
}

// `longship/worker`: the worker's side, for a worker script of your own (docs/guide/worker.md). The
// worker script openLongshipInWorker() starts by default is another file, `longship/worker-script.js`.

export {
  createLongshipHost,
  type ExposeLongshipOptions,
  exposeLongship,
  type LongshipHost,
  workerLlm,
} from '../worker/expose.js';
export type { WorkerLlmOptions, WorkerOptions } from '../worker/worker-options.js';

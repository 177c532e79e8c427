// One engine in its own process: its memory figures and WASM heap are its own, and a crash or a
// timeout costs only its row. Started by run.ts with IPC; answers with one `result` message.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readF32, readI32 } from '../lib/dataset.js';
import { registry } from './engines/registry.js';
import { type EngineContext, errorText } from './harness.js';
import type { Row } from './row.js';

export interface ChildTask {
  engine: string;
  n: number;
  dims: number;
  k: number;
  seed: number;
  base: string;
  queries: string;
  queryCount: number;
  truth: string;
}

export type ChildMessage =
  | { type: 'progress'; message: string }
  | { type: 'result'; row: Row }
  | { type: 'error'; message: string };

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) {
      console.log(JSON.stringify(message));
      resolve();
      return;
    }
    process.send(message, undefined, {}, () => resolve());
  });
}

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? '{}') as ChildTask;
  const adapter = registry[task.engine];
  if (!adapter) throw new Error(`no adapter for ${task.engine}`);
  const base = readF32(task.base).subarray(0, task.n * task.dims);
  const scratch = mkdtempSync(join(tmpdir(), `longship-bench-${task.engine}-`));
  const started = performance.now();
  const ctx: EngineContext = {
    engine: task.engine,
    n: task.n,
    dims: task.dims,
    k: task.k,
    seed: task.seed,
    base,
    queries: readF32(task.queries),
    queryCount: task.queryCount,
    truth: readI32(task.truth),
    scratch,
    progress: (message) => {
      void send({
        type: 'progress',
        message: `${((performance.now() - started) / 1000).toFixed(0)} s: ${message}`,
      });
    },
  };
  try {
    const run = await adapter();
    const { notes, ...measured } = await run(ctx);
    const result: Row = { engine: task.engine, n: task.n, dims: task.dims, ...measured };
    if (notes.length > 0) result.note = notes.join('; ');
    await send({ type: 'result', row: result });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    await send({ type: 'error', message: errorText(error) });
    console.error(error);
    process.exit(1);
  },
);

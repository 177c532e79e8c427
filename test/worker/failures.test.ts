// Failures across a real thread (Node's worker_threads, the package's default host): an engine
// that cannot open (the model, the WASM, the store) rejects openLongshipInWorker itself, as a
// LongshipError with the worker's code and a message that says what is missing; a job that fails
// rejects with its code and message, and the queue's summary says so too.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLongshipInWorker } from '../../src/client/open-longship-in-worker.js';
import { bundledModel, bundledModelFiles } from '../../src/embed/bundled-model.js';
import { LongshipError } from '../../src/errors.js';
import type { WorkerOptions } from '../../src/worker/worker-options.js';
import { bundleThreadScript } from './thread-script.js';

const usearch = new URL('../../wasm/dist/usearch.wasm', import.meta.url).href;
let folder: string;
let script: string;

beforeAll(async () => {
  // Inside the repository, so that the thread resolves transformers.js from its node_modules.
  const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
  await mkdir(cache, { recursive: true });
  folder = await mkdtemp(join(cache, 'longship-failures-'));
  script = join(folder, 'thread.mjs');
  await bundleThreadScript(new URL('./default-host-thread.ts', import.meta.url), script);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Opens over a new thread; returns the rejection (or closes what opened and fails). */
async function openFailure(options: WorkerOptions, newerDatabase?: string): Promise<LongshipError> {
  const { port1, port2 } = new MessageChannel();
  const thread = new Worker(script, {
    workerData: { port: port1, newerDatabase },
    transferList: [port1 as never],
  });
  // A thread that fails to start says so here, not by never answering.
  const crashed = new Promise<never>((_, reject) => thread.once('error', reject));
  try {
    const longship = await Promise.race([openLongshipInWorker({ worker: port2, ...options }), crashed]).catch(
      (error: unknown) => error,
    );
    if (!(longship instanceof Error)) {
      await (longship as { close(): Promise<void> }).close();
      throw new Error('openLongshipInWorker resolved');
    }
    expect(longship).toBeInstanceOf(LongshipError);
    return longship as LongshipError;
  } finally {
    await thread.terminate();
  }
}

describe('openLongshipInWorker over a thread that cannot open', () => {
  it('opens over the same thread when everything is there; a failed job says why', async () => {
    const { port1, port2 } = new MessageChannel();
    const thread = new Worker(script, { workerData: { port: port1 }, transferList: [port1 as never] });
    try {
      const longship = await openLongshipInWorker({
        worker: port2,
        usearch,
        // The thread is a bundle elsewhere: the model's default URL, relative to it, would miss.
        embedder: {
          transformers: {
            model: {
              ...bundledModel,
              directory: new URL('./', bundledModelFiles()['config.json'] as URL).href,
            },
          },
        },
      });
      expect(longship.embedder.id).toBe(bundledModel.id);
      const job = longship.addResource(new Uint8Array([0x89, 0, 1, 0]), { name: 'photo.png' });
      const error = await job.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LongshipError);
      expect((error as LongshipError).code).toBe('BINARY_INPUT');
      expect((error as LongshipError).message).toContain('photo.png');
      const summary = await longship.waitProcessed();
      expect(summary).toMatchObject({ failed: 1, done: 0 });
      expect(summary.jobs[0]!.error).toBeInstanceOf(LongshipError);
      expect((summary.jobs[0]!.error as LongshipError).message).toBe((error as LongshipError).message);
      await longship.close();
    } finally {
      await thread.terminate();
    }
  });

  it('rejects with MODEL_LOAD naming the missing file when the model is not there', async () => {
    const missing = join(folder, 'no-model', 'use-lite');
    const error = await openFailure({
      usearch,
      embedder: { transformers: { model: { ...bundledModel, directory: `file://${missing}/` } } },
    });
    expect(error.code, error.message).toBe('MODEL_LOAD');
    expect(error.message).toMatch(/could not load the embedding model longship\/use-lite from .+: .+/);
    expect(error.message).toContain(missing);
  });

  it('rejects with WASM_LOAD when the USearch .wasm is not there', async () => {
    const error = await openFailure({ usearch: `file://${join(folder, 'none.wasm')}` });
    expect(error.code).toBe('WASM_LOAD');
    expect(error.message).toContain('none.wasm');
  });

  it('rejects with the store’s code when its database cannot be opened', async () => {
    const error = await openFailure({ usearch, store: { indexedDB: 'from-the-future' } }, 'from-the-future');
    expect(error.code).toBe('SCHEMA_MISMATCH');
    expect(error.message).toMatch(/from-the-future was written by a newer Longship/);
  });
});

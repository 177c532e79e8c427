// openLongshipInWorker over a real thread (Node's worker_threads): the engine runs there, and close()
// lets the thread end on its own, which it only does once no port, timer or callback holds it.
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLongshipInWorker } from '../../src/client/open-longship-in-worker.js';
import { LongshipError } from '../../src/errors.js';
import { bundleThreadScript } from './thread-script.js';

let folder: string;
let script: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-thread-'));
  script = join(folder, 'thread.mjs');
  // transformers.js and its native runtime are never loaded by this script's embedder.
  await bundleThreadScript(new URL('./node-thread.ts', import.meta.url), script);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

it('runs in a thread, and close() lets the thread exit', async () => {
  const { port1, port2 } = new MessageChannel();
  const thread = new Worker(script, { workerData: { port: port1 }, transferList: [port1 as never] });
  const exited = once(thread, 'exit');
  try {
    const longship = await openLongshipInWorker({
      worker: port2,
      usearch: new URL('../../wasm/dist/usearch.wasm', import.meta.url).href,
    });
    const phases: string[] = [];
    const result = await longship.addResource('# Tides\n\nThe moon pulls the tides.', {
      name: 'tides.md',
      onProgress: (progress) => phases.push(progress.phase),
    });
    expect(result.uris).toEqual(['viking://resources/tides.md']);
    const found = await longship.find('moon tides', { limit: 1 });
    expect(found.resources.map((r) => r.uri)).toEqual(['viking://resources/tides.md']);
    const error = await longship.read('viking://resources/none.md').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('NOT_FOUND');
    // The callbacks come over a port of their own: wait for them, not for some milliseconds.
    const deadline = Date.now() + 4000;
    while (!phases.includes('write') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(phases).toContain('write');

    await longship.close();
    // Soon, not eventually: a callback port left open only goes when the GC collects its proxy.
    const [code] = await Promise.race([
      exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the thread did not exit')), 4000)),
    ]);
    expect(code).toBe(0);
  } finally {
    await thread.terminate();
  }
});

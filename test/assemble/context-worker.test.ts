// context() through a real worker thread: its options (a session id, a session proxy, a tokenizer
// on the page) cross the boundary, its result comes back as plain data, its errors keep their code.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLongshipInWorker } from '../../src/client/open-longship-in-worker.js';
import { LongshipError } from '../../src/errors.js';
import { bundleThreadScript } from '../worker/thread-script.js';

let folder: string;
let script: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-context-'));
  script = join(folder, 'thread.mjs');
  await bundleThreadScript(new URL('../worker/node-thread.ts', import.meta.url), script);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

it('assembles context in the worker, for a session named by id or by its proxy', async () => {
  const { port1, port2 } = new MessageChannel();
  const thread = new Worker(script, { workerData: { port: port1 }, transferList: [port1 as never] });
  try {
    const longship = await openLongshipInWorker({
      worker: port2,
      usearch: new URL('../../wasm/dist/usearch.wasm', import.meta.url).href,
    });
    await longship.write('viking://resources/tides.md', 'The moon pulls the tides twice a day.');
    await longship.write('viking://resources/moon.md', 'The moon orbits the earth in 27 days.');
    const first = await longship.context('moon tides', { budget: { tokens: 300 }, session: 'chat-1' });
    expect(first.tokenizer).toBe('o200k_base');
    expect(first.tokens).toBeGreaterThan(0);
    expect(first.tokens).toBeLessThanOrEqual(300);
    expect(first.parts.map((p) => p.uri)).toContain('viking://resources/tides.md');
    expect(first.text).toContain('uri="viking://resources/tides.md" layer="L2"');
    // Plain data: it survives a structured clone unchanged.
    expect(structuredClone(first)).toEqual(first);

    const again = await longship.context('moon tides', { budget: { tokens: 300 }, session: 'chat-1' });
    expect(again.parts).toEqual([]);
    expect(again.leftOut.every((l) => l.reason === 'delivered')).toBe(true);

    const session = await longship.session('chat-2');
    const viaProxy = await longship.context('moon tides', { budget: { tokens: 300 }, session });
    expect(viaProxy.parts.length).toBe(first.parts.length);
    const repeated = await longship.context('moon tides', { budget: { tokens: 300 }, session: 'chat-2' });
    expect(repeated.parts).toEqual([]);

    // A tokenizer on the page: the worker calls back for each count.
    const words = { name: 'words', count: (text: string) => text.split(/\s+/).filter(Boolean).length };
    const counted = await longship.context('moon tides', { budget: { tokens: 40 }, tokenizer: words });
    expect(counted.tokenizer).toBe('words');
    expect(counted.tokens).toBe(words.count(counted.text));

    const error = await longship.context('moon', { budget: { tokens: 0 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
    await longship.close();
  } finally {
    await thread.terminate();
  }
});

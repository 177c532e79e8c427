// Careless and hostile calls through the public API (issue 24, items 3–7): each refused with a typed
// error, nothing written, verify() still true, and nothing else in the process harmed.
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../src/embed/embedder.js';
import { indexesOf, openLongship } from '../src/engine.js';
import { LongshipError } from '../src/errors.js';
import { MemoryData } from '../src/store/memory/memory-data.js';
import { openMemoryStore } from '../src/store/memory/memory-store.js';
import { DIMENSIONS, hashEmbedder, hashedWords } from './context/fixtures.js';

const R = 'viking://resources';

/** An embedder as any caller may write one (a plain object, no checks), careless with texts saying "bad". */
function rawEmbedder(bad: () => unknown): Embedder {
  return {
    id: 'test/raw',
    dimensions: DIMENSIONS,
    embed: async (texts) =>
      texts.map((text) => (text.toLowerCase().includes('bad') ? bad() : hashedWords(text))) as Float32Array[],
  };
}

async function open(embedder: Embedder = hashEmbedder) {
  return openLongship({ store: await openMemoryStore(), embedder });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LongshipError) return error.code;
    throw error;
  }
  throw new Error('expected a LongshipError, got none');
}

/** Settles within `ms`, or fails the test: what a hang would do. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms)),
  ]);
}

describe('vectors from an embedder', () => {
  const bad: Array<[string, () => unknown, string]> = [
    ['a plain number[]', () => Array.from({ length: DIMENSIONS }, (_, i) => i + 1), 'INVALID_ARGUMENT'],
    ['NaN', () => new Float32Array(DIMENSIONS).fill(Number.NaN), 'INVALID_ARGUMENT'],
    [
      'Infinity',
      () => new Float32Array(DIMENSIONS).fill(1).fill(Number.POSITIVE_INFINITY, 3, 4),
      'INVALID_ARGUMENT',
    ],
    ['-Infinity', () => new Float32Array(DIMENSIONS).fill(Number.NEGATIVE_INFINITY), 'INVALID_ARGUMENT'],
    ['the wrong length', () => new Float32Array(DIMENSIONS + 1).fill(1), 'DIMENSION_MISMATCH'],
    ['null', () => null, 'INVALID_ARGUMENT'],
  ];

  it.each(bad)(
    'refuses %s: nothing written, verify() true, other instances unharmed',
    async (_, vector, code) => {
      const careless = await open(rawEmbedder(vector));
      const uri = `${R}/notes/a.md`;
      await careless.write(`${R}/good.md`, 'The river floods every spring.');
      expect(await codeOf(careless.write(uri, 'A bad river.', { parents: true }))).toBe(code);
      expect(await codeOf(careless.read(uri))).toBe('NOT_FOUND');
      expect(await codeOf(careless.addResource('Bad lakes freeze.', { name: 'lake.md' }))).toBe(code);
      // A query's vector goes onto the WASM heap too.
      expect(await codeOf(careless.find('bad river'))).toBe(code);
      expect((await careless.ls(R)).map((entry) => entry.uri)).toEqual([`${R}/good.md`]);
      expect(await careless.verify()).toEqual({ ok: true, problems: [] });
      expect((await careless.find('river floods')).resources[0]?.uri).toBe(`${R}/good.md`);

      // Another Longship in the same process (the same WASM module) works as ever.
      const other = await open();
      await other.write(uri, 'The river floods every spring.', { parents: true });
      const found = await other.find('river floods');
      expect(found.resources[0]?.uri).toBe(uri);
      expect(await other.verify()).toEqual({ ok: true, problems: [] });
      await other.close();
      await careless.close();
    },
  );
});

describe('meta', () => {
  it('refuses circular or too deep meta at write time; verify() stays true, also after reopen', async () => {
    const data = new MemoryData();
    const longship = await openLongship({ store: await openMemoryStore({ data }), embedder: hashEmbedder });
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const inArray: Record<string, unknown> = {};
    inArray.list = [1, { back: inArray }];
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++) deep = { deep };
    for (const meta of [circular, inArray, deep, { f: () => 1 }]) {
      expect(await codeOf(longship.write(`${R}/m.md`, 'text', { meta }))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(longship.mkdir(`${R}/dir`, { meta }))).toBe('INVALID_ARGUMENT');
    }
    // Shared (not circular) values, Dates and Maps are still fine.
    const shared = { x: 1 };
    await longship.write(`${R}/ok.md`, 'text', {
      meta: { a: shared, b: shared, when: new Date(0), m: new Map([[1, 2]]) },
    });
    expect(await codeOf(longship.read(`${R}/m.md`))).toBe('NOT_FOUND');
    expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    await longship.close();
    const again = await openLongship({ store: await openMemoryStore({ data }), embedder: hashEmbedder });
    expect(await again.verify()).toEqual({ ok: true, problems: [] });
    await again.close();
  });
});

describe('an embedder that ignores its AbortSignal', () => {
  /** Embeds like hashEmbedder until `stuck`, then never answers and never looks at its signal. */
  function stuckEmbedder() {
    const state = { stuck: false, calls: 0 };
    const embedder: Embedder = {
      id: hashEmbedder.id,
      dimensions: DIMENSIONS,
      embed: (texts) => {
        state.calls++;
        return state.stuck ? new Promise(() => undefined) : hashEmbedder.embed(texts);
      },
    };
    return { embedder, state };
  }

  it('cannot hang write, find or addResource with a signal', async () => {
    const { embedder, state } = stuckEmbedder();
    const longship = await open(embedder);
    await longship.write(`${R}/notes/a.md`, 'The river floods every spring.', { parents: true });
    state.stuck = true;
    const abortSoon = () => AbortSignal.timeout(50);
    const write = longship.write(`${R}/notes/b.md`, 'Lakes freeze.', { signal: abortSoon() });
    expect(await within(codeOf(write), 2000)).toBe('ABORTED');
    expect(await within(codeOf(longship.find('river', { signal: abortSoon() })), 2000)).toBe('ABORTED');
    const job = longship.addResource('Snow melts.', { name: 'snow.md', signal: abortSoon() });
    expect(await within(codeOf(job), 2000)).toBe('ABORTED');
    expect(state.calls).toBeGreaterThanOrEqual(4);
    expect(await codeOf(longship.read(`${R}/notes/b.md`))).toBe('NOT_FOUND');
    state.stuck = false;
    expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    await longship.close();
  });

  it('cannot hang close() during such a job', async () => {
    const { embedder, state } = stuckEmbedder();
    const longship = await open(embedder);
    state.stuck = true;
    const job = longship.addResource('Snow melts.', { name: 'snow.md' });
    const write = codeOf(longship.write(`${R}/w.md`, 'Rain falls.'));
    const jobCode = codeOf(job);
    // Closed once the job is stuck in the embedder, not after some milliseconds that may not get it there.
    while (state.calls === 0) await new Promise((resolve) => setImmediate(resolve));
    await within(longship.close(), 2000);
    expect(await jobCode).toBe('ABORTED');
    expect((await longship.waitProcessed()).cancelled).toBe(1);
    expect(await write).toBe('STORE_CLOSED');
  });
});

describe('addResource targets', () => {
  it('refuses targets outside viking://resources, as write() does', async () => {
    const longship = await open();
    for (const target of [
      'viking://evil',
      'viking://user',
      'viking://user/default/memories',
      'viking://agent/skills/x',
    ]) {
      expect(await codeOf(longship.addResource('Snow melts.', { name: 'snow.md', target }))).toBe(
        'INVALID_ARGUMENT',
      );
    }
    await longship.addResource('Snow melts.', { name: 'snow.md', target: `${R}/weather` });
    expect((await longship.ls(`${R}/weather`)).map((e) => e.uri)).toEqual([`${R}/weather/snow.md`]);
    expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    await longship.close();
  });

  it('verify() reports nodes outside the roots', async () => {
    const store = await openMemoryStore();
    const longship = await openLongship({ store, embedder: hashEmbedder });
    const key = await store.allocateKeys(1);
    const now = Date.now();
    await store.commit({
      putNodes: [
        {
          uri: 'viking://evil',
          parent: null,
          name: 'evil',
          kind: 'file',
          contextType: 'resource',
          key,
          l0: 'evil',
          summaryKind: 'extractive',
          meta: {},
          createdAt: now,
          updatedAt: now,
          useCount: 0,
        },
      ],
      putPostings: [{ key, body: 'evil' }],
    });
    const report = await longship.verify();
    expect(report.ok).toBe(false);
    expect(report.problems).toContain('node viking://evil is outside the roots');
    await longship.close();
  });
});

describe('a store written before vectors were checked', () => {
  it('opens with a NaN vector left out of the graph, and verify() names it', async () => {
    const data = new MemoryData();
    const options = { embedder: hashEmbedder, snapshots: { delayMs: Number.POSITIVE_INFINITY } };
    const first = await openLongship({ store: await openMemoryStore({ data }), ...options });
    await first.write(`${R}/a.md`, 'The river floods every spring.');
    await first.write(`${R}/b.md`, 'The lake freezes in winter.');
    // As an older version stored it: no snapshot (a crash), one vector NaN.
    const [damaged] = [...data.vectors.values()];
    damaged!.vector.fill(Number.NaN);
    const again = await openLongship({ store: await openMemoryStore({ data }), ...options });
    expect(indexesOf(again).openedFrom.vector).toBe('rebuild');
    const report = await again.verify();
    expect(report.problems).toContain(`vector ${damaged!.key} is stored but not in the vector index`);
    expect((await again.find('lake freezes')).resources.length).toBeGreaterThan(0);
    await again.close();
  });
});

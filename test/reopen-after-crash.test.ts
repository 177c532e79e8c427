// Results after a crash equal results after a clean close (issue 24, item 9). A "crash" drops the
// engine without close(): no last snapshot, so the reopen replays the change log onto older snapshots,
// including vectors written and gone again since then (docs/internals/reliability-core.md).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { indexesOf, type Longship, openLongship } from '../src/engine.js';
import type { FindOptions } from '../src/retrieve/settings.js';
import { MemoryData } from '../src/store/memory/memory-data.js';
import { openMemoryStore } from '../src/store/memory/memory-store.js';
import { embedderInfo, hashEmbedder } from './context/fixtures.js';
import { seededRandom } from './vector/fixtures.js';

const R = 'viking://resources';
const random = seededRandom(7);
const vocabulary = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}q${(i * 37) % 101}`);
const sentence = (n: number) =>
  Array.from({ length: n }, () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]).join(' ');
const doc = () => `${sentence(12)}.\n\n${sentence(30)}.`;
const folder = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ path: `${tag}/n${i}.md`, content: doc() }));
const queries = Array.from({ length: 40 }, () => sentence(3));
// Enough vectors that the graph grows (and USearch resets its level generator) after the snapshot.
const SNAPSHOT_DOCS = 1200;
const REPLAYED_DOCS = 600;
// Every vector search walks the HNSW graph (none is scored exactly): the graph is what a replay must rebuild.
const graphOnly: FindOptions = { limit: 10, mode: 'quick', walk: { exactChildren: 1 } };

type Opener = () => Promise<Longship>;

const openers: Array<[string, () => Opener]> = [
  [
    'memory',
    () => {
      const data = new MemoryData();
      return async () =>
        openLongship({
          store: await openMemoryStore({ embedder: embedderInfo, data }),
          embedder: hashEmbedder,
          snapshots: { delayMs: Number.POSITIVE_INFINITY },
        });
    },
  ],
  [
    'fake-indexeddb',
    () => {
      const indexedDB = new IDBFactory();
      const n = 0;
      // A crashed tab's connection is gone: each open gets a fresh factory view of the same databases.
      return async () =>
        openLongship({
          store: { indexedDB: `crash-${n}`, factory: indexedDB },
          embedder: hashEmbedder,
          snapshots: { delayMs: Number.POSITIVE_INFINITY },
        });
    },
  ],
];

async function answers(longship: Longship): Promise<string[][]> {
  const all: string[][] = [];
  for (const query of queries) {
    const found = await longship.find(query, graphOnly);
    all.push(found.resources.map((hit) => `${hit.uri} ${hit.score}`));
  }
  return all;
}

/** The raw graph's answer too: the 100 nearest keys of each query, as the HNSW walk finds them. */
async function graphAnswers(longship: Longship): Promise<number[][]> {
  const vectors = await hashEmbedder.embed(queries);
  return vectors.map((vector) =>
    indexesOf(longship)
      .vectors.search(vector, 100)
      .map((hit) => hit.key),
  );
}

describe.each(openers)('reopening after a crash (%s)', (_, makeOpener) => {
  it('answers 40 queries as a clean close does, scores included', async () => {
    const open = makeOpener();
    const first = await open();
    await first.addResource(folder('a', SNAPSHOT_DOCS));
    await indexesOf(first).flush(); // the snapshots the crash falls back to
    await first.addResource(folder('b', REPLAYED_DOCS)); // left to replay from the change log
    for (let i = 0; i < 20; i++) await first.write(`${R}/c/n${i}.md`, doc(), { parents: true });
    // Rewrites and removals of documents the snapshot holds.
    for (let i = 0; i < 20; i++) await first.write(`${R}/a/n${i}.md`, doc());
    for (let i = 20; i < 30; i++) await first.rm(`${R}/a/n${i}.md`);
    // Vectors added and gone again since the snapshot: they shaped the live graph, and the store no
    // longer holds them, only the change log does.
    for (let i = 0; i < 30; i++) await first.write(`${R}/b/n${i}.md`, doc());
    for (let i = 30; i < 40; i++) await first.rm(`${R}/b/n${i}.md`);
    for (let i = 0; i < 10; i++) await first.write(`${R}/c/n${i}.md`, doc());
    for (let i = 0; i < 5; i++) await first.write(`${R}/c/n${i}.md`, doc());
    for (let i = 10; i < 15; i++) await first.rm(`${R}/c/n${i}.md`);
    const before = await answers(first);
    const graphBefore = await graphAnswers(first);
    // The crash: `first` is dropped, never closed.
    const crashed = await open();
    expect(indexesOf(crashed).openedFrom.vector).toBe('snapshot');
    expect(await graphAnswers(crashed)).toEqual(graphBefore);
    expect(await answers(crashed)).toEqual(before);
    expect(await crashed.verify()).toEqual({ ok: true, problems: [] });
    await crashed.close();
    const closed = await open();
    expect(await graphAnswers(closed)).toEqual(graphBefore);
    expect(await answers(closed)).toEqual(before);
    await closed.close();
  }, 30_000);
});

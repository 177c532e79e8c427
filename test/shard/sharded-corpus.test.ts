// A corpus over four shards answers as one store holding all of it: the same results, ranks and
// scores (BM25 with the corpus's statistics, one fusion, the whole tree's places, one calibration).
// A shard that is late or fails is left out and named.
import { describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import type { MatchedContext } from '../../src/retrieve/results.js';
import { corpusShard } from '../../src/shard/corpus-shard.js';
import type { CorpusShard } from '../../src/shard/shard-protocol.js';
import { openShardedCorpus } from '../../src/shard/sharded-corpus.js';
import { hashEmbedder } from '../context/fixtures.js';
import { folders, queries } from './corpus-fixture.js';

const R = 'viking://resources';
async function corpusOf(chosen: typeof folders, shardCount: number) {
  const stores = await Promise.all(
    Array.from({ length: shardCount }, () => openLongship({ embedder: hashEmbedder })),
  );
  const corpus = openShardedCorpus({ shards: stores.map(corpusShard) });
  for (const folder of chosen) {
    await stores[corpus.shardOf(`${R}/${folder.name}`)]!.addResource(folder.files, { name: folder.name });
  }
  return { stores, corpus };
}

const shape = (items: readonly MatchedContext[]) =>
  items.map(({ uri, score, abstract, isLeaf, matchReason }) => ({
    uri,
    score,
    abstract,
    isLeaf,
    matchReason,
  }));

function expectSame(sharded: readonly MatchedContext[], single: readonly MatchedContext[]): void {
  expect(sharded.map((item) => item.uri)).toEqual(single.map((item) => item.uri));
  for (const [i, item] of sharded.entries())
    expect(Math.abs(item.score - single[i]!.score)).toBeLessThan(1e-6);
  expect(shape(sharded)).toEqual(shape(single));
}

describe('a corpus over shards', () => {
  it('finds what one store of all its documents finds, rank for rank and score for score', async () => {
    const single = await openLongship({ embedder: hashEmbedder });
    for (const folder of folders) await single.addResource(folder.files, { name: folder.name });
    const { stores, corpus } = await corpusOf(folders, 4);
    // Every shard holds part of the corpus: the statistics really are summed.
    for (const store of stores) expect((await store.ls(R)).length).toBeGreaterThan(0);
    let compared = 0;
    for (const query of queries) {
      for (const options of [{ limit: 10 }, { limit: 5, filter: { kind: 'file' as const } }]) {
        const expected = await single.find(query, { ...options, targetUri: R });
        const got = await corpus.find(query, options);
        expect(got.missing).toEqual([]);
        expectSame(got.resources, expected.resources);
        compared += expected.resources.length;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    // context(): the same block from the same hits, read from the shards that hold them.
    for (const query of queries.slice(0, 12)) {
      const options = { budget: { tokens: 400 }, targetUri: R };
      const got = await corpus.context(query, options);
      const expected = await single.context(query, options);
      expect(got.missing).toEqual([]);
      expect(got.parts.length).toBeGreaterThan(0);
      expect(got.text).toBe(expected.text);
      expect(got.parts).toEqual(expected.parts);
    }
    // A session is not sent again what it was given.
    const first = await corpus.context('glacier winter', { budget: 300, session: 'chat' });
    const again = await corpus.context('glacier winter', { budget: 300, session: 'chat' });
    expect(first.parts.length).toBeGreaterThan(0);
    expect(again.parts.map((part) => part.uri)).not.toContain(first.parts[0]!.uri);
    // Below the root, too: one folder's subtree is in one shard, its statistics the folder's.
    const within = { targetUri: `${R}/reef`, limit: 8 };
    expectSame(
      (await corpus.find('salt tide reef', within)).resources,
      (await single.find('salt tide reef', within)).resources,
    );
  }, 240_000);

  it('leaves out a shard that is late or fails, names it, and answers from the others', async () => {
    const { stores, corpus: whole } = await corpusOf(folders, 4);
    const shards = stores.map(corpusShard);
    const late: CorpusShard = { ...shards[1]!, statistics: () => new Promise(() => {}) };
    const failing: CorpusShard = {
      ...shards[2]!,
      candidates: async () => {
        throw new Error('object reset');
      },
    };
    const corpus = openShardedCorpus({ shards: [shards[0]!, late, failing, shards[3]!], deadlineMs: 200 });
    const result = await corpus.find('harbour ferry lantern');
    expect(result.missing).toEqual([
      { shard: 1, reason: 'timeout', message: expect.stringContaining('200 ms') },
      { shard: 2, reason: 'error', message: 'object reset' },
    ]);
    // None of the missing shards' nodes are results; the others' are.
    const lost = new Set(
      folders.filter((f) => [1, 2].includes(whole.shardOf(`${R}/${f.name}`))).map((f) => f.name),
    );
    expect(result.resources.length).toBeGreaterThan(0);
    for (const item of result.resources) expect(lost.has(item.uri.split('/')[3]!)).toBe(false);
    // A shard late in the first round is not in the statistics either: the corpus is the others'.
    const withoutLate = openShardedCorpus({
      shards: [shards[0]!, late, shards[2]!, shards[3]!],
      deadlineMs: 200,
    });
    const others = openShardedCorpus({ shards: [shards[0]!, shards[2]!, shards[3]!] });
    for (const query of ['harbour ferry lantern', 'glacier winter', 'salt market']) {
      const got = await withoutLate.find(query);
      expect(got.missing.map((left) => left.shard)).toEqual([1]);
      expectSame(got.resources, (await others.find(query)).resources);
    }
  }, 120_000);

  it('embeds each query once: in the corpus when given an embedder, else by its first shard', async () => {
    const { stores } = await corpusOf(folders.slice(0, 3), 2);
    const asked: boolean[] = [];
    const shards = stores.map(corpusShard).map(
      (shard): CorpusShard => ({
        ...shard,
        statistics: (query) => {
          asked.push(query.embed);
          return shard.statistics(query);
        },
      }),
    );
    const embedded: string[] = [];
    const counting = {
      embed: async (texts: readonly string[]) => {
        embedded.push(...texts);
        return hashEmbedder.embed(texts);
      },
    };
    const here = await openShardedCorpus({ shards, embedder: counting }).find('glacier winter');
    const there = await openShardedCorpus({ shards }).find('glacier winter');
    expect(embedded).toEqual(['glacier winter']);
    expect(asked).toEqual([false, false, true, false]);
    expect(here.resources).toEqual(there.resources);
    const broken = { embed: async () => Promise.reject(new Error('model gone')) };
    await expect(openShardedCorpus({ shards, embedder: broken }).find('glacier')).rejects.toThrow(
      'model gone',
    );
  });

  it('refuses what it cannot answer as one store would', async () => {
    const corpus = openShardedCorpus({
      shards: [corpusShard(await openLongship({ embedder: hashEmbedder }))],
    });
    const code = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (error) {
        expect(error).toBeInstanceOf(LongshipError);
        return (error as LongshipError).code;
      }
      return 'resolved';
    };
    expect(await code(corpus.find('x', { mode: 'thinking' }))).toBe('INVALID_ARGUMENT');
    expect(await code(corpus.find('x', { trace: true }))).toBe('INVALID_ARGUMENT');
    expect(await code(corpus.find('x', { hybrid: { fusion: 'rrf' } }))).toBe('INVALID_ARGUMENT');
    expect(await code(corpus.find('x', { targetUri: 'viking://user/default/memories' }))).toBe('INVALID_URI');
    expect(await code(corpus.find('x', { nonsense: 1 } as never))).toBe('INVALID_ARGUMENT');
    expect(await code(Promise.resolve().then(() => openShardedCorpus({ shards: [] })))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await code(Promise.resolve().then(() => corpus.shardOf(R)))).toBe('INVALID_URI');
    expect(corpus.shardOf(`${R}/reef/notes/a.md`)).toBe(corpus.shardOf(`${R}/reef`));
  });
});

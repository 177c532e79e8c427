import { beforeAll, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { find } from '../../src/retrieve/retriever.js';
import type { FindMode } from '../../src/retrieve/settings.js';
import { corpus } from './corpus.js';
import { buildTree, type Tree, urisOf } from './fixture.js';

let tree: Tree;
beforeAll(async () => {
  tree = await buildTree(corpus, {
    relations: [
      [
        'viking://resources/docs/networking/retries.md',
        'viking://resources/docs/errors/handling.md',
        'retry on error',
      ],
      [
        'viking://resources/docs/errors/handling.md',
        'viking://resources/docs/networking/retries.md',
        'both ways',
      ],
      ['viking://agent/skills/write-rfc.md', 'viking://resources/docs/networking/retries.md', 'example'],
    ],
  });
});

const modes: FindMode[] = ['quick', 'thinking'];

describe.each(modes)('find in %s mode', (mode) => {
  it('puts the matching file first and splits results by context type', async () => {
    const result = await find(tree.sources, 'retry failed requests with backoff', { mode });
    expect(result.resources[0]?.uri).toBe('viking://resources/docs/networking/retries.md');
    expect(result.total).toBe(result.memories.length + result.resources.length + result.skills.length);
    expect(result.total).toBeLessThanOrEqual(10);
    const top = result.resources[0]!;
    expect(top).toMatchObject({ contextType: 'resource', isLeaf: true, category: '' });
    expect(top.abstract).toMatch(/^Retries/);
    expect(top.score).toBeGreaterThan(0);
    expect(top.score).toBeLessThanOrEqual(1);
    expect(top.matchReason).toMatch(/bm25 [\d.]+, similarity [\d.]+ → fused/);
  });

  it('finds memories and skills in their own lists, with categories', async () => {
    const memory = await find(tree.sources, 'indentation and quotes the user prefers', { mode });
    expect(memory.memories[0]).toMatchObject({
      uri: 'viking://user/default/memories/preferences/code-style.md',
      contextType: 'memory',
      category: 'preferences',
    });
    const profile = await find(tree.sources, 'TypeScript developer offline-first', { mode, limit: 1 });
    expect(profile.memories[0]).toMatchObject({
      uri: 'viking://user/default/memories/profile',
      category: 'profile',
    });
    const skill = await find(tree.sources, 'write an RFC', { mode });
    expect(skill.skills[0]?.uri).toBe('viking://agent/skills/write-rfc.md');
  });

  it('stays within targetUri', async () => {
    const result = await find(tree.sources, 'retry the request', {
      mode,
      targetUri: 'viking://resources/docs/errors/',
    });
    expect(result.total).toBeGreaterThan(0);
    for (const uri of urisOf(result)) expect(uri.startsWith('viking://resources/docs/errors/')).toBe(true);
    expect(urisOf(result)).not.toContain('viking://resources/docs/errors');
  });

  it('searches a single file when targetUri names one', async () => {
    const result = await find(tree.sources, 'bread', {
      mode,
      targetUri: 'viking://resources/recipes/bread.md',
    });
    expect(urisOf(result)).toEqual(['viking://resources/recipes/bread.md']);
  });

  it('filters by context type, kind and metadata', async () => {
    const skills = await find(tree.sources, 'write document search web', {
      mode,
      filter: { contextType: 'skill' },
    });
    expect(skills.total).toBeGreaterThan(0);
    expect(skills.resources).toEqual([]);
    expect(skills.memories).toEqual([]);
    const files = await find(tree.sources, 'networking retries timeouts', { mode, filter: { kind: 'file' } });
    expect(files.total).toBeGreaterThan(0);
    for (const item of [...files.resources, ...files.memories, ...files.skills])
      expect(item.isLeaf).toBe(true);
    const dirs = await find(tree.sources, 'networking retries timeouts', { mode, filter: { kind: 'dir' } });
    expect(dirs.resources[0]?.uri).toBe('viking://resources/docs/networking');
    const meta = await find(tree.sources, 'error codes', {
      mode,
      filter: { meta: { audience: 'operator' } },
    });
    expect(urisOf(meta)).toEqual(['viking://resources/docs/errors/appendix/table.md']);
    const either = await find(tree.sources, 'error codes retry', {
      mode,
      filter: { meta: { audience: ['operator', 'developer'] } },
    });
    expect(urisOf(either).sort()).toEqual([
      'viking://resources/docs/errors/appendix/table.md',
      'viking://resources/docs/errors/handling.md',
    ]);
  });

  it('keeps only scores above scoreThreshold', async () => {
    const all = await find(tree.sources, 'request timeout', { mode, limit: 20 });
    const scores = urisOf(all).length;
    expect(scores).toBeGreaterThan(2);
    const cut = all.resources[1]!.score;
    const some = await find(tree.sources, 'request timeout', { mode, limit: 20, scoreThreshold: cut });
    for (const item of some.resources) expect(item.score).toBeGreaterThan(cut);
    expect(some.total).toBeLessThan(all.total);
    const none = await find(tree.sources, 'request timeout', { mode, scoreThreshold: 1 });
    expect(none.total).toBe(0);
  });

  it('returns each URI once, scored by its best chunk', async () => {
    const result = await find(tree.sources, 'loading a snapshot after a restart', { mode, limit: 20 });
    const uris = urisOf(result);
    expect(new Set(uris).size).toBe(uris.length);
    expect(result.resources[0]?.uri).toBe('viking://resources/docs/storage/snapshots.md');
  });

  it('respects limit', async () => {
    const result = await find(tree.sources, 'the user', { mode, limit: 2 });
    expect(result.total).toBeLessThanOrEqual(2);
  });

  it('attaches up to maxRelations related URIs with their abstracts, each once', async () => {
    const result = await find(tree.sources, 'retry failed requests with backoff', { mode, limit: 1 });
    const relations = result.resources[0]!.relations;
    expect(relations.map((r) => r.uri).sort()).toEqual([
      'viking://agent/skills/write-rfc.md',
      'viking://resources/docs/errors/handling.md',
    ]);
    expect(relations.find((r) => r.uri.endsWith('handling.md'))).toMatchObject({
      abstract: expect.stringMatching(/^Handling errors/),
      // Linked both ways: listed once, with the reason of the first record in (from, to) order.
      reason: 'both ways',
    });
    const one = await find(tree.sources, 'retry failed requests with backoff', {
      mode,
      limit: 1,
      maxRelations: 1,
    });
    expect(one.resources[0]!.relations).toHaveLength(1);
    const none = await find(tree.sources, 'retry failed requests with backoff', {
      mode,
      limit: 1,
      maxRelations: 0,
    });
    expect(none.resources[0]!.relations).toEqual([]);
  });

  it('finds an identifier exactly, even where the embedding cannot see it', async () => {
    // The embedder drops identifiers here (as a real model would know nothing of them), and the
    // decoys are near-synonyms: only BM25 can find the code, and the blend must not bury it.
    const decoys = await buildTree([
      ...corpus,
      ...Array.from({ length: 8 }, (_, i) => ({
        uri: `viking://resources/faq/quota-${i}.md`,
        text: `What does the storage quota mean? The quota is exceeded when storage is full (${i}).`,
      })),
    ]);
    const blind = { ...decoys.sources, embedder: identifierBlindEmbedder(decoys.sources) };
    for (const lexicalWeight of [0.5, 0.8]) {
      const result = await find(blind, 'What does ERR_QUOTA_EXCEEDED mean?', {
        mode,
        hybrid: { lexicalWeight },
      });
      expect(result.resources[0]?.uri).toBe('viking://resources/docs/errors/appendix/table.md');
    }
    const walkOnly = await find(blind, 'ERR_STORE_CLOSED', { mode, walk: { seedLeaves: 0 } });
    expect(walkOnly.resources[0]?.uri).toBe('viking://resources/docs/errors/appendix/table.md');
  });

  it('uses one side only when asked', async () => {
    const before = tree.embeds.calls;
    const lexicalOnly = await find(tree.sources, 'proxy URL', { mode, hybrid: { vector: false } });
    expect(tree.embeds.calls).toBe(before);
    expect(lexicalOnly.resources[0]?.uri).toBe('viking://resources/docs/networking/proxies.md');
    expect(lexicalOnly.resources[0]?.matchReason).not.toMatch(/similarity/);
    const vectorOnly = await find(tree.sources, 'proxy URL', { mode, hybrid: { lexical: false } });
    expect(tree.embeds.calls).toBe(before + 1);
    expect(vectorOnly.resources[0]?.uri).toBe('viking://resources/docs/networking/proxies.md');
  });

  it.each(['zscore', 'rrf'] as const)('fuses with %s too', async (fusion) => {
    const result = await find(tree.sources, 'bake bread with yeast', { mode, hybrid: { fusion } });
    expect(result.resources[0]?.uri).toBe('viking://resources/recipes/bread.md');
    for (const item of result.resources) expect(item.score).toBeLessThanOrEqual(1);
  });

  it('blends in hotness', async () => {
    const now = Date.UTC(2025, 5, 1);
    const hot = await buildTree([
      { uri: 'viking://resources/a.md', text: 'release checklist for the mobile app' },
      {
        uri: 'viking://resources/b.md',
        text: 'release checklist for the mobile app',
        useCount: 9,
        lastUsedAt: now,
      },
    ]);
    const cold = await find(hot.sources, 'release checklist', { mode });
    expect(urisOf(cold)).toEqual(['viking://resources/a.md', 'viking://resources/b.md']);
    const warm = await find(hot.sources, 'release checklist', { mode, hotness: { weight: 0.3, now } });
    expect(urisOf(warm)).toEqual(['viking://resources/b.md', 'viking://resources/a.md']);
    const [b, a] = warm.resources;
    expect(b!.score - a!.score).toBeCloseTo(0.3 * 0.9, 5);
    expect(b!.matchReason).toMatch(/hotness 0.9 →/);
  });

  it('reads vector keys from the store when the sources have no map', async () => {
    const plain = await buildTree(corpus, { withKeyMap: false });
    const query = 'retry failed requests with backoff';
    expect(urisOf(await find(plain.sources, query, { mode }))).toEqual(
      urisOf(await find(tree.sources, query, { mode })),
    );
  });

  it('returns nothing for an empty store, an empty query or a missing target', async () => {
    const empty = await buildTree([]);
    expect(await find(empty.sources, 'anything', { mode })).toEqual({
      memories: [],
      resources: [],
      skills: [],
      total: 0,
    });
    expect((await find(tree.sources, '   ', { mode })).total).toBe(0);
    expect((await find(tree.sources, 'bread', { mode, targetUri: 'viking://resources/nowhere' })).total).toBe(
      0,
    );
    const traced = await find(empty.sources, 'anything', { mode, trace: true });
    expect(traced.trace?.stop.reason).toBe('empty');
  });
});

describe('find checks its input', () => {
  it('rejects a bad targetUri with INVALID_URI', async () => {
    await expect(find(tree.sources, 'x', { targetUri: 'viking://resources/../user' })).rejects.toMatchObject({
      code: 'INVALID_URI',
    });
    await expect(find(tree.sources, 'x', { targetUri: 'https://example.com' })).rejects.toBeInstanceOf(
      LongshipError,
    );
  });

  it.each([
    [{ limit: 0 }, /limit/],
    [{ limit: 1.5 }, /limit/],
    [{ alpha: 1.2 }, /alpha/],
    [{ hybrid: { lexicalWeight: -0.1 } }, /lexicalWeight/],
    [{ hybrid: { vector: false, lexical: false } }, /at least one/],
    [{ hybrid: { fusion: 'mean' as never } }, /fusion/],
    [{ hybrid: { normalise: 'each' as never } }, /normalise/],
    [{ mode: 'deep' as never }, /mode/],
    [{ scoreThreshold: Number.NaN }, /scoreThreshold/],
    [{ hotness: 2 }, /hotness/],
    [{ walk: { directoriesPerRound: 0 } }, /directoriesPerRound/],
    [{ filter: { contextType: 'note' as never } }, /contextType/],
  ])('rejects %j with INVALID_ARGUMENT', async (options, message) => {
    await expect(find(tree.sources, 'x', options)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message,
    });
  });

  it('fails with ABORTED when the signal fires', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(find(tree.sources, 'bread', { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});

/** The fixture's embedder, blind to identifier-like words (with `_` or digits). */
function identifierBlindEmbedder(sources: Tree['sources']): Tree['sources']['embedder'] {
  return {
    embed: (texts, options) =>
      sources.embedder.embed(
        texts.map((text) => text.replace(/\S*[_\d]\S*/g, ' ')),
        options,
      ),
  };
}

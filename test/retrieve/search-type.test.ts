// find()'s searchType. OpenViking's find takes search_type="keywords" for a keyword-only search;
// Longship's 'keywords' is BM25 alone and never embeds the query, 'vector' is similarity alone,
// 'hybrid' (the default) both; each is hybrid.vector or hybrid.lexical off, by name.
import { beforeAll, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { find } from '../../src/retrieve/retriever.js';
import { search } from '../../src/retrieve/search.js';
import type { FindMode } from '../../src/retrieve/settings.js';
import type { RetrievalSources } from '../../src/retrieve/sources.js';
import { corpus } from './corpus.js';
import { buildTree, type Tree } from './fixture.js';

let tree: Tree;
/** The same store and indexes, with an embedder that fails: a query it was asked to embed fails find(). */
let unembedded: RetrievalSources;
beforeAll(async () => {
  tree = await buildTree(corpus);
  unembedded = {
    ...tree.sources,
    embedder: {
      embed: () => {
        throw new Error('the query was embedded');
      },
    },
  };
});

const modes: FindMode[] = ['quick', 'thinking'];

describe.each(modes)('searchType in %s mode', (mode) => {
  it("'keywords' ranks by BM25 alone and never calls the embedder", async () => {
    const result = await find(unembedded, 'proxy URL', { mode, searchType: 'keywords', trace: true });
    expect(result.resources[0]?.uri).toBe('viking://resources/docs/networking/proxies.md');
    expect(result.resources[0]?.matchReason).not.toMatch(/similarity/);
    // The trace says which search ran.
    expect(result.trace?.settings).toMatchObject({
      searchType: 'keywords',
      useVector: false,
      useLexical: true,
    });
    await expect(find(unembedded, 'proxy URL', { mode })).rejects.toThrow('the query was embedded');
  });

  it('is what hybrid.vector and hybrid.lexical off were: the same hits', async () => {
    const byName = await find(tree.sources, 'proxy URL', { mode, searchType: 'keywords' });
    const bySwitch = await find(tree.sources, 'proxy URL', { mode, hybrid: { vector: false } });
    expect(byName).toEqual(bySwitch);
    const vector = await find(tree.sources, 'proxy URL', { mode, searchType: 'vector', trace: true });
    expect(vector).toEqual({
      ...(await find(tree.sources, 'proxy URL', { mode, hybrid: { lexical: false }, trace: true })),
      trace: expect.anything(),
    });
    expect(vector.trace?.settings).toMatchObject({
      searchType: 'vector',
      useVector: true,
      useLexical: false,
    });
  });
});

describe('searchType', () => {
  it("defaults to 'hybrid', and the trace of hybrid.vector off names it 'keywords'", async () => {
    const plain = await find(tree.sources, 'proxy URL', { trace: true });
    expect(plain.trace?.settings.searchType).toBe('hybrid');
    const off = await find(tree.sources, 'proxy URL', { hybrid: { vector: false }, trace: true });
    expect(off.trace?.settings.searchType).toBe('keywords');
  });

  it.each([
    [{ searchType: 'keywords', hybrid: { vector: true } }, /searchType 'keywords' contradicts/],
    [{ searchType: 'keywords', hybrid: { lexical: false } }, /at least one/],
    [{ searchType: 'hybrid', hybrid: { vector: false } }, /searchType 'hybrid' contradicts/],
    [{ searchType: 'vector', hybrid: { lexical: true } }, /searchType 'vector' contradicts/],
    [{ searchType: 'bm25' }, /searchType/],
  ] as const)('rejects %j with INVALID_ARGUMENT', async (options, message) => {
    const refused = await find(tree.sources, 'x', options as never).catch((error: LongshipError) => error);
    expect(refused).toBeInstanceOf(LongshipError);
    expect((refused as LongshipError).code).toBe('INVALID_ARGUMENT');
    expect((refused as LongshipError).message).toMatch(message);
  });

  it("is search()'s too: each typed query keeps it", async () => {
    const deps = {
      find: (q: string, o: Parameters<typeof find>[2]) => find(unembedded, q, o),
      node: (uri: string) => tree.store.node(uri),
    };
    const result = await search(deps, 'proxy URL', { searchType: 'keywords' });
    expect(result.resources[0]?.uri).toBe('viking://resources/docs/networking/proxies.md');
    await expect(search(deps, 'proxy URL')).rejects.toThrow('the query was embedded');
  });

  it('agrees with a hybrid side that says the same', async () => {
    const both = await find(unembedded, 'proxy URL', { searchType: 'keywords', hybrid: { vector: false } });
    expect(both.resources[0]?.uri).toBe('viking://resources/docs/networking/proxies.md');
  });
});

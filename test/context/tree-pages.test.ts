// lsPage() and treePage(): ls and tree a page at a time. OpenViking's ls and tree take a node limit
// and say `has_more` when nodes were left out; Longship adds a cursor to fetch the rest.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContextTree, TreeNode } from '../../src/context/tree.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import { embedderInfo, expectCode, openParts } from './fixtures.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const R = 'viking://resources';

async function fresh(): Promise<ContextTree> {
  return (await openParts(await openMemoryStore({ embedder: embedderInfo }), usearch)).tree;
}

/** A tree with names that sort differently as URIs and as paths (`a-b` before `a/…` as strings). */
async function filled(): Promise<ContextTree> {
  const tree = await fresh();
  for (const path of ['a/x.md', 'a/y/z.md', 'a-b/w.md', 'b.md', 'c/d/e/f.md', 'c/g.md']) {
    await tree.write(`${R}/${path}`, `Text of ${path}.`, { parents: true });
  }
  return tree;
}

/** Depth first, as tree() nests them. */
const flat = (nodes: readonly TreeNode[]): string[] =>
  nodes.flatMap((n) => [n.uri, ...flat(n.children ?? [])]);

async function allPages(
  next: (cursor: string | undefined) => Promise<{ nodes: TreeNode[]; hasMore: boolean; cursor?: string }>,
): Promise<TreeNode[][]> {
  const pages: TreeNode[][] = [];
  let cursor: string | undefined;
  do {
    const page = await next(cursor);
    expect(page.cursor !== undefined).toBe(page.hasMore);
    pages.push(page.nodes);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return pages;
}

describe('lsPage()', () => {
  it('pages through what ls() gives, with hasMore as OpenViking says has_more', async () => {
    const tree = await filled();
    const first = await tree.lsPage(R, { limit: 2 });
    expect(first.nodes.map((n) => n.name)).toEqual(['a', 'a-b']);
    expect(first.hasMore).toBe(true);
    const second = await tree.lsPage(R, { limit: 2, cursor: first.cursor! });
    expect(second.nodes.map((n) => n.name)).toEqual(['b.md', 'c']);
    expect(second).toMatchObject({ hasMore: false });
    expect(second.cursor).toBeUndefined();
    // Without a limit: OpenViking's default node_limit, 1,000; and a plain ls() is unchanged.
    expect(await tree.lsPage(R)).toEqual({ nodes: await tree.ls(R), hasMore: false });
    expect((await tree.ls(R)).map((n) => n.name)).toEqual(['a', 'a-b', 'b.md', 'c']);
  });

  it('pages viking:// in the order ls() lists the top directories', async () => {
    const tree = await fresh();
    const names: string[] = [];
    for (const page of await allPages((cursor) => tree.lsPage('viking://', { limit: 1, cursor }))) {
      names.push(...page.map((n) => n.name));
    }
    expect(names).toEqual((await tree.ls('viking://')).map((n) => n.name));
  });

  it('neither repeats nor skips a node when one is written or removed between pages', async () => {
    const tree = await filled();
    const first = await tree.lsPage(R, { limit: 2 });
    await tree.rm(`${R}/a-b`, { recursive: true });
    await tree.write(`${R}/0.md`, 'Before every other name.');
    const second = await tree.lsPage(R, { limit: 10, cursor: first.cursor! });
    expect(second.nodes.map((n) => n.name)).toEqual(['b.md', 'c']);
  });

  it('refuses a cursor that is not one, or is another listing’s, with INVALID_ARGUMENT', async () => {
    const tree = await filled();
    const { cursor } = await tree.lsPage(R, { limit: 1 });
    await expectCode(tree.lsPage(R, { cursor: 'not a cursor' }), 'INVALID_ARGUMENT');
    await expectCode(tree.lsPage(R, { cursor: '' }), 'INVALID_ARGUMENT');
    await expectCode(tree.lsPage(R, { cursor: btoa('{"of":"ls"}') }), 'INVALID_ARGUMENT');
    await expectCode(tree.lsPage(`${R}/a`, { cursor: cursor! }), 'INVALID_ARGUMENT');
    await expectCode(tree.treePage(R, { cursor: cursor! }), 'INVALID_ARGUMENT');
    await expectCode(tree.lsPage(R, { limit: 0 }), 'INVALID_ARGUMENT');
    await expectCode(tree.lsPage(R, { limit: 1.5 }), 'INVALID_ARGUMENT');
    // @ts-expect-error: an unknown option
    await expectCode(tree.lsPage(R, { offset: 2 }), 'INVALID_ARGUMENT');
    await expectCode(tree.lsPage(`${R}/b.md`), 'NOT_A_DIRECTORY');
  });
});

describe('treePage()', () => {
  it('pages, depth first, through exactly the nodes of tree(), for any limit and depth', async () => {
    const tree = await filled();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 1, max: 5 }),
        async (limit, depth) => {
          const whole = flat(await tree.tree(R, { depth }));
          const pages = await allPages((cursor) => tree.treePage(R, { depth, limit, cursor }));
          expect(pages.flatMap(flat)).toEqual(whole);
          expect(pages.slice(0, -1).every((page) => flat(page).length === limit)).toBe(true);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('nests a page’s nodes under their parents on it; the rest of a directory opens the next page', async () => {
    const tree = await filled();
    const first = await tree.treePage(R, { limit: 3 });
    expect(first.nodes.map((n) => n.name)).toEqual(['a']);
    expect(first.nodes[0]!.children!.map((n) => n.name)).toEqual(['x.md', 'y']);
    const second = await tree.treePage(R, { limit: 2, cursor: first.cursor! });
    expect(second.nodes.map((n) => n.uri)).toEqual([`${R}/a/y/z.md`, `${R}/a-b`]);
    expect(second.nodes[1]!.children).toEqual([]);
  });

  it('refuses a cursor of another depth, and a bad depth, with INVALID_ARGUMENT', async () => {
    const tree = await filled();
    const { cursor } = await tree.treePage(R, { limit: 1, depth: 2 });
    await expectCode(tree.treePage(R, { depth: 3, cursor: cursor! }), 'INVALID_ARGUMENT');
    await expectCode(tree.treePage(R, { depth: 0 }), 'INVALID_ARGUMENT');
    expect((await tree.treePage(R, { depth: 2, cursor: cursor! })).nodes.length).toBeGreaterThan(0);
  });
});

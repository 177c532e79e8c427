// The ls and tree tools (src/tools/browse.ts) a page at a time: OpenViking's ls and tree cut a
// listing at a node limit and say `has_more`; the tools say `hasMore` and give the cursor of the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { ls, tree } from '../../src/tools/browse.js';
import { parseToolInput } from '../../src/tools/tool-input.js';
import { hashEmbedder } from '../context/fixtures.js';

const R = 'viking://resources/notes';
let longship: Longship;

beforeAll(async () => {
  longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
  for (const name of ['a.md', 'b.md', 'c.md', 'd/e.md']) {
    await longship.write(`${R}/${name}`, `Note ${name}.`, { parents: true });
  }
});
afterAll(() => longship.close());

function input<T extends typeof ls | typeof tree>(tool: T, args: Record<string, unknown>) {
  const parsed = parseToolInput(tool, args);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.input as never;
}

describe('ls', () => {
  it('gives every node and hasMore false when all fit', async () => {
    const listed = await ls.run(longship, input(ls, { uri: R }), {});
    expect(listed).toEqual({ uri: R, nodes: expect.any(Array), hasMore: false });
    expect(listed.nodes.map((n) => n.name)).toEqual(['a.md', 'b.md', 'c.md', 'd']);
  });

  it('pages by limit and cursor, and by the surface’s maxEntries', async () => {
    const first = await ls.run(longship, input(ls, { uri: R, limit: 3 }), {});
    expect(first.nodes.map((n) => n.name)).toEqual(['a.md', 'b.md', 'c.md']);
    expect(first.hasMore).toBe(true);
    const rest = await ls.run(longship, input(ls, { uri: R, cursor: first.cursor }), {});
    expect(rest).toMatchObject({ nodes: [{ name: 'd' }], hasMore: false });
    // The surface's cap wins over a larger limit.
    const capped = await ls.run(longship, input(ls, { uri: R, limit: 10 }), { maxEntries: 2 });
    expect(capped.nodes.map((n) => n.name)).toEqual(['a.md', 'b.md']);
    expect(capped.hasMore).toBe(true);
  });

  it('refuses a cursor that is not one with INVALID_ARGUMENT', async () => {
    const refused = await ls
      .run(longship, input(ls, { uri: R, cursor: 'nope' }), {})
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LongshipError);
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(parseToolInput(ls, { uri: R, limit: 1001 }).ok).toBe(false);
    expect(parseToolInput(ls, { uri: R, cursor: '' }).ok).toBe(false);
  });
});

describe('tree', () => {
  it('pages the nested nodes, depth first', async () => {
    const first = await tree.run(longship, input(tree, { uri: R, limit: 4 }), {});
    expect(first.nodes.map((n) => n.name)).toEqual(['a.md', 'b.md', 'c.md', 'd']);
    expect(first.nodes[3]!.children).toEqual([]);
    expect(first.hasMore).toBe(true);
    const rest = await tree.run(longship, input(tree, { uri: R, cursor: first.cursor }), {});
    expect(rest).toMatchObject({ depth: 3, nodes: [{ uri: `${R}/d/e.md` }], hasMore: false });
  });
});

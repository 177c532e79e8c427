// The library's results are camelCase; the agent tools (MCP, the AI SDK) and the CLI's `find --json`
// keep OpenViking's snake_case names, through one adapter (docs/guide/mcp.md, "Tools").
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { find, search } from '../../src/tools/find.js';
import { checkToolInput } from '../../src/tools/tool-input.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

let longship: Longship;
beforeEach(async () => {
  const embedder = bagOfWordsEmbedder();
  const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
  longship = await openLongship({ store, embedder });
  await longship.write('viking://resources/notes/retries.md', 'Retry with exponential backoff.', {
    parents: true,
  });
});
afterEach(() => longship.close());

const matchKeys = [
  'abstract',
  'category',
  'context_type',
  'is_leaf',
  'match_reason',
  'relations',
  'score',
  'uri',
];

it('gives find() its hits in camelCase', async () => {
  const [hit] = (await longship.find('retry backoff')).resources;
  expect(hit).toMatchObject({ contextType: 'resource', isLeaf: true });
  expect(hit!.matchReason).toContain('bm25');
  expect(Object.keys(hit!)).not.toContain('context_type');
});

it("gives the find tool's hits OpenViking's names, with the same values", async () => {
  const [own] = (await longship.find('retry backoff', { limit: 10 })).resources;
  const output = await find.run(longship, checkToolInput(find, { query: 'retry backoff' }), {});
  const [hit] = output.resources;
  expect(Object.keys(hit!).sort()).toEqual(matchKeys);
  expect(hit).toEqual({
    uri: own!.uri,
    context_type: own!.contextType,
    is_leaf: own!.isLeaf,
    abstract: own!.abstract,
    category: own!.category,
    score: own!.score,
    match_reason: own!.matchReason,
    relations: own!.relations,
  });
});

it("gives the search tool's query plan OpenViking's names", async () => {
  const result = await longship.search('retry backoff');
  expect(result.queryPlan.map((q) => q.contextType)).toContain('resource');
  const output = await search.run(longship, checkToolInput(search, { query: 'retry backoff' }), {});
  expect(output.query_plan).toEqual(
    result.queryPlan.map(({ query, contextType, intent, priority }) => ({
      query,
      context_type: contextType,
      intent,
      priority,
    })),
  );
  expect(Object.keys(output.resources[0]!).sort()).toEqual(matchKeys);
});

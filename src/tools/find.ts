// find and search: the memories, resources and skills that best match a query, as find() and
// search() return them (docs/guide/retrieval.md), without the trace (a debugging aid, too long for a prompt).

import * as v from 'valibot';
import type { SearchResult } from '../retrieve/search.js';
import { count, query, sessionId, targetUri } from './fields.js';
import {
  type OpenVikingHits,
  type OpenVikingTypedQuery,
  toOpenVikingHits,
  toOpenVikingQuery,
} from './openviking-shape.js';
import { defineTool } from './tool.js';

export const defaultFindLimit = 10;
export const maxFindLimit = 100;

const limit = v.optional(
  count(1, maxFindLimit, `At most this many hits (default ${defaultFindLimit})`),
  defaultFindLimit,
);

/** The hits of a find() or search() result, in OpenViking's shape. */
export type FindHits = OpenVikingHits;

export const find = defineTool({
  name: 'find',
  title: 'Find context',
  description:
    'Finds the memories, resources and skills that best match a query (words and meaning together). ' +
    'Each hit has its viking:// URI to cite, a one-line abstract and a score in [0, 1]; read a hit for more.',
  input: v.strictObject({
    query: query('What to look for, in plain words'),
    targetUri,
    limit,
    mode: v.optional(
      v.pipe(
        v.picklist(['quick', 'thinking'], 'must be quick or thinking'),
        v.description('quick (default): every node at once; thinking: a walk down the tree'),
      ),
    ),
    searchType: v.optional(
      v.pipe(
        v.picklist(['hybrid', 'keywords', 'vector'], 'must be hybrid, keywords or vector'),
        v.description(
          'hybrid (default): words and meaning; keywords: exact words only (names, codes); vector: meaning only',
        ),
      ),
    ),
  }),
  readOnly: true,
  run: async (longship, input, { signal }): Promise<FindHits> =>
    toOpenVikingHits(
      await longship.find(input.query, {
        limit: input.limit,
        ...(input.targetUri === undefined ? {} : { targetUri: input.targetUri }),
        ...(input.mode === undefined ? {} : { mode: input.mode }),
        ...(input.searchType === undefined ? {} : { searchType: input.searchType }),
        ...(signal ? { signal } : {}),
      }),
    ),
});

export type SearchHits = OpenVikingHits & { query_plan: OpenVikingTypedQuery[] } & Pick<
    SearchResult,
    'intent'
  >;

export const search = defineTool({
  name: 'search',
  title: 'Search with a session',
  description:
    "Like find, but shaped by a session's recent messages (and, where Longship has an LLM, its intent " +
    'analysis); says which typed queries it ran.',
  input: v.strictObject({
    query: query('What to look for, in plain words'),
    targetUri,
    // search()'s own default: each typed query is walked, and reranked where there is a reranker.
    limit: v.optional(count(1, maxFindLimit, 'At most this many hits (default 3)')),
    sessionId: v.optional(sessionId("A session whose recent messages shape the query's intent")),
  }),
  readOnly: true,
  run: async (longship, input, context): Promise<SearchHits> => {
    const id = input.sessionId ?? context.session;
    const session = id === undefined ? undefined : await longship.session(id);
    const result = await longship.search(input.query, {
      ...(input.limit === undefined ? {} : { limit: input.limit }),
      ...(input.targetUri === undefined ? {} : { targetUri: input.targetUri }),
      ...(session ? { session } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
    });
    return {
      ...toOpenVikingHits(result),
      query_plan: result.queryPlan.map(toOpenVikingQuery),
      intent: result.intent,
    };
  },
});

/**
 * search() (docs/guide/retrieval.md, "search()"): intent analysis → typed queries → one hierarchical
 * walk per query, run concurrently → merge (dedup by URI, priority as weight) → optional rerank →
 * the top `limit`. Without an LLM, and whenever it fails, the query itself is searched in every
 * context type in one walk: exactly find()'s work, so search() costs what find() does.
 */
import * as v from 'valibot';
import { LongshipError } from '../errors.js';
import type { LLM, Reranker } from '../llm/llm.js';
import { checkOptions } from '../options.js';
import type { ContextType, NodeRecord } from '../store/store.js';
import {
  type ConversationContext,
  type IntentOptions,
  intentOptionsSchema,
  planQueries,
  priorityWeight,
  type QueryPlan,
  type TypedQuery,
} from './intent.js';
import {
  type RerankOptions,
  type RerankReport,
  rerankDefaults,
  rerankItems,
  rerankOptionsSchema,
} from './rerank.js';
import { listOf, type MatchedContext } from './results.js';
import type { FindResult } from './retriever.js';
import { filterTypes } from './scope.js';
import { type FindOptions, findOptionsEntries } from './settings.js';
import { round4 } from './trace.js';

/** What search() runs on: find(), node reads (for directories' L1), and the optional LLM parts. */
export interface SearchDeps {
  find(query: string, options: FindOptions): Promise<FindResult>;
  node(uri: string): Promise<NodeRecord | undefined>;
  llm?: LLM;
  reranker?: Reranker;
}

/**
 * Options of `search()`: those of find() (applied to every typed query), plus the session, the
 * intent analysis and the rerank. `limit` defaults to 3.
 */
export interface ContextSearchOptions extends FindOptions {
  /** The conversation the query comes from: its summary and last 5 messages inform the plan. */
  session?: { context(): ConversationContext | Promise<ConversationContext> };
  /** `false`: skip intent analysis even with an LLM (the fallback plan). */
  intent?: false | IntentOptions;
  /** `false`: no rerank even with a reranker. Rerank runs in THINKING mode only. */
  rerank?: false | RerankOptions;
}

/** @internal */
export const searchOptionsSchema = v.strictObject({
  ...findOptionsEntries,
  session: v.optional(
    v.custom<NonNullable<ContextSearchOptions['session']>>(
      (x) =>
        typeof x === 'object' && x !== null && typeof (x as { context?: unknown }).context === 'function',
      'must be a session (an object with context())',
    ),
  ),
  intent: v.optional(v.union([v.literal(false), intentOptionsSchema])),
  rerank: v.optional(v.union([v.literal(false), rerankOptionsSchema])),
});

/** One typed query and what its walk found. */
export interface QueryResult {
  query: TypedQuery;
  result: FindResult;
}

export interface SearchResult extends FindResult {
  /** The typed queries run (OpenViking's `query_plan`). */
  queryPlan: TypedQuery[];
  /** What each typed query found, before the merge. */
  queryResults: QueryResult[];
  /** Where the plan came from and, for the fallback, why. */
  intent: Omit<QueryPlan, 'queries'>;
  /** Present when a reranker was asked. */
  rerank?: RerankReport;
}

/**
 * Context-aware retrieval. Rejects only for bad input (`INVALID_ARGUMENT`, `INVALID_URI`), a failure
 * of the store, or the caller's abort (`ABORTED`); the LLM and the reranker can only make it fall
 * back, which the result reports in `intent` and `rerank`.
 *
 * @example
 * const result = await search(deps, 'add a retry to the upload', { session, limit: 5 });
 * result.intent.source; // 'llm' or 'fallback'
 * for (const hit of [...result.skills, ...result.resources]) console.log(hit.uri, hit.score);
 */
export async function search(
  deps: SearchDeps,
  query: string,
  options: ContextSearchOptions = {},
): Promise<SearchResult> {
  if (typeof query !== 'string') {
    throw new LongshipError('INVALID_ARGUMENT', `search() needs a query string, not ${typeof query}`);
  }
  checkOptions(searchOptionsSchema, options, 'search()');
  const { session, intent, rerank, ...findOptions } = options;
  const limit = options.limit ?? 3;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new LongshipError('INVALID_ARGUMENT', `limit must be a whole number ≥ 1, not ${limit}`);
  }
  const { signal } = options;
  const allowed = filterTypes(options.filter);
  const reranking = deps.reranker && rerank !== false && options.mode !== 'quick' ? deps.reranker : undefined;
  const rerankOptions = rerank || {};
  const pool = reranking ? Math.max(limit, rerankOptions.candidates ?? rerankDefaults.candidates) : limit;

  // Read only when an LLM will plan from it: the fallback never looks at the session.
  const planner = intent === false ? undefined : deps.llm;
  const context = session && planner ? await session.context() : undefined;
  const plan =
    query.trim() === ''
      ? { queries: [], source: 'fallback' as const, fallbackReason: 'empty query', elapsedMs: 0 }
      : await planQueries(planner, query, context, allowed, {
          ...(intent || {}),
          ...(signal ? { signal } : {}),
        });
  if (intent === false && plan.source === 'fallback' && deps.llm)
    plan.fallbackReason = 'intent analysis is off';

  // QUICK without a reranker, the walk (THINKING) when one will rescore its results
  // (docs/guide/retrieval.md, "Why QUICK is the default").
  const mode = options.mode ?? (reranking ? 'thinking' : undefined);
  const perQuery = { ...findOptions, limit: pool, ...(mode ? { mode } : {}) };
  let queryResults: QueryResult[];
  if (plan.source === 'fallback' && plan.queries.length > 0) {
    // One walk over every allowed root: the same work as find(), split by type afterwards.
    const result = await deps.find(query, perQuery);
    queryResults = plan.queries.map((typed) => ({ query: typed, result: only(result, typed.contextType) }));
  } else {
    queryResults = await Promise.all(
      plan.queries.map(async (typed) => ({
        query: typed,
        result: await deps.find(typed.query, {
          ...perQuery,
          filter: { ...options.filter, contextType: typed.contextType },
        }),
      })),
    );
  }

  let merged = merge(queryResults, plan.source === 'llm');
  let report: RerankReport | undefined;
  if (reranking && merged.length > 0) {
    const head = merged.slice(0, pool);
    const texts = await Promise.all(head.map((item) => rerankText(deps, item)));
    const {
      scores,
      relevance,
      report: made,
    } = await rerankItems(
      reranking,
      query,
      head.map((item, i) => ({ text: texts[i]!, score: item.score })),
      { ...rerankOptions, ...(signal ? { signal } : {}) },
    );
    report = made;
    if (scores && relevance) {
      const rescored = head.map((item, i) => ({
        ...item,
        score: scores[i]!,
        matchReason: `${item.matchReason}; rerank relevance ${round4(relevance[i]!)} → ${round4(scores[i]!)}`,
      }));
      // Stable on ties (no URI tie-break): equal new scores keep retrieval's order, so a document the
      // reranker gives nothing still cannot pass one that retrieval put above it.
      rescored.sort((a, b) => b.score - a.score);
      merged = [...rescored, ...merged.slice(pool)];
    }
  }

  const top = merged.slice(0, limit);
  const result: SearchResult = {
    memories: [],
    resources: [],
    skills: [],
    total: top.length,
    queryPlan: plan.queries,
    queryResults: queryResults,
    intent: withoutQueries(plan),
    ...(report ? { rerank: report } : {}),
  };
  for (const item of top) result[listOf[item.contextType]].push(item);
  return result;
}

/** Dedup by URI (best weighted score wins) and sort. Fallback queries all weigh the same. */
function merge(results: readonly QueryResult[], weighted: boolean): MatchedContext[] {
  const best = new Map<string, MatchedContext>();
  for (const { query, result } of results) {
    const weight = weighted ? priorityWeight(query.priority) : 1;
    for (const item of [...result.memories, ...result.resources, ...result.skills]) {
      const score = item.score * weight;
      const known = best.get(item.uri);
      if (known && known.score >= score) continue;
      best.set(item.uri, {
        ...item,
        score,
        matchReason: weighted
          ? `${item.matchReason}; query "${query.query}" (priority ${query.priority}, ×${round4(weight)})`
          : item.matchReason,
      });
    }
  }
  return sortByScore([...best.values()]);
}

function sortByScore(items: MatchedContext[]): MatchedContext[] {
  return items.sort((a, b) => b.score - a.score || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

/** L0 for a file; L1 (else L0) for a directory, which its L0 alone describes too thinly. */
async function rerankText(deps: SearchDeps, item: MatchedContext): Promise<string> {
  if (item.isLeaf) return item.abstract;
  const node = await deps.node(item.uri);
  return (node?.l1 || node?.l0 || item.abstract).slice(0, 2000);
}

function only(result: FindResult, type: ContextType): FindResult {
  const list = result[listOf[type]];
  return {
    memories: type === 'memory' ? list : [],
    resources: type === 'resource' ? list : [],
    skills: type === 'skill' ? list : [],
    total: list.length,
    ...(result.trace ? { trace: result.trace } : {}),
  };
}

function withoutQueries(plan: QueryPlan): Omit<QueryPlan, 'queries'> {
  const { queries: _queries, ...rest } = plan;
  return rest;
}

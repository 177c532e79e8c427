// OpenViking's result shape, where Longship speaks OpenViking's formats: the agent tools' output
// (MCP, the AI SDK) and the CLI's `find --json`, which agents and scripts written for OpenViking read
// (docs/guide/mcp.md, "Tools"). The library's own results are camelCase; this is the one place that
// gives them back OpenViking's snake_case names.

import type { TypedQuery } from '../retrieve/intent.js';
import type { MatchedContext, RelatedContext } from '../retrieve/results.js';
import type { FindResult } from '../retrieve/retriever.js';

/** A {@link MatchedContext} with OpenViking's field names. */
export interface OpenVikingMatch {
  uri: string;
  context_type: MatchedContext['contextType'];
  is_leaf: boolean;
  abstract: string;
  category: string;
  score: number;
  match_reason: string;
  relations: RelatedContext[];
  /** Longship's own: the pages of a part of a PDF, `{ first, last }`. */
  pages?: MatchedContext['pages'];
}

/** A {@link TypedQuery} with OpenViking's field names. */
export interface OpenVikingTypedQuery {
  query: string;
  context_type: TypedQuery['contextType'];
  intent: string;
  priority: number;
}

/** The hits of a find() or search() result, with OpenViking's field names. */
export interface OpenVikingHits {
  memories: OpenVikingMatch[];
  resources: OpenVikingMatch[];
  skills: OpenVikingMatch[];
  total: number;
}

/** One result item as OpenViking names its fields. */
export function toOpenVikingMatch(item: MatchedContext): OpenVikingMatch {
  return {
    uri: item.uri,
    context_type: item.contextType,
    is_leaf: item.isLeaf,
    abstract: item.abstract,
    category: item.category,
    score: item.score,
    match_reason: item.matchReason,
    relations: item.relations,
    ...(item.pages ? { pages: item.pages } : {}),
  };
}

/** One typed query as OpenViking names its fields. */
export function toOpenVikingQuery({
  query,
  contextType,
  intent,
  priority,
}: TypedQuery): OpenVikingTypedQuery {
  return { query, context_type: contextType, intent, priority };
}

/**
 * The hits of a find() or search() result, without the trace, as OpenViking names their fields.
 *
 * @example
 * const hits = toOpenVikingHits(await longship.find('retry policy')); // hits.resources[0].is_leaf
 */
export function toOpenVikingHits({ memories, resources, skills, total }: FindResult): OpenVikingHits {
  return {
    memories: memories.map(toOpenVikingMatch),
    resources: resources.map(toOpenVikingMatch),
    skills: skills.map(toOpenVikingMatch),
    total,
  };
}

// A shard of a corpus served from one Longship (docs/guide/sharding.md). It answers the two rounds
// of shard-protocol.ts from the indexes and the scope its own find() reads, scoring with the
// corpus's statistics in place of its own, so that every score it sends is the one a single store
// of the whole corpus would compute for that node.
import * as v from 'valibot';
import { parseUri } from '../context/uri.js';
import { type Longship, retrievalSourcesOf } from '../engine.js';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import { ownTerms, type PlaceIndex, placeIndex, placeStatistics, placeSums } from '../retrieve/place.js';
import { scorerSettings } from '../retrieve/retriever.js';
import { type FindFilter, filterPredicate, type Scope, ScopeCache } from '../retrieve/scope.js';
import { LexicalMatches, scopeStatistics } from '../retrieve/score/lexical-matches.js';
import { CHUNK_OVERSAMPLE } from '../retrieve/score/query-scorer.js';
import { VectorMatches } from '../retrieve/score/vector-matches.js';
import { resolveSettings, type Settings } from '../retrieve/settings.js';
import type { RetrievalSources } from '../retrieve/sources.js';
import { eligibleNodes } from '../retrieve/walk/quick.js';
import type { NodeKind, NodeRecord } from '../store/store.js';
import type {
  CandidatesQuery,
  ChunkHit,
  CorpusShard,
  ShardCandidates,
  ShardNode,
  ShardQuery,
  ShardStatistics,
} from './shard-protocol.js';

const queryEntries = {
  query: v.string(),
  targetUri: v.string(),
  options: v.record(v.string(), v.unknown()),
};
const statisticsSchema = v.strictObject({ ...queryEntries, embed: v.boolean() });
const statisticsShape = v.strictObject({
  documents: v.number(),
  length: v.number(),
  terms: v.record(v.string(), v.number()),
});
const candidatesSchema = v.strictObject({
  ...queryEntries,
  vector: v.optional(v.instance(Float32Array)),
  lexical: statisticsShape,
  place: v.strictObject({ directories: v.number(), holders: v.record(v.string(), v.number()) }),
});

/**
 * Serves `longship` as a shard of a corpus: what `openShardedCorpus()` asks of each shard. In a
 * Durable Object, return its methods from the object's own (RPC), as docs/guide/sharding.md shows.
 *
 * @example
 * const shard = corpusShard(await openLongship({ store }));
 * const corpus = openShardedCorpus({ shards: [shard, other] });
 */
export function corpusShard(longship: Longship): CorpusShard {
  const sources = retrievalSourcesOf(longship);
  const scopes = new ScopeCache();
  const prepare = async (request: ShardQuery) => {
    const settings = resolveSettings(request.options);
    const scope = await scopes.load(sources, [parseUri(request.targetUri)]);
    return { settings, scope };
  };
  return {
    async statistics(request) {
      checkOptions(statisticsSchema, request, 'statistics()');
      const { scope } = await prepare(request);
      return statisticsOf(sources, scope, request);
    },
    async candidates(request) {
      checkOptions(candidatesSchema, request, 'candidates()');
      const { settings, scope } = await prepare(request);
      return candidatesOf(sources, scope, settings, request);
    },
    node: (uri) => sources.store.node(uri),
    relations: (uri) => sources.store.relations(uri),
  };
}

async function statisticsOf(
  sources: RetrievalSources,
  scope: Scope,
  request: ShardQuery & { embed: boolean },
): Promise<ShardStatistics> {
  const { query } = request;
  const lexical = scopeStatistics(sources.lexical, scope, query);
  if (!lexical)
    throw new LongshipError('INVALID_ARGUMENT', 'a shard needs a lexical index with statistics()');
  const index = placeIndex(scope);
  const place = placeStatistics(index, query);
  const holders = { ...place.holders };
  const roots: Record<string, string[]> = {};
  for (const root of scope.roots) {
    if (!index.directories.has(root.uri)) continue;
    const own = ownTerms(root);
    const held = Object.keys(holders).filter((term) => own.has(term));
    roots[root.uri] = held;
    for (const term of held) if (--holders[term]! === 0) delete holders[term];
  }
  const directories = place.directories - Object.keys(roots).length;
  let vector: Float32Array | undefined;
  if (request.embed) [vector] = await sources.embedder.embed([query]);
  return { lexical, place: { directories, holders }, roots, ...(vector ? { vector } : {}) };
}

function candidatesOf(
  sources: RetrievalSources,
  scope: Scope,
  settings: Settings,
  request: CandidatesQuery,
): ShardCandidates {
  const { query } = request;
  const scoring = scorerSettings(settings, query);
  const lexical = new LexicalMatches(sources, scope, query, scoring.useLexical, request.lexical);
  const vectors = new VectorMatches(
    sources,
    scope,
    scoring.useVector ? request.vector : undefined,
    scoring.exactVectors,
  );
  const uriOf = (key: number) => scope.byKey.get(key)!.uri;
  const chunkHits = (hits: readonly { nodeKey: number; similarity: number }[]): ChunkHit[] =>
    hits.map((hit) => ({ uri: uriOf(hit.nodeKey), similarity: hit.similarity }));

  // The fusion's references, as query-scorer.ts takes them from the whole scope.
  const c = scoring.candidates;
  const groups: NodeKind[][] = scoring.byKind ? [['dir'], ['file']] : [['dir', 'file']];
  const references = groups.map((kinds) => {
    const nodes = scoring.byKind ? scope.nodes.filter((node) => kinds.includes(node.kind)) : scope.nodes;
    const admits = (key: number) => {
      const node = scope.byKey.get(key);
      return node !== undefined && kinds.includes(node.kind);
    };
    return {
      kinds,
      lexical: lexical.best(c, scoring.byKind ? admits : undefined).map((key) => lexical.score(key)),
      chunks: chunkHits(vectors.chunks(nodes, admits, c * CHUNK_OVERSAMPLE)),
    };
  });

  // The pool, as QUICK takes it from the nodes the filter admits.
  const count = Math.max(c, settings.limit);
  const filter = request.options.filter as FindFilter | undefined;
  const matches = filterPredicate(filter);
  const eligible = eligibleNodes(scope, filter, matches);
  const admits = (key: number) => {
    const node = scope.byKey.get(key);
    return node !== undefined && matches(node);
  };
  const lexicalKeys = lexical.best(count, admits);
  const chunks = vectors.chunks(eligible, admits, count * CHUNK_OVERSAMPLE);
  const listed = [...new Set([...lexicalKeys, ...chunks.map((hit) => hit.nodeKey)])].map(
    (key) => scope.byKey.get(key)!,
  );
  const keys = new Set(listed.map((node) => node.key));
  const similarity = vectors.search(listed, (key) => keys.has(key), c * CHUNK_OVERSAMPLE, scoring.exactBelow);

  const index = placeIndex(scope);
  const sums = placeSums(index, query, request.place);
  let placeBest = 0;
  for (const sum of sums.values()) placeBest = Math.max(placeBest, sum);
  const nodes: ShardNode[] = listed.map((node) => ({
    node: withoutText(node),
    raw: { lexical: lexical.score(node.key), vector: similarity.get(node.key) },
    places: placesAbove(node, index, sums),
  }));
  return {
    references,
    pool: {
      lexical: lexicalKeys.map((key) => ({ uri: uriOf(key), score: lexical.score(key) })),
      chunks: chunkHits(chunks),
    },
    nodes,
    placeBest,
  };
}

/** The directories in scope from the node's parent up, with their place sums. */
function placesAbove(node: NodeRecord, index: PlaceIndex, sums: Map<string, number>): ShardNode['places'] {
  const places: ShardNode['places'] = [];
  for (let uri = node.parent; uri !== null; ) {
    const directory = index.directories.get(uri);
    if (!directory) break;
    places.push({ uri, parent: directory.parent, sum: sums.get(uri) ?? 0 });
    uri = directory.parent;
  }
  return places;
}

function withoutText(node: NodeRecord): NodeRecord {
  const { l1: _l1, l2: _l2, ...rest } = node;
  return rest;
}

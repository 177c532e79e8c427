// What the shards of a corpus and the corpus that asks them say to each other (docs/guide/sharding.md):
// plain data that structured clone carries (a Durable Object's RPC, a worker's messages), in two
// rounds a query: the statistics, then the candidates scored with the whole corpus's statistics.
import type { CorpusStatistics } from '../lexical/lexical-index.js';
import type { PlaceStatistics } from '../retrieve/place.js';
import type { RawScores } from '../retrieve/score/fusion.js';
import type { FindOptions } from '../retrieve/settings.js';
import type { NodeKind, NodeRecord, RelationRecord } from '../store/store.js';

/** find()'s options as a shard takes them: those that decide scores. */
export type ShardFindOptions = Omit<FindOptions, 'signal' | 'trace' | 'mode' | 'targetUri'>;

/** A query as every shard is asked it. */
export interface ShardQuery {
  query: string;
  /** The scope: the corpus's root, or a directory or file below it. */
  targetUri: string;
  options: ShardFindOptions;
}

/** A shard's part of the corpus's statistics for one query. */
export interface ShardStatistics {
  /** BM25's statistics of the shard's nodes in scope. */
  lexical: CorpusStatistics;
  /** The place statistics of its directories in scope, the roots left out: */
  place: PlaceStatistics;
  /** … every shard has the roots, so each root's query terms come apart, for the corpus to count once. */
  roots: Record<string, string[]>;
  /** The query's vector, when asked for: the corpus embeds through its first shard unless given an embedder. */
  vector?: Float32Array;
}

/** The second round: the query with the corpus's statistics, summed over the shards that answered. */
export interface CandidatesQuery extends ShardQuery {
  vector: Float32Array | undefined;
  lexical: CorpusStatistics;
  place: PlaceStatistics;
}

/** A chunk's similarity to the query, by the node that owns it. */
export interface ChunkHit {
  uri: string;
  similarity: number;
}

/** A shard's candidates: enough for the corpus to rank as one store would. */
export interface ShardCandidates {
  /**
   * Per group of node kinds (one group of both unless normalised by kind), the fusion's references:
   * the best BM25 scores and the best chunks in scope.
   */
  references: { kinds: NodeKind[]; lexical: number[]; chunks: ChunkHit[] }[];
  /** Among the nodes the filter admits: the best BM25 matches and the best chunks. */
  pool: { lexical: { uri: string; score: number }[]; chunks: ChunkHit[] };
  /** Every node `pool` names, with its exact raw scores and the directories above it. */
  nodes: ShardNode[];
  /** The highest place sum among the shard's directories in scope, roots included. */
  placeBest: number;
}

/** A candidate node as a shard sends it. */
export interface ShardNode {
  /** Without its L1 and L2. */
  node: NodeRecord;
  raw: RawScores;
  /** The directories in scope from its parent up: each with its parent and its place sum. */
  places: { uri: string; parent: string | null; sum: number }[];
}

/**
 * One shard of a corpus, wherever it runs. `corpusShard(longship)` serves it from a Longship; a
 * Durable Object that has these methods is one through its stub (RPC).
 */
export interface CorpusShard {
  statistics(query: ShardQuery & { embed: boolean }): Promise<ShardStatistics>;
  candidates(query: CandidatesQuery): Promise<ShardCandidates>;
  node(uri: string): Promise<NodeRecord | undefined>;
  relations(uri: string): Promise<RelationRecord[]>;
}

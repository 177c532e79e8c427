// `longship/shard`: one corpus spread over many stores (Durable Objects, workers, processes) and
// searched as one (docs/guide/sharding.md). Each store serves its part with `corpusShard`; the
// corpus asks them all with `openShardedCorpus`.

export type { PlaceStatistics } from '../retrieve/place.js';
export type { RawScores } from '../retrieve/score/fusion.js';
export { corpusShard } from '../shard/corpus-shard.js';
export type {
  CandidatesQuery,
  ChunkHit,
  CorpusShard,
  ShardCandidates,
  ShardFindOptions,
  ShardNode,
  ShardQuery,
  ShardStatistics,
} from '../shard/shard-protocol.js';
export type {
  MissingShard,
  ShardedContext,
  ShardedCorpus,
  ShardedCorpusOptions,
  ShardedFindResult,
} from '../shard/sharded-corpus.js';
export { openShardedCorpus } from '../shard/sharded-corpus.js';

// The shards' candidates made one store's (docs/guide/sharding.md, "Why the answer is the same"):
// the best of all shards' lists is the corpus's best, since every node is in one shard and scored
// there with the corpus's statistics; the fusion's references, the pool and its order follow as
// query-scorer.ts and quick.ts take them from one store.
import type { Candidate } from '../retrieve/results.js';
import { createFuser, type Fuser } from '../retrieve/score/fusion.js';
import { CHUNK_OVERSAMPLE, type ScorerSettings } from '../retrieve/score/query-scorer.js';
import type { Settings } from '../retrieve/settings.js';
import type { NodeKind } from '../store/store.js';
import type { ChunkHit, ShardCandidates, ShardNode } from './shard-protocol.js';

export interface Merged {
  /** QUICK's candidates: the pool's best, fused, above the threshold. */
  candidates: Candidate[];
  /** Every directory named above a candidate: its parent and place sum. */
  places: Map<string, { parent: string | null; sum: number }>;
  /** The corpus's highest place sum. */
  placeBest: number;
  /** The shard that sent each node. */
  owners: Map<string, number>;
}

export function mergeCandidates(
  answers: readonly [number, ShardCandidates][],
  scoring: ScorerSettings,
  settings: Pick<Settings, 'limit' | 'scoreThreshold'>,
): Merged {
  const c = scoring.candidates;
  const fuserOf = fusersOf(answers, scoring);
  const nodes = new Map<string, ShardNode>();
  const owners = new Map<string, number>();
  const places = new Map<string, { parent: string | null; sum: number }>();
  let placeBest = 0;
  for (const [index, answer] of answers) {
    placeBest = Math.max(placeBest, answer.placeBest);
    for (const each of answer.nodes) {
      nodes.set(each.node.uri, each);
      owners.set(each.node.uri, index);
      for (const { uri, parent, sum } of each.places) places.set(uri, { parent, sum });
    }
  }

  const count = Math.max(c, settings.limit);
  const lexical = answers
    .flatMap(([, answer]) => answer.pool.lexical)
    .sort((a, b) => b.score - a.score || byUri(a, b))
    .slice(0, count);
  const chunks = best(
    answers.flatMap(([, answer]) => answer.pool.chunks),
    count * CHUNK_OVERSAMPLE,
  );
  const picked = new Set([...lexical.map((hit) => hit.uri), ...chunks.map((hit) => hit.uri)]);
  const scored = [...picked]
    .map((uri) => nodes.get(uri)!)
    .map(({ node, raw }) => ({ node, raw, fused: fuserOf[node.kind].fuse(0, raw) }))
    .sort((a, b) => b.fused - a.fused || byUri(a.node, b.node))
    .slice(0, count);
  const candidates = scored
    .filter((each) => each.fused > settings.scoreThreshold)
    .map((each) => ({ ...each, score: each.fused }));
  return { candidates, places, placeBest, owners };
}

/** One fusion per group of kinds, from the best BM25 scores and chunks of all shards together. */
function fusersOf(
  answers: readonly [number, ShardCandidates][],
  scoring: ScorerSettings,
): Record<NodeKind, Fuser> {
  const c = scoring.candidates;
  const fuserOf = { dir: undefined, file: undefined } as unknown as Record<NodeKind, Fuser>;
  const groups = answers[0]?.[1].references ?? [{ kinds: ['dir', 'file'] as NodeKind[] }];
  groups.forEach(({ kinds }, g) => {
    const lexical = answers
      .flatMap(([, answer]) => answer.references[g]!.lexical)
      .sort((a, b) => b - a)
      .slice(0, c);
    const chunks = best(
      answers.flatMap(([, answer]) => answer.references[g]!.chunks),
      c * CHUNK_OVERSAMPLE,
    );
    const bestOfNode = new Map<string, number>();
    for (const hit of chunks) if (!bestOfNode.has(hit.uri)) bestOfNode.set(hit.uri, hit.similarity);
    const vector = [...bestOfNode.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, c)
      .map(([, similarity]) => similarity);
    const fuser = createFuser(scoring, { lexical, vector, lexicalRank: new Map(), vectorRank: new Map() });
    for (const kind of kinds) fuserOf[kind] = fuser;
  });
  return fuserOf;
}

/** The best `k` chunks, best first. */
function best(hits: ChunkHit[], k: number): ChunkHit[] {
  return hits.sort((a, b) => b.similarity - a.similarity || byUri(a, b)).slice(0, k);
}

function byUri(a: { uri: string }, b: { uri: string }): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

// A query's BM25 score per node key. A long query matches thousands of nodes, and filling a Map
// with them took 3–5 ms of an ObliQA query (most of it); keys come from one counter, so when the
// matches are dense in their key range an array indexed by key is filled ~30× faster.
import type { LexicalHit } from '../../lexical/lexical-index.js';

/** An array is used while it has at most this many slots per match (plus a small floor). */
const SLOTS_PER_HIT = 16;
const FLOOR = 1 << 16;

/** The score of each hit's key, 0 for a key without one. */
export function keyScores(hits: readonly LexicalHit[]): (key: number) => number {
  let max = -1;
  for (const hit of hits) if (hit.key > max) max = hit.key;
  if (max < hits.length * SLOTS_PER_HIT + FLOOR) {
    const byKey = new Float64Array(max + 1);
    for (const hit of hits) byKey[hit.key] = hit.score;
    return (key) => (key <= max ? byKey[key]! : 0);
  }
  const byKey = new Map<number, number>();
  for (const hit of hits) byKey.set(hit.key, hit.score);
  return (key) => byKey.get(key) ?? 0;
}

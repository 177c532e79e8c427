import type { LexicalHit, LexicalSearchOptions } from './lexical-index.js';

/** A search's accumulated scores: the first `count` entries of `touched` are the slots it reached. */
export interface Accumulated {
  scores: Float64Array;
  touched: Uint32Array;
  count: number;
  keys: Float64Array;
  /** 0 for a removed document's slot. */
  alive: Uint8Array;
}

/**
 * The best `limit` live, allowed hits, sorted by descending score, ties by ascending key. With a
 * finite limit below the number of candidates, a heap of `limit` entries keeps the best so far, so
 * thousands of matches are not sorted to return ten; `allow` is asked only about candidates that
 * would enter it.
 */
export function topHits(
  { scores, touched, count, keys, alive }: Accumulated,
  limit: number,
  allow: LexicalSearchOptions['allow'],
  sorted = true,
): LexicalHit[] {
  const allowed = allow === undefined ? undefined : typeof allow === 'function' ? allow : undefined;
  const allowSet = typeof allow === 'object' ? allow : undefined;
  if (limit >= count) {
    const hits: LexicalHit[] = [];
    for (let i = 0; i < count; i++) {
      const slot = touched[i]!;
      if (alive[slot] === 0) continue;
      const key = keys[slot]!;
      if ((allowSet && !allowSet.has(key)) || (allowed && !allowed(key))) continue;
      hits.push({ key, score: scores[slot]! });
    }
    return sorted ? hits.sort(byScore) : hits;
  }
  // A min-heap of the best `limit` so far, worst at the root.
  const heapScore = new Float64Array(limit);
  const heapKey = new Float64Array(limit);
  let size = 0;
  for (let i = 0; i < count; i++) {
    const slot = touched[i]!;
    if (alive[slot] === 0) continue;
    const score = scores[slot]!;
    const key = keys[slot]!;
    if (size === limit && !better(score, key, heapScore[0]!, heapKey[0]!)) continue;
    if ((allowSet && !allowSet.has(key)) || (allowed && !allowed(key))) continue;
    if (size < limit) {
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!better(heapScore[parent]!, heapKey[parent]!, score, key)) break;
        heapScore[at] = heapScore[parent]!;
        heapKey[at] = heapKey[parent]!;
        at = parent;
      }
      heapScore[at] = score;
      heapKey[at] = key;
    } else {
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= size) break;
        if (
          child + 1 < size &&
          better(heapScore[child]!, heapKey[child]!, heapScore[child + 1]!, heapKey[child + 1]!)
        )
          child++;
        if (!better(score, key, heapScore[child]!, heapKey[child]!)) break;
        heapScore[at] = heapScore[child]!;
        heapKey[at] = heapKey[child]!;
        at = child;
      }
      heapScore[at] = score;
      heapKey[at] = key;
    }
  }
  const hits: LexicalHit[] = [];
  for (let i = 0; i < size; i++) hits.push({ key: heapKey[i]!, score: heapScore[i]! });
  return hits.sort(byScore);
}

function better(scoreA: number, keyA: number, scoreB: number, keyB: number): boolean {
  return scoreA > scoreB || (scoreA === scoreB && keyA < keyB);
}

function byScore(a: LexicalHit, b: LexicalHit): number {
  return b.score - a.score || a.key - b.key;
}

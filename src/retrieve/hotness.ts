// docs/guide/retrieval.md, "Hotness": a node used often and recently is "hot". The blend is off by default: no
// dataset here records usage, so no weight could be chosen by measurement.
import type { NodeRecord } from '../store/store.js';

const DAY_MS = 86_400_000;

/**
 * `(n / (n + 1)) · exp(−ln 2 · age_days / halfLifeDays)`: `n` is the node's use count, the age runs
 * from its last use (its last update if never used). In [0, 1); 0 for a node never used.
 *
 * @example
 * hotnessOf({ useCount: 3, updatedAt: now, lastUsedAt: now - 7 * 86_400_000 }, now); // 0.375
 */
export function hotnessOf(
  node: Pick<NodeRecord, 'useCount' | 'updatedAt' | 'lastUsedAt'>,
  now: number,
  halfLifeDays = 7,
): number {
  const n = Math.max(0, node.useCount);
  if (n === 0) return 0;
  const ageDays = Math.max(0, now - (node.lastUsedAt ?? node.updatedAt)) / DAY_MS;
  return (n / (n + 1)) * Math.exp((-Math.LN2 * ageDays) / halfLifeDays);
}

/** `(1 − weight) · score + weight · hotness`. */
export function blendHotness(score: number, hotness: number, weight: number): number {
  return (1 - weight) * score + weight * hotness;
}

/** The first index of `sorted` (ids of `terms`, ordered by term) whose term is ≥ `term`. */
export function lowerBound(sorted: Uint32Array, terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[sorted[mid]!]! < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Two rows of the edit-distance table, reused across calls: fuzzy search runs this once per
// vocabulary term of a plausible length.
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/**
 * Levenshtein distance between `a` and `b` (UTF-16 code units) if it is at most `max`, else -1.
 * Stops as soon as a whole row exceeds `max`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return -1;
  const n = b.length;
  if (previousRow.length <= n) {
    previousRow = new Int32Array(n + 1);
    currentRow = new Int32Array(n + 1);
  }
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const substitute = previous[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const value = Math.min(substitute, previous[j]! + 1, current[j - 1]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return -1;
    [previous, current] = [current, previous];
  }
  const distance = previous[n]!;
  return distance <= max ? distance : -1;
}

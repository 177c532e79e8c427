/** The q-quantile (0..1) of the values, by linear interpolation between order statistics. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Mean over queries of |found ∩ truth| / k, where truth holds k keys a query. */
export function recallAtK(found: readonly (readonly number[])[], truth: Int32Array, k: number): number {
  let hits = 0;
  for (let q = 0; q < found.length; q++) {
    const expected = new Set<number>();
    for (let i = 0; i < k; i++) expected.add(truth[q * k + i]!);
    for (const key of found[q]!.slice(0, k)) if (expected.has(key)) hits++;
  }
  return hits / (found.length * k);
}

/** Rounds to `digits` significant decimals after the point, keeping null as is. */
export function round(value: number | null | undefined, digits: number): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

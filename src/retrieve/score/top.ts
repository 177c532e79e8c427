/**
 * The best `count` items by `better`, best first: a selection, not a sort, because it runs over
 * thousands of matches to keep ten or a hundred. Stable for items `better` does not separate.
 * `keep`, when given, excludes items; it is asked only about those that would enter the top, so an
 * expensive filter runs a few hundred times rather than once per match.
 *
 * @example
 * topBy(hits, 10, (a, b) => a.score > b.score); // the ten best hits
 */
export function topBy<T>(
  items: Iterable<T>,
  count: number,
  better: (a: T, b: T) => boolean,
  keep?: (item: T) => boolean,
): T[] {
  const top: T[] = [];
  if (count <= 0) return top;
  for (const item of items) {
    if (top.length === count && !better(item, top[count - 1]!)) continue;
    if (keep && !keep(item)) continue;
    let i = top.length === count ? count - 1 : top.length;
    while (i > 0 && better(item, top[i - 1]!)) {
      top[i] = top[i - 1]!;
      i--;
    }
    top[i] = item;
  }
  return top;
}

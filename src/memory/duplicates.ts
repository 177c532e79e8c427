// Which memories of one kind say the same thing (docs/guide/memory-lifecycle.md, "Consolidation"):
// the same name, the same words, or word sets whose Jaccard similarity reaches a threshold.
// Groups are grown to a fixed point (a merged group is compared again with what is left), so a
// second consolidation finds nothing the first one left behind.
import { analyze } from '../lexical/analyzer.js';

/** One memory as the grouping sees it. */
export interface DuplicateCandidate {
  /** Its name (a memory's title); the same name, case and spacing aside, is a duplicate. */
  name: string;
  text: string;
}

/**
 * The groups of `items` (by index, each group in index order, groups in order of their first item)
 * that hold more than one item. Items are duplicates when their names or their texts are the same
 * (case, spacing and punctuation aside), or when the Jaccard similarity of their sets of analysed
 * terms is at least `threshold`; groups close over that relation, and a group's terms are the union
 * of its items'.
 *
 * @example
 * duplicateGroups([{ name: 'a', text: 'Ana moved to Lisbon.' }, { name: 'b', text: 'Ana moved to Lisbon!' }], 0.8);
 * // [[0, 1]]
 */
export function duplicateGroups(items: readonly DuplicateCandidate[], threshold: number): number[][] {
  const parent = items.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const join = (a: number, b: number): boolean => {
    const [ra, rb] = [root(a), root(b)];
    if (ra === rb) return false;
    parent[Math.max(ra, rb)] = Math.min(ra, rb);
    return true;
  };
  // Same name or same words: exact keys.
  for (const key of [
    (item: DuplicateCandidate) => plain(item.name),
    (item: DuplicateCandidate) => plain(item.text),
  ]) {
    const first = new Map<string, number>();
    items.forEach((item, i) => {
      const k = key(item);
      if (k === '') return;
      const seen = first.get(k);
      if (seen === undefined) first.set(k, i);
      else join(seen, i);
    });
  }
  const terms = items.map((item) => new Set(analyze(item.text)));
  // Similar words, until no group joins another.
  for (;;) {
    const groups = new Map<number, Set<string>>();
    terms.forEach((set, i) => {
      const r = root(i);
      const union = groups.get(r) ?? new Set<string>();
      for (const term of set) union.add(term);
      groups.set(r, union);
    });
    let joined = false;
    for (const [a, b] of similarPairs([...groups], threshold)) joined = join(a, b) || joined;
    if (!joined) break;
  }
  const byRoot = new Map<number, number[]>();
  items.forEach((_, i) => {
    const r = root(i);
    const group = byRoot.get(r);
    if (group) group.push(i);
    else byRoot.set(r, [i]);
  });
  return [...byRoot.values()].filter((group) => group.length > 1);
}

/** Lower case, letters and digits only, single spaces: what "the same" means for names and texts. */
function plain(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The pairs of sets (by id) whose Jaccard similarity is at least `threshold`, by prefix filtering:
 * with the terms of every set in one order (rarest first), two sets that similar share a term among
 * the first `|s| − ⌈threshold · |s|⌉ + 1` of each, so only sets that do are compared.
 */
function similarPairs(sets: readonly [number, Set<string>][], threshold: number): [number, number][] {
  const frequency = new Map<string, number>();
  for (const [, set] of sets) for (const term of set) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const order = (a: string, b: string) =>
    frequency.get(a)! - frequency.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  const posted = new Map<string, number[]>();
  const pairs: [number, number][] = [];
  for (const [index, [id, set]] of sets.entries()) {
    if (set.size === 0) continue;
    const prefix = [...set].sort(order).slice(0, set.size - Math.ceil(threshold * set.size) + 1);
    const compared = new Set<number>();
    for (const term of prefix) {
      for (const other of posted.get(term) ?? []) {
        if (compared.has(other)) continue;
        compared.add(other);
        const [otherId, otherSet] = sets[other]!;
        if (jaccard(set, otherSet) >= threshold) pairs.push([otherId, id]);
      }
      const list = posted.get(term);
      if (list) list.push(index);
      else posted.set(term, [index]);
    }
  }
  return pairs;
}

/** |a ∩ b| / |a ∪ b|. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

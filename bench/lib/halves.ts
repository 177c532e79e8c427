// A benchmark's development data in two halves, so that its constants cannot be fitted to what it
// reports (docs/benchmarks.md): every constant is chosen on the tuning half, both halves are
// reported, and a change that gains on the tuning half but loses on the reporting half is not taken.
// Items are split by group (a company's filings, a syllabus, a chat), never inside one, so that no
// document's questions are in both halves. Each group's half comes from a seeded hash of its name, the
// same on every run and machine; of many such seeded draws the one whose halves hold the closest
// numbers of items is kept, so the halves are as balanced as the groups' sizes allow.

export type Half = 'tuning' | 'reporting';
export const halves: readonly Half[] = ['tuning', 'reporting'];

export interface HalfSplit<T> {
  seed: number;
  /** Each group's half. */
  halfOf: ReadonlyMap<string, Half>;
  /** Each half's groups, sorted, and its items in their given order. */
  tuning: { groups: string[]; items: T[] };
  reporting: { groups: string[]; items: T[] };
}

/** How many seeded draws are compared for balance. */
const draws = 4096;

/** Splits `items` into the tuning and the reporting half by `groupOf`, with `seed`. */
export function splitHalves<T>(
  items: readonly T[],
  groupOf: (item: T) => string,
  seed: number,
): HalfSplit<T> {
  const sizes = new Map<string, number>();
  for (const item of items) {
    const group = groupOf(item);
    sizes.set(group, (sizes.get(group) ?? 0) + 1);
  }
  const groups = [...sizes.keys()].sort();
  const total = items.length;
  let best: boolean[] = [];
  let bestGap = Number.POSITIVE_INFINITY;
  for (let draw = 0; draw < draws && bestGap > total % 2; draw++) {
    const inTuning = groups.map((group) => (hash32(`${seed}\u0000${draw}\u0000${group}`) & 1) === 1);
    const tuning = groups.reduce((sum, group, i) => sum + (inTuning[i] ? sizes.get(group)! : 0), 0);
    // Both halves hold a group where there are two; a strictly better gap replaces the kept draw.
    const emptyHalf = groups.length > 1 && (inTuning.every(Boolean) || !inTuning.some(Boolean));
    const gap = Math.abs(total - 2 * tuning);
    if (!emptyHalf && gap < bestGap) [best, bestGap] = [inTuning, gap];
  }
  const halfOf = new Map(groups.map((group, i): [string, Half] => [group, best[i] ? 'tuning' : 'reporting']));
  const half = (name: Half) => ({
    groups: groups.filter((group) => halfOf.get(group) === name),
    items: items.filter((item) => halfOf.get(groupOf(item)) === name),
  });
  return { seed, halfOf, tuning: half('tuning'), reporting: half('reporting') };
}

/** FNV-1a over the string's UTF-8 bytes, then murmur3's finaliser: integer arithmetic, so portable. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

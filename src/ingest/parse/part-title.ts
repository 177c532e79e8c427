// The title of a part of a long section that has no heading of its own: the first line in it that
// reads like a caption (a table's or a statement's title: "Consolidated Statement of Cash Flows",
// "Week 5: Midterm review") and is not a running header or footer, which repeats across the
// document's pages. A part without one is `<section> (part k of n)`.

const MIN_LENGTH = 4;
const MAX_LENGTH = 80;
const MAX_WORDS = 12;
/** A line in at least this many places of a document is a running header, not a caption. */
const REPEATS = 3;

/** The trimmed lines of a document that occur at least {@link REPEATS} times. */
export function repeatedLines(text: string): Set<string> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '') counts.set(trimmed, (counts.get(trimmed) ?? 0) + 1);
  }
  const repeated = new Set<string>();
  for (const [line, count] of counts) if (count >= REPEATS) repeated.add(line);
  return repeated;
}

/** Whether a line reads like a caption: short, starting with a capital, words not numbers, no sentence end. */
export function isCaption(line: string): boolean {
  if (line.length < MIN_LENGTH || line.length > MAX_LENGTH) return false;
  if (!/^\p{Lu}/u.test(line) || /[.,;]$/.test(line) || /[|<>`]/.test(line)) return false;
  const words = line.split(/\s+/);
  if (words.length > MAX_WORDS) return false;
  const wordy = words.filter((word) => /^\p{L}[\p{L}'’&-]*:?$/u.test(word)).length;
  const letters = line.replace(/[^\p{L}]/gu, '').length;
  return wordy >= 2 && letters / line.length >= 0.6;
}

/**
 * The caption of a part, or undefined.
 *
 * @example
 * captionOf('Table of Contents\nConsolidated Balance Sheet\n(Millions)\n2018 2017', new Set(['Table of Contents']));
 * // 'Consolidated Balance Sheet'
 */
export function captionOf(text: string, repeated: ReadonlySet<string>): string | undefined {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '' && !repeated.has(trimmed) && isCaption(trimmed)) return trimmed.replace(/:$/, '');
  }
  return undefined;
}

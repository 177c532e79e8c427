// OpenViking's retrieval score for its RAG benchmark (benchmark/RAG/src/core/metrics.py:
// `normalize_answer` and `check_recall`), ported to behave the same, character for character, so
// that our figures sit beside its published ones. Python's semantics are spelled out where
// JavaScript's differ: `\b` and `\w` are Unicode-aware in Python, and `str.split()` splits on
// Python's own whitespace set.

/** Python's `string.punctuation`: ASCII punctuation only. */
const punctuation = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/** Python's `\b(a|an|the|and)\b` on a `str`: a word character is a letter, a number or `_`. */
const articles = /(?<![\p{L}\p{N}_])(?:a|an|the|and)(?![\p{L}\p{N}_])/gu;

/** The characters `str.split()` splits on (`str.isspace()`); JavaScript's `\s` differs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: Python counts \x1c-\x1f as whitespace.
const pythonWhitespace = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** Python's `str.split()` with no argument: runs of whitespace split, empty pieces dropped. */
export function pythonSplit(text: string): string[] {
  return text.split(pythonWhitespace).filter((piece) => piece !== '');
}

/**
 * Lower case, commas and ASCII punctuation removed, the words a, an, the, and removed, whitespace
 * collapsed to single spaces.
 *
 * @example
 * normalizeAnswer('The Cash-Flow, 2018!'); // 'cashflow 2018'
 */
export function normalizeAnswer(text: string): string {
  const lower = text.replaceAll(',', '').toLowerCase();
  let withoutPunctuation = '';
  for (const ch of lower) if (!punctuation.has(ch)) withoutPunctuation += ch;
  return pythonSplit(withoutPunctuation.replace(articles, ' ')).join(' ');
}

/** The retrieved texts joined with spaces (as they are), and the set of their normalised tokens. */
export interface Retrieved {
  combined: string;
  tokens: Set<string>;
}

export function retrieved(texts: readonly string[]): Retrieved {
  const combined = texts.join(' ');
  return { combined, tokens: new Set(pythonSplit(normalizeAnswer(combined))) };
}

/**
 * Whether one evidence string counts as found: it is a substring of the joined texts as they are,
 * or its normalised form has at least `minSoftMatchTokens` distinct tokens and at least
 * `softThreshold` of them occur anywhere in the normalised joined texts.
 */
export function evidenceFound(
  into: Retrieved,
  evidence: string,
  softThreshold = 0.8,
  minSoftMatchTokens = 4,
): boolean {
  if (into.combined.includes(evidence)) return true;
  const tokens = new Set(pythonSplit(normalizeAnswer(evidence)));
  if (tokens.size === 0 || tokens.size < minSoftMatchTokens) return false;
  let overlap = 0;
  for (const token of tokens) if (into.tokens.has(token)) overlap++;
  return overlap / tokens.size >= softThreshold;
}

/**
 * Several retrieved texts joined, each prepared once: the tokens of the join are the union of each
 * text's, since the joining space bounds every word (and every article) on both sides.
 */
export function joined(parts: readonly Retrieved[]): Retrieved {
  if (parts.length === 1) return parts[0]!;
  const tokens = new Set<string>();
  for (const part of parts) for (const token of part.tokens) tokens.add(token);
  return { combined: parts.map((part) => part.combined).join(' '), tokens };
}

/** The share of `evidence` found ({@link evidenceFound}) in prepared retrieved text; no evidence scores 0. */
export function recallIn(
  into: Retrieved,
  evidence: readonly string[],
  softThreshold = 0.8,
  minSoftMatchTokens = 4,
): number {
  if (evidence.length === 0) return 0;
  let hits = 0;
  for (const item of evidence) if (evidenceFound(into, item, softThreshold, minSoftMatchTokens)) hits++;
  return hits / evidence.length;
}

/**
 * `check_recall`: the share of `evidence` strings found ({@link evidenceFound}) in the retrieved
 * texts. No evidence scores 0.
 *
 * @example
 * checkRecall(['Homework is due on Friday.'], ['due on Friday', 'late work']); // 0.5
 */
export function checkRecall(
  retrievedTexts: readonly string[],
  evidence: readonly string[],
  softThreshold = 0.8,
  minSoftMatchTokens = 4,
): number {
  return recallIn(retrieved(retrievedTexts), evidence, softThreshold, minSoftMatchTokens);
}

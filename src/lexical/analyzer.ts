import { stemmer } from 'stemmer';

/**
 * Names the analysis below. A snapshot records it, and loading a snapshot made by a different
 * analyzer fails: its postings would no longer match the terms queries produce.
 */
export const ANALYZER_ID = 'longship-en-porter-1';

/**
 * Lucene's English stop set (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`), the list behind the
 * BM25 baselines usually quoted (Anserini/Pyserini on BEIR). A short list on purpose: longer ones
 * drop words such as "can", "may" or "should" that carry meaning in rules and specifications.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

// A token is a run of letters, marks, digits and connectors (`_`), possibly joined by `.`, `-`,
// `/`, `:`, `@` or an apostrophe, so `fs.readFileSync`, `ERR_INVALID_ARG`, `v1.2.3`, `IL-6` and
// `@types/node` each come out as one token. A trailing joiner (end of sentence) is not part of it.
const TOKEN = /[\p{L}\p{M}\p{N}\p{Pc}]+(?:[.\-/:@'’]+[\p{L}\p{M}\p{N}\p{Pc}]+)*/gu;
const JOINERS = /[.\-/:@\p{Pc}]+/u;
// Parts of one segment: `XMLHttpRequest2` → XML, Http, Request, 2.
const PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}[\p{Lu}\p{M}]*|\p{N}+|[\p{L}\p{M}]+/gu;
const POSSESSIVE = /['’]s$/u;
const APOSTROPHES = /['’]/gu;
const NUMERIC = /^\p{N}+$/u;
const ASCII_WORD = /^[a-z]+$/;
// Chinese and Japanese put no spaces between words; they are indexed as overlapping character
// pairs, as Lucene's CJKAnalyzer does.
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]+/gu;
const HAS_CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
// Longer runs are data (base64, minified code), not words; hashes up to SHA-512 in hex still fit.
const MAX_TOKEN_LENGTH = 128;

/**
 * Splits text into raw tokens (original case, Unicode-aware). Identifier-like runs stay whole.
 *
 * @example
 * tokenize('Call fs.readFileSync() or see ERR_INVALID_ARG.') // ['Call', 'fs.readFileSync', 'or', 'see', 'ERR_INVALID_ARG']
 */
export function tokenize(text: string): string[] {
  return text.normalize('NFKC').match(TOKEN) ?? [];
}

/**
 * The index terms of one raw token. A plain word gives at most one term: lowercased, dropped if
 * a stopword, Porter-stemmed. An identifier-like token (several parts: snake_case, camelCase,
 * dotted.names, E1234, kebab-case) gives its whole lowercased form, unstemmed, followed by the
 * terms of each part, so `readFileSync` is found by itself and by "read file sync". A token of
 * numbers only (`1.2.3`, `0.05`) stays whole.
 *
 * @example
 * analyzeToken('readFileSync') // ['readfilesync', 'read', 'file', 'sync']
 * analyzeToken('Running') // ['run']
 */
export function analyzeToken(token: string): string[] {
  if (token.length > MAX_TOKEN_LENGTH) return [];
  if (HAS_CJK.test(token)) return analyzeMixedScript(token);
  const word = token.replace(POSSESSIVE, '').replace(APOSTROPHES, '');
  const parts: string[] = [];
  for (const segment of word.split(JOINERS)) {
    for (const part of segment.match(PART) ?? []) parts.push(part.toLowerCase());
  }
  if (parts.length === 0) return [];
  if (parts.length === 1) return plainTerm(parts[0]!);
  const whole = word.toLowerCase();
  if (parts.every((part) => NUMERIC.test(part))) return [whole];
  const terms = [whole];
  for (const part of parts) terms.push(...plainTerm(part));
  return terms;
}

/**
 * Text to index terms: {@link tokenize}, then {@link analyzeToken} on each token. Documents and
 * queries go through the same function.
 *
 * @example
 * analyze('The runners are running') // ['runner', 'run']
 */
export function analyze(text: string): string[] {
  return tokenize(text).flatMap(analyzeToken);
}

function plainTerm(lower: string): string[] {
  if (STOPWORDS.has(lower)) return [];
  // Porter's rules are English; applied to other scripts they would only strip look-alike endings.
  return [ASCII_WORD.test(lower) ? stemmer(lower) : lower];
}

function analyzeMixedScript(token: string): string[] {
  const terms: string[] = [];
  let last = 0;
  for (const match of token.matchAll(CJK)) {
    const before = token.slice(last, match.index);
    if (before) terms.push(...analyzeToken(before.replace(/^[.\-/:@'’]+|[.\-/:@'’]+$/gu, '')));
    terms.push(...bigrams(match[0]));
    last = match.index + match[0].length;
  }
  const after = token.slice(last);
  if (after) terms.push(...analyzeToken(after.replace(/^[.\-/:@'’]+|[.\-/:@'’]+$/gu, '')));
  return terms;
}

function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length === 1) return chars;
  const pairs: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
  return pairs;
}

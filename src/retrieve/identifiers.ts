// Queries that name an identifier (an error code, a function, a rule number) want the node that
// contains it, which only BM25 can tell: an embedding model knows nothing of `ERR_QUOTA_EXCEEDED`.
// For such queries the blend leans further towards BM25 (`hybrid.identifierWeight`), so the vector
// side's opinion of near-synonyms cannot bury the exact match.

const PATTERNS: readonly RegExp[] = [
  // snake_case and SCREAMING_SNAKE: ERR_QUOTA_EXCEEDED, read_file
  /[\p{L}\p{N}]_[\p{L}\p{N}]/u,
  // camelCase and PascalCase with an inner capital: readFileSync, XMLHttpRequest
  /\p{Ll}\p{Lu}/u,
  // a path of names: fs.readFileSync, std::vector, @types/node
  /\p{L}(?:\.|::|\/)\p{L}/u,
  // letters and digits in one word: E1234, HTTP404, v2
  /\p{L}\p{N}|\p{N}\p{L}/u,
  // numbered references: 11.2.1, 3.4
  /\p{N}\.\p{N}/u,
];

const TOKEN = /\S+/gu;
// 1st, 2nd, 1990s, 24h: digits with a unit or suffix are words, not identifiers.
const ORDINAL = /^\p{N}+(?:st|nd|rd|th|s|h|m|k|am|pm)$/iu;

/**
 * The identifier-like words of a query, trailing punctuation dropped.
 *
 * @example
 * identifiersIn('What does ERR_QUOTA_EXCEEDED mean?'); // ['ERR_QUOTA_EXCEEDED']
 */
export function identifiersIn(query: string): string[] {
  const found: string[] = [];
  for (const [raw] of query.matchAll(TOKEN)) {
    const token = raw.replace(/^[^\p{L}\p{N}@_]+|[^\p{L}\p{N}_)]+$/gu, '');
    if (token === '' || ORDINAL.test(token)) continue;
    if (PATTERNS.some((pattern) => pattern.test(token))) found.push(token);
  }
  return found;
}

// The merge of duplicate memories without an LLM (docs/guide/memory-lifecycle.md, "Consolidation"):
// every distinct sentence of every memory, the newest memory's first. Nothing is rewritten, so
// nothing said is lost; a sentence said twice is kept once.

/**
 * The sentences of `text`: split after `.`, `!` or `?` followed by a space, and at line breaks;
 * spacing inside a sentence collapsed.
 *
 * @example
 * sentencesOf('Ana moved. She likes it!\nBye'); // ['Ana moved.', 'She likes it!', 'Bye']
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((sentence) => sentence.replace(/\s+/gu, ' ').trim())
    .filter((sentence) => sentence !== '');
}

/**
 * The distinct sentences of `texts`, newest first: `texts` in order from the newest memory to the
 * oldest, each sentence kept where it first appears, one per line.
 *
 * @example
 * mergeSentences(['Ana lives in Porto.', 'Ana lives in Lisbon. Ana lives in Porto.']);
 * // 'Ana lives in Porto.\nAna lives in Lisbon.'
 */
export function mergeSentences(texts: readonly string[]): string {
  const kept = new Set<string>();
  for (const text of texts) for (const sentence of sentencesOf(text)) kept.add(sentence);
  return [...kept].join('\n');
}

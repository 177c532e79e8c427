// The merge of duplicate memories without an LLM (docs/guide/memory-lifecycle.md, "Consolidation"):
// every distinct sentence of every memory, the newest memory's first. Nothing is rewritten, so
// nothing said is lost; a sentence said twice is kept once.

// A full stop after these is not the end of a sentence: "Dr. Lee" stays whole, so merging two memories
// that both name a doctor cannot tear a title from its name.
const ABBREVIATION = /(?:^|[\s(])(?:\p{Lu}|Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|vs|etc|e\.g|i\.e|No)\.$/u;

/**
 * The sentences of `text`: split at line breaks, and after `.`, `!` or `?` followed by a space (not
 * after an abbreviation or an initial); spacing inside a sentence collapsed.
 *
 * @example
 * sentencesOf('Dr. Lee moved. She likes it!\nBye'); // ['Dr. Lee moved.', 'She likes it!', 'Bye']
 */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\n+/u)) {
    let current = '';
    for (const piece of line.split(/(?<=[.!?])\s+/u)) {
      current = current === '' ? piece : `${current} ${piece}`;
      if (!ABBREVIATION.test(current)) {
        sentences.push(current);
        current = '';
      }
    }
    if (current !== '') sentences.push(current);
  }
  return sentences
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

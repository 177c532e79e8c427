// The benchmark's texts: real sentences, the same ones on every run. SciFact's abstracts (outside
// the repository, in ../shared/eval) split into sentences; without them, the prose of
// model/README.md and a short built-in list. Evaluation data is read, never copied into the repo.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const defaultCorpus = fileURLToPath(
  new URL('../../../shared/eval/scifact/corpus.jsonl', import.meta.url),
);

export interface BenchTexts {
  texts: string[];
  /** Where they came from, for the report. */
  source: string;
}

/** The first `count` sentences of the corpus, in file order; the fallback repeats to reach `count`. */
export function loadSentences(count: number, corpus = defaultCorpus): BenchTexts {
  if (existsSync(corpus)) {
    const texts: string[] = [];
    for (const line of readFileSync(corpus, 'utf8').split('\n')) {
      if (texts.length >= count) break;
      if (!line.trim()) continue;
      const { text } = JSON.parse(line) as { text: string };
      texts.push(...splitSentences(text));
    }
    return {
      texts: texts.slice(0, count),
      source: `SciFact corpus.jsonl abstracts, first ${count} sentences`,
    };
  }
  const readme = readFileSync(new URL('../../model/README.md', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Za-z`]/.test(line) && !line.startsWith('|'))
    .join(' ');
  const pool = [...splitSentences(readme), ...builtIn];
  const texts = Array.from({ length: count }, (_, i) => pool[i % pool.length]!);
  return {
    texts,
    source: `${corpus} is absent: ${pool.length} sentences from model/README.md and a built-in list, repeated`,
  };
}

/** Splits prose at `.`, `!` or `?` followed by a space and a capital, digit or bracket. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z0-9(["])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

const builtIn = [
  'How do I reset my password?',
  'The cat is sleeping on the sofa.',
  'What is the weather like tomorrow?',
  'The stock market fell sharply today after the central bank raised interest rates again.',
  'She plays the violin in an orchestra that tours Europe every summer.',
  'Add two numbers in Python and print the result.',
  'The restaurant serves excellent pasta, but the service was slow on Friday night.',
  'Our flight to Tokyo was delayed by three hours because of a storm over the Pacific.',
];

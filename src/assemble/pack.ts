/**
 * Fitting candidates into a token budget (docs/context.md, "How parts are chosen"). Candidates come
 * best first; each takes the richest layer whose element still fits what is left (L2, else L1, else
 * L0), so the best hit is shown whole when it fits and a long one steps down to its overview rather
 * than being cut. The block's own count is then checked, frame included, and the lowest-ranked
 * parts go until it fits: a tokenizer need not count a concatenation as the sum of its pieces.
 */
import type { ContextType } from '../store/store.js';
import { frameText, type Layer, type RenderedPart, renderBlock, renderPart } from './render.js';
import { countTokens, type Tokenizer } from './tokenizer.js';

/** A hit that may become a part: the layers it may be shown at, richest first, none empty. */
export interface Candidate {
  uri: string;
  type: ContextType;
  score: number;
  layers: { layer: Layer; text: string }[];
}

/** One part of the block: a node at one layer. */
export interface ContextPart extends RenderedPart {
  /** Tokens of its element in the block (tags and citation included), and of the newline before it. */
  tokens: number;
}

/**
 * Why a hit is not in the block. `budget`: no layer of it fitted what was left; `quota`: its type
 * had its `quotas` share; `duplicate`: the same text is in the block under another URI; `delivered`:
 * this session was already given it (at this layer or a richer one) and it has not changed since.
 */
export type LeftOutReason = 'budget' | 'quota' | 'duplicate' | 'delivered';

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

/** Chooses the parts and renders the block; never more than `budget` tokens by `tokenizer`. */
export async function pack(
  candidates: readonly Candidate[],
  budget: number,
  quotas: Quotas,
  tokenizer: Tokenizer,
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
    let chosen: ContextPart | undefined;
    let smallest = Number.POSITIVE_INFINITY;
    for (const { layer, text } of candidate.layers) {
      const part = { uri, type, score, layer, text: text.trim() };
      // +1: the newline that joins it to the element before.
      const tokens = (await countTokens(tokenizer, renderPart(part))) + 1;
      smallest = Math.min(smallest, tokens);
      if (tokens <= left) {
        chosen = { ...part, tokens };
        break;
      }
    }
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

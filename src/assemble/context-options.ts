// The options and the result of context() (docs/guide/context.md), and the check of the options.
import * as v from 'valibot';
import { signalSchema, wholeNumber } from '../options.js';
import type { ConversationContext } from '../retrieve/intent.js';
import { type FindFilter, findFilterSchema } from '../retrieve/scope.js';
import type { FindMode } from '../retrieve/settings.js';
import type { ContextDigest, DigestOptions } from './digest.js';
import type { ContextPart, LeftOut } from './pack.js';
import type { Layer } from './render.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * Options of `context()`. Only `budget` is required.
 *
 * @example
 * await longship.context('How do retries back off?', { budget: { tokens: 2000 }, session: 'chat-1' });
 */
export interface ContextOptions {
  /**
   * The most tokens the block may take, counted by `tokenizer`, its framing included: a whole number
   * ≥ 1, as `{ tokens }` or the number alone (`budget: 500` is `{ tokens: 500 }`).
   */
  budget: number | { tokens: number };
  /**
   * The conversation this is for: its id, or a Session. What earlier calls for the same session
   * delivered is left out unless it changed, or a richer layer of it now fits. A Session's recent
   * messages also shape the query where Longship has an LLM (search()'s intent analysis).
   */
  session?: string | { readonly id: string; context?(): ConversationContext | Promise<ConversationContext> };
  /** The most parts of each type, e.g. `{ memories: 3, skills: 1 }`. Default: no limit but the budget. */
  quotas?: { memories?: number; resources?: number; skills?: number };
  /** Search only this subtree (or this file). Default: every root. */
  targetUri?: string;
  filter?: FindFilter;
  /** find()'s mode. Default `'quick'`. */
  mode?: FindMode;
  /** How many hits are considered, best first. Default 10. */
  candidates?: number;
  /**
   * Hits scored at or under this are left out as `'no-good-match'`, so a question the store cannot
   * answer gets an empty block rather than its best tries. Default `findDefaults.noGoodMatch` with
   * the bundled model (its calibration was measured with it), 0 with another embedder.
   */
  scoreThreshold?: number;
  /** The richest layer to show. Default `'L2'` (a file's whole content where it fits). */
  maxLayer?: Layer;
  /** Counts tokens. Default `o200k_base` (docs/guide/context.md, "Tokens"). */
  tokenizer?: Tokenizer;
  /** With an LLM: also a digest of the block, in bullets that cite their URIs. Default off. */
  digest?: boolean | DigestOptions;
  signal?: AbortSignal;
}

/** What context() returns: plain data, the same through a worker. */
export interface AssembledContext {
  /** The prompt-ready block; `''` when nothing fits or nothing was found. */
  text: string;
  /** The block's tokens by `tokenizer`: never more than `budget.tokens`. */
  tokens: number;
  budget: { tokens: number };
  /** The tokenizer's name (`o200k_base` by default). */
  tokenizer: string;
  /** The block's parts, in the order it shows them. */
  parts: ContextPart[];
  /** The hits that are not in the block, best first, each with why. */
  leftOut: LeftOut[];
  /** When `digest` was asked for and the block is not empty. */
  digest?: ContextDigest;
}

const count = (min: number) => v.optional(wholeNumber(min));

/** @internal */
export const contextOptionsSchema = v.strictObject({
  budget: v.pipe(
    v.union(
      [wholeNumber(1), v.strictObject({ tokens: wholeNumber(1) })],
      'must be a number of tokens (500) or { tokens } ({ tokens: 500 })',
    ),
    v.transform((budget) => (typeof budget === 'number' ? { tokens: budget } : budget)),
  ),
  session: v.optional(
    v.union(
      [
        v.pipe(v.string(), v.minLength(1)),
        v.custom<{ id: string }>(
          (x) => typeof x === 'object' && x !== null && typeof (x as { id?: unknown }).id === 'string',
          'must be a session id or a Session',
        ),
      ],
      'must be a session id (a non-empty string) or a Session',
    ),
  ),
  quotas: v.optional(v.strictObject({ memories: count(0), resources: count(0), skills: count(0) })),
  targetUri: v.optional(v.string()),
  filter: v.optional(findFilterSchema),
  mode: v.optional(v.picklist(['quick', 'thinking'])),
  candidates: count(1),
  scoreThreshold: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  maxLayer: v.optional(v.picklist(['L0', 'L1', 'L2'])),
  tokenizer: v.optional(
    v.custom<Tokenizer>(
      (x) => typeof x === 'object' && x !== null && typeof (x as Tokenizer).count === 'function',
      'must be a tokenizer (an object with count(text))',
    ),
  ),
  digest: v.optional(v.union([v.boolean(), v.strictObject({ maxBullets: count(1), timeoutMs: count(1) })])),
  signal: v.optional(signalSchema),
});

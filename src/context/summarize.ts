/**
 * The seam between ingestion and whatever writes L0/L1 (docs/guide/retrieval.md, "Layers and what is
 * embedded"): the extractive summariser by default, an LLM when one is plugged in. The pipeline
 * asks the same questions of both, so the two are interchangeable per call.
 */

/** The formats a text is read as (ingestion's parsers understand them); anything else is `text`. */
export type Format = 'markdown' | 'html' | 'json' | 'code' | 'text';

/** What a summariser gets for one node. Files carry their text; directories their children's L0s. */
export interface SummaryInput {
  title: string;
  headings: readonly string[];
  /** A file's content (L2); for a directory, its own lead text if any, else `''`. */
  text: string;
  /** A directory's children, in order, with the L0s computed for them first (bottom-up). */
  children?: readonly { title: string; l0: string }[];
  /** How to read `text` (code keeps only comments as prose); Markdown-like when absent. */
  format?: Format;
  /** What the document says it is about (Markdown front matter's `description:`); its own node only. */
  description?: string;
}

export interface Summary {
  /** One or two sentences, at most `maxL0Length` (256) characters. */
  l0: string;
  /** A few hundred words that let an agent decide whether to open the node. */
  l1: string;
}

/**
 * Writes L0 and L1 for one node. `kind` is recorded on every node it summarises, so extractive
 * summaries can be told apart (and redone once an LLM is available).
 *
 * @example
 * const llmSummarizer: Summarizer = {
 *   kind: 'llm',
 *   summarize: async (input, signal) => JSON.parse(await llm.complete(summaryPrompt(input), { signal })),
 * };
 */
export interface Summarizer {
  readonly kind: 'extractive' | 'llm';
  summarize(input: SummaryInput, signal?: AbortSignal): Promise<Summary>;
}

/** docs/guide/retrieval.md, "Layers and what is embedded": an L0 is at most 256 characters. */
export const maxL0Length = 256;

/**
 * Shortens text to `max` characters at a word boundary, adding `…` when it cut; whitespace is
 * collapsed first. A single word longer than `max` is cut inside (nothing else would fit).
 *
 * @example
 * clampText('The quick brown fox jumps', 16); // 'The quick brown…'
 */
export function clampText(text: string, max = maxL0Length): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // One more character than fits, so that a word ending right at the limit is seen to be whole.
  const room = flat.slice(0, max);
  const space = room.lastIndexOf(' ');
  let cut = space > 0 ? room.slice(0, space) : room.slice(0, max - 1);
  // Never leave half of a surrogate pair, nor dangling punctuation before the ellipsis.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.replace(/[\s,;:—–-]+$/, '')}…`;
}

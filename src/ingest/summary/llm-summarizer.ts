// L0/L1 written by an LLM (docs/guide/retrieval.md, "Layers and what is embedded"), through the same client
// and prompt file as everything else the LLM does.
import * as v from 'valibot';
import { clampText, maxL0Length, type Summarizer } from '../../context/summarize.js';
import type { LLM } from '../../llm/llm.js';
import { summaryPrompt } from '../../llm/prompts.js';
import { runPrompt } from '../../llm/run-prompt.js';
import { checkOptions, wholeNumber } from '../../options.js';

export interface LlmSummarizerOptions {
  /** Limit for each summary call (default: the LLM client's own). */
  timeoutMs?: number;
}

/** @internal */
export const llmSummarizerOptionsSchema = v.strictObject({ timeoutMs: v.optional(wholeNumber(1)) });

/**
 * A {@link Summarizer} that asks an LLM for each node's L0 and L1 with `summaryPrompt` (src/llm/prompts.ts); the
 * nodes are marked `llm`. A failed call rejects with the LLM's `LongshipError` (`LLM_OUTPUT` for an
 * answer that does not fit), which fails that document's ingestion and leaves the store as it was:
 * it is never silently replaced by an extractive summary marked `llm`.
 *
 * @example
 * const longship = await openLongship({ llm, summarizer: llmSummarizer(llm) });
 */
export function llmSummarizer(llm: LLM, input?: LlmSummarizerOptions): Summarizer {
  const options = checkOptions(llmSummarizerOptionsSchema, input, 'llmSummarizer()');
  return {
    kind: 'llm',
    async summarize(input, signal) {
      const { output } = await runPrompt(
        llm,
        summaryPrompt,
        { title: input.title, text: input.text, ...(input.children ? { children: input.children } : {}) },
        { ...(signal ? { signal } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) },
      );
      return { l0: clampText(output.l0, maxL0Length), l1: output.l1 };
    },
  };
}

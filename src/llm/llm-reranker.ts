// A chat model used as a reranker, for endpoints that have no /rerank route.
import { LongshipError } from '../errors.js';
import type { CallOptions } from '../remote/json-endpoint.js';
import type { LLM, Reranker, RerankScores } from './llm.js';
import { rerankPrompt } from './prompts.js';
import { runPrompt } from './run-prompt.js';

/**
 * A {@link Reranker} that asks an LLM to score documents with `rerankPrompt` (src/llm/prompts.ts). The documents go
 * as JSON data with indices; the answer must score each index exactly once with a number in [0, 1],
 * or it is an `LLM_OUTPUT` error (the caller keeps its own scores).
 *
 * @example
 * const longship = await openLongship({ llm, reranker: llmReranker(llm) });
 */
export function llmReranker(llm: LLM): Reranker {
  return {
    model: llm.model,
    async rerank(
      query: string,
      documents: readonly string[],
      options: CallOptions = {},
    ): Promise<RerankScores> {
      if (documents.length === 0)
        return { scores: [], usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } };
      const { output, usage } = await runPrompt(llm, rerankPrompt, { query, documents }, options);
      const scores: number[] = new Array(documents.length);
      for (const { index, score } of output.scores) {
        if (index >= documents.length || scores[index] !== undefined) {
          throw new LongshipError('LLM_OUTPUT', `rerank: index ${index} is out of range or scored twice`);
        }
        scores[index] = score;
      }
      if (output.scores.length !== documents.length) {
        throw new LongshipError(
          'LLM_OUTPUT',
          `rerank: ${output.scores.length} scores for ${documents.length} documents`,
        );
      }
      return { scores, usage };
    },
  };
}

/**
 * The optional LLM side of Longship (docs/guide/retrieval.md: intent analysis, rerank, summaries, memory
 * extraction). Everything that uses an LLM takes these interfaces, so a test, a local model or a
 * hosted API plug in the same way; {@link openAiCompatibleLlm} and {@link remoteReranker} speak HTTP.
 */
import type { CallOptions } from '../remote/json-endpoint.js';

export type { CallOptions } from '../remote/json-endpoint.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens one call used, as the endpoint reported them (0 where it reported none). */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface CompleteOptions extends CallOptions {
  /** Ask for a JSON object (`response_format: {type: 'json_object'}`). The answer is still checked. */
  json?: boolean;
  /** Default 0: the same question should get the same plan. */
  temperature?: number;
  /** `max_tokens` of the request. */
  maxTokens?: number;
}

export interface Completion {
  /** The assistant message's text. */
  text: string;
  usage: TokenUsage;
}

/**
 * A chat model. Rejects with a `LongshipError` only: `ABORTED`, `TIMEOUT`, `REMOTE_HTTP`,
 * `REMOTE_RESPONSE`.
 *
 * @example
 * const { text, usage } = await llm.complete([{ role: 'user', content: 'Say hi' }], { timeoutMs: 5000 });
 */
export interface LLM {
  readonly model: string;
  complete(messages: readonly ChatMessage[], options?: CompleteOptions): Promise<Completion>;
  /** Tokens used by every call so far. */
  readonly usage: TokenUsage;
}

export interface RerankScores {
  /** One relevance score per document, in the order given; higher is more relevant. */
  scores: number[];
  usage: TokenUsage;
}

/**
 * Scores documents against a query (a cross-encoder behind a `/rerank` endpoint, or an LLM asked to
 * score). Rejects with a `LongshipError` only.
 *
 * @example
 * const { scores } = await reranker.rerank('retry policy', ['Retries back off…', 'Logo colours'], { timeoutMs: 3000 });
 */
export interface Reranker {
  readonly model: string;
  rerank(query: string, documents: readonly string[], options?: CallOptions): Promise<RerankScores>;
}

export const noUsage: TokenUsage = Object.freeze({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

/** The sum of two usages. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

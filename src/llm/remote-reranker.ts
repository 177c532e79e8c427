// A Cohere/Jina-style rerank endpoint: `POST {baseUrl}/rerank {model, query, documents, top_n}`
// answered by `results[{index, relevance_score}]` (Cohere, Jina, Voyage, text-embeddings-inference
// behind a compatible route, LocalAI, vLLM's /rerank).
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import {
  type CallOptions,
  type EndpointOptions,
  endpointOptionsSchema,
  isRecord,
  JsonEndpoint,
} from '../remote/json-endpoint.js';
import type { Reranker, RerankScores } from './llm.js';
import { usageOf } from './openai-compatible.js';

export type RemoteRerankerOptions = EndpointOptions;

/** The reranker {@link remoteReranker} makes. @internal */
export class RemoteReranker implements Reranker {
  readonly model: string;
  readonly #endpoint: JsonEndpoint;

  constructor(options: RemoteRerankerOptions) {
    checkOptions(endpointOptionsSchema, options, 'remoteReranker()');
    this.#endpoint = new JsonEndpoint(options, 'rerank', 'remoteReranker()');
    this.model = this.#endpoint.model;
  }

  async rerank(
    query: string,
    documents: readonly string[],
    options: CallOptions = {},
  ): Promise<RerankScores> {
    if (
      typeof query !== 'string' ||
      !Array.isArray(documents) ||
      documents.some((d) => typeof d !== 'string')
    ) {
      throw new LongshipError('INVALID_ARGUMENT', 'rerank() takes a query string and an array of strings');
    }
    if (documents.length === 0) return { scores: [], usage: usageOf(undefined) };
    const answer = await this.#endpoint.post(
      { query, documents: [...documents], top_n: documents.length, return_documents: false },
      options,
    );
    const results = isRecord(answer) ? answer.results : undefined;
    if (!Array.isArray(results)) throw this.#endpoint.badResponse('has no results array', answer);
    if (results.length !== documents.length) {
      throw this.#endpoint.badResponse(`scores ${results.length} of ${documents.length} documents`);
    }
    const scores: number[] = new Array(documents.length);
    for (const item of results) {
      const index = isRecord(item) ? item.index : undefined;
      const score = isRecord(item) ? item.relevance_score : undefined;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= documents.length) {
        throw this.#endpoint.badResponse(`has a result with index ${String(index)}`);
      }
      if (scores[index] !== undefined) throw this.#endpoint.badResponse(`scores document ${index} twice`);
      if (typeof score !== 'number' || !Number.isFinite(score)) {
        throw this.#endpoint.badResponse(`has a non-numeric relevance_score for document ${index}`);
      }
      scores[index] = score;
    }
    const meta = isRecord(answer) && isRecord(answer.meta) ? answer.meta.billed_units : undefined;
    return { scores, usage: usageOf(isRecord(answer) && answer.usage ? answer.usage : meta) };
  }
}

/**
 * A {@link Reranker} behind a `/rerank` endpoint. Documents travel as the protocol's `documents`
 * array, apart from the query. An answer that does not score every document exactly once is a
 * `REMOTE_RESPONSE` error, never a partial ranking.
 *
 * @example
 * const reranker = remoteReranker({ baseUrl: 'https://api.jina.ai/v1', apiKey, model: 'jina-reranker-v2-base-multilingual' });
 * const longship = await openLongship({ reranker });
 */
export function remoteReranker(options: RemoteRerankerOptions): Reranker {
  return new RemoteReranker(options);
}

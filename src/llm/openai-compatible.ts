// The chat side of an OpenAI-compatible API (`POST {baseUrl}/chat/completions`): OpenAI, Azure
// OpenAI, Ollama, vLLM, LM Studio, llama.cpp's server…
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import {
  type EndpointOptions,
  endpointOptionsSchema,
  isRecord,
  JsonEndpoint,
} from '../remote/json-endpoint.js';
import {
  addUsage,
  type ChatMessage,
  type CompleteOptions,
  type Completion,
  type LLM,
  noUsage,
  type TokenUsage,
} from './llm.js';

export type OpenAiCompatibleLlmOptions = EndpointOptions;

/** The LLM {@link openAiCompatibleLlm} makes. @internal */
export class OpenAiCompatibleLlm implements LLM {
  readonly model: string;
  readonly #endpoint: JsonEndpoint;
  #usage: TokenUsage = noUsage;

  constructor(options: OpenAiCompatibleLlmOptions) {
    checkOptions(endpointOptionsSchema, options, 'openAiCompatibleLlm()');
    this.#endpoint = new JsonEndpoint(options, 'chat/completions', 'openAiCompatibleLlm()');
    this.model = this.#endpoint.model;
  }

  get usage(): TokenUsage {
    return this.#usage;
  }

  async complete(messages: readonly ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    if (!Array.isArray(messages) || messages.length === 0) {
      throw new LongshipError('INVALID_ARGUMENT', 'complete() takes a non-empty array of messages');
    }
    const body: Record<string, unknown> = {
      messages: messages.map(({ role, content }) => ({ role, content })),
      temperature: options.temperature ?? 0,
    };
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    if (options.json) body.response_format = { type: 'json_object' };
    const answer = await this.#endpoint.post(body, options);
    const choice = isRecord(answer) && Array.isArray(answer.choices) ? answer.choices[0] : undefined;
    const message = isRecord(choice) ? choice.message : undefined;
    const text = isRecord(message) ? message.content : undefined;
    // Some servers send `content: null` with a refusal or a tool call: for us, an empty answer.
    if (text !== null && typeof text !== 'string') {
      throw this.#endpoint.badResponse('has no choices[0].message.content', answer);
    }
    const usage = usageOf(isRecord(answer) ? answer.usage : undefined);
    this.#usage = addUsage(this.#usage, usage);
    return { text: text ?? '', usage };
  }
}

/**
 * An {@link LLM} behind `POST {baseUrl}/chat/completions`. 429 and 5xx answers, timeouts and network
 * failures are retried with backoff; at most `maxConcurrent` requests are in flight; the API key
 * never appears in an error.
 *
 * @example
 * const llm = openAiCompatibleLlm({ baseUrl: 'https://api.openai.com/v1', apiKey, model: 'gpt-4o-mini' });
 * const longship = await openLongship({ llm });
 */
export function openAiCompatibleLlm(options: OpenAiCompatibleLlmOptions): LLM {
  return new OpenAiCompatibleLlm(options);
}

/** OpenAI's `usage` (and Cohere/Jina's `meta.billed_units` / `usage`), tolerant of what is missing. */
export function usageOf(value: unknown): TokenUsage {
  if (!isRecord(value)) return noUsage;
  const number = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : 0);
  const promptTokens = number(value.prompt_tokens ?? value.input_tokens);
  const completionTokens = number(value.completion_tokens ?? value.output_tokens);
  const totalTokens = number(value.total_tokens) || promptTokens + completionTokens;
  return { promptTokens, completionTokens, totalTokens };
}

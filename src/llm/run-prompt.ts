import type * as v from 'valibot';
import { parseOutput } from './json-output.js';
import type { CompleteOptions, LLM, TokenUsage } from './llm.js';
import type { Prompt } from './prompts.js';

export interface PromptResult<T> {
  output: T;
  usage: TokenUsage;
}

/**
 * Sends a prompt and checks its answer against the prompt's schema. Rejects with a `LongshipError`:
 * the LLM's own codes, or `LLM_OUTPUT` for an answer without fitting JSON.
 *
 * @example
 * const { output } = await runPrompt(llm, intentPrompt, { query, recent: [] }, { timeoutMs: 10_000 });
 */
export async function runPrompt<Input, S extends v.GenericSchema>(
  llm: LLM,
  prompt: Prompt<Input, S>,
  input: Input,
  options: Omit<CompleteOptions, 'json'> = {},
): Promise<PromptResult<v.InferOutput<S>>> {
  const { text, usage } = await llm.complete(prompt.messages(input), { ...options, json: true });
  return { output: parseOutput(prompt.schema, text, `${prompt.id} v${prompt.version}`), usage };
}

// The `llm` a page sent its worker (worker-options.ts), made into the engine's LLM in the worker,
// where a live object can be made (docs/guide/worker.md, "An LLM").
import type { LLM } from '../llm/llm.js';
import { openAiCompatibleLlm } from '../llm/openai-compatible.js';
import { checkWorkerLlm, type WorkerOptions } from './worker-options.js';

/**
 * The LLM `options.llm` describes, or undefined where it names none. A shape the page did not check
 * (a transport of your own) is INVALID_ARGUMENT here; `openAiCompatibleLlm()` checks the values.
 *
 * @example
 * exposeLongship({ open: (options) => openLongship({ store, embedder, llm: workerLlm(options) }) });
 */
export function workerLlm(options: WorkerOptions): LLM | undefined {
  const llm = checkWorkerLlm(options.llm, 'the worker');
  return llm && openAiCompatibleLlm(llm.openAiCompatible);
}

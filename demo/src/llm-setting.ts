// The agent panel's optional LLM endpoint (docs/guide/demo.md, "Agent panel"): what the visitor set,
// kept in this tab's sessionStorage only (the API key too: never localStorage, never the store),
// and the worker's `llm` option made from it (docs/guide/worker.md, "An LLM").
import type { WorkerOptions } from '../../src/worker/worker-options.js';

export interface LlmSetting {
  /** The API root, e.g. `https://api.openai.com/v1`: requests go to `{baseUrl}/chat/completions`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
}

const storageKey = 'longship-demo:llm';

/** Why `setting` cannot be used, or undefined when it can; said to the visitor as it is. */
export function problemOf(setting: LlmSetting): string | undefined {
  let url: URL;
  try {
    url = new URL(setting.baseUrl);
  } catch {
    return 'The base URL must be a full URL, like https://api.openai.com/v1.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'The base URL must start with http(s)://.';
  if (url.username || url.password) return 'Put the key in the API key field, not in the URL.';
  if (setting.model.trim() === '') return 'Name the model, like gpt-4o-mini.';
  return undefined;
}

/** The setting of this tab, or undefined when there is none (or it is no longer usable). */
export function savedLlm(): LlmSetting | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Partial<LlmSetting> | null;
    if (typeof value?.baseUrl !== 'string' || typeof value.model !== 'string') return undefined;
    const setting: LlmSetting = { baseUrl: value.baseUrl, model: value.model };
    if (typeof value.apiKey === 'string' && value.apiKey !== '') setting.apiKey = value.apiKey;
    return problemOf(setting) ? undefined : setting;
  } catch {
    // No sessionStorage (a sandboxed frame), or something else under the key: no LLM.
    return undefined;
  }
}

/** Keeps `setting` for this tab, or forgets it (`undefined`). */
export function saveLlm(setting: LlmSetting | undefined): void {
  if (setting) sessionStorage.setItem(storageKey, JSON.stringify(setting));
  else sessionStorage.removeItem(storageKey);
}

/** The worker's `llm` option for this tab's setting, if it has one. */
export function llmOption(): WorkerOptions['llm'] {
  const setting = savedLlm();
  return setting && { openAiCompatible: { ...setting, maxRetries: 1 } };
}

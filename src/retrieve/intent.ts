// search() step 1 (docs/guide/retrieval.md, "Intent analysis"): from the session and the query, the
// typed queries to run. With an LLM they come from {@link intentPrompt}; without one, or when it
// fails, the query itself is searched in every context type, and the plan says why.
import * as v from 'valibot';
import { abortError } from '../abort.js';
import { startDeadline } from '../deadline.js';
import { LongshipError } from '../errors.js';
import type { LLM, TokenUsage } from '../llm/llm.js';
import { intentPrompt } from '../llm/prompts.js';
import { runPrompt } from '../llm/run-prompt.js';
import type { ContextType } from '../store/store.js';

/** One query of a plan: OpenViking's `TypedQuery`, its fields in camelCase. */
export interface TypedQuery {
  query: string;
  contextType: ContextType;
  intent: string;
  /** 1 (most important) to 5. The merge weighs a result by `priorityWeight`. */
  priority: number;
}

/** What search() reads of a session: its summary, if any, and its latest messages, oldest first. */
export interface ConversationContext {
  summary?: string;
  recent: readonly { role: string; text: string }[];
}

export interface QueryPlan {
  queries: TypedQuery[];
  /** `'llm'`: planned by the LLM. `'fallback'`: the query as given, in every allowed context type. */
  source: 'llm' | 'fallback';
  /** Why the fallback was used: no LLM, or the LLM's error (code and message). */
  fallbackReason?: string;
  /** The LLM's own reasoning, when it gave one. */
  reasoning?: string;
  usage?: TokenUsage;
  elapsedMs: number;
}

export interface IntentOptions {
  /** Most time for the LLM's answer, retries included (default 10 000). */
  timeoutMs?: number;
}

/** @internal */
export const intentOptionsSchema = v.strictObject({
  timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

/** Priority 1 → 1.0, 3 → 0.8, 5 → 0.6: lower priorities count, but less. */
export function priorityWeight(priority: number): number {
  return 1 - 0.1 * (Math.min(5, Math.max(1, priority)) - 1);
}

/**
 * Plans the typed queries for `query`. Never fails because of the LLM: a timeout, an HTTP error or
 * an answer that does not fit the schema gives the fallback plan. Only the caller's own abort
 * (`ABORTED`) rejects.
 *
 * @example
 * const plan = await planQueries(llm, 'What style do I like?', context, ['memory', 'resource', 'skill']);
 * if (plan.source === 'fallback') console.warn(plan.fallbackReason);
 */
export async function planQueries(
  llm: LLM | undefined,
  query: string,
  context: ConversationContext | undefined,
  allowed: readonly ContextType[],
  options: IntentOptions & { signal?: AbortSignal } = {},
): Promise<QueryPlan> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fallback = (reason: string, usage?: TokenUsage): QueryPlan => ({
    queries: allowed.map((type) => ({
      query,
      contextType: type,
      intent: 'the query as given',
      priority: 3,
    })),
    source: 'fallback',
    fallbackReason: reason,
    ...(usage ? { usage } : {}),
    elapsedMs: elapsed(),
  });
  if (!llm) return fallback('no LLM endpoint is configured');
  const timeoutMs = options.timeoutMs ?? 10_000;
  // One deadline for the whole call, retries included, whatever the LLM client does with timeoutMs.
  const deadline = startDeadline(timeoutMs, options.signal, 'intent analysis');
  try {
    const { output, usage } = await deadline.race(
      runPrompt(
        llm,
        intentPrompt,
        { query, ...(context?.summary ? { summary: context.summary } : {}), recent: context?.recent ?? [] },
        { signal: deadline.signal, timeoutMs },
      ),
    );
    // The prompt's JSON keeps OpenViking's key; the plan speaks camelCase.
    const queries = output.queries
      .map(({ query, context_type, intent, priority }) => ({
        query,
        contextType: context_type,
        intent,
        priority,
      }))
      .filter((q) => allowed.includes(q.contextType));
    return {
      queries,
      source: 'llm',
      ...(output.reasoning ? { reasoning: output.reasoning } : {}),
      usage,
      elapsedMs: elapsed(),
    };
  } catch (error) {
    if (options.signal?.aborted) throw abortError(options.signal, 'search()');
    if (deadline.passed()) return fallback(`TIMEOUT: no plan within ${timeoutMs} ms`);
    if (error instanceof LongshipError) return fallback(`${error.code}: ${error.message}`);
    // A custom LLM threw something else: still a fallback, never a failed search.
    return fallback(`LLM failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    deadline.clear();
  }
}

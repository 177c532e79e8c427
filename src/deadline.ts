// One deadline over a piece of work that may make several calls (an LLM's plan, a rerank, memory
// extraction): the calls get its signal, and `race` holds the deadline and the caller's abort even
// for a call that ignores its signal.
import { raceAbort } from './abort.js';
import { LongshipError } from './errors.js';

export interface Deadline {
  /**
   * Fires at the deadline (its reason a `TIMEOUT` LongshipError), when the caller's signal does
   * (with the caller's reason), or at {@link Deadline.clear}.
   */
  readonly signal: AbortSignal;
  /** Settles as `work` does, or rejects as soon as {@link Deadline.signal} fires (see src/abort.ts). */
  race<T>(work: Promise<T>): Promise<T>;
  /** Whether the deadline (not the caller) ended it. */
  passed(): boolean;
  /** Stops the timer, leaves the caller's signal, and aborts whatever still runs on `signal`. */
  clear(): void;
}

/**
 * A deadline `ms` from now that also follows `signal`; `what` names the work in the `TIMEOUT`.
 *
 * @example
 * const deadline = startDeadline(60_000, options.signal, 'memory extraction');
 * try { await deadline.race(work(deadline.signal)); } finally { deadline.clear(); }
 */
export function startDeadline(ms: number, signal: AbortSignal | undefined, what: string): Deadline {
  const controller = new AbortController();
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
    controller.abort(new LongshipError('TIMEOUT', `${what} took longer than its ${ms} ms deadline`));
  }, ms);
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  if (signal?.aborted) forward();
  return {
    signal: controller.signal,
    race: (work) => raceAbort(work, [controller.signal], what),
    passed: () => passed,
    clear() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
      controller.abort(new LongshipError('ABORTED', `${what} is over`));
    },
  };
}

// One deadline over several LLM calls (memory extraction at commit): the calls get its signal, and
// a race against `expired` holds it even for an LLM that ignores its signal.
import { LongshipError } from '../errors.js';

export interface Deadline {
  /** Fires at the deadline or when the caller's signal does. */
  readonly signal: AbortSignal;
  /** Rejects with `TIMEOUT` at the deadline (never with the caller's abort). */
  readonly expired: Promise<never>;
  /** Whether the deadline (not the caller) ended it. */
  passed(): boolean;
  /** Stops the timer and leaves the caller's signal. */
  clear(): void;
}

/**
 * A deadline `ms` from now that also follows `signal`.
 *
 * @example
 * const deadline = startDeadline(60_000, options.signal, 'memory extraction');
 * try { await Promise.race([work(deadline.signal), deadline.expired]); } finally { deadline.clear(); }
 */
export function startDeadline(ms: number, signal: AbortSignal | undefined, what: string): Deadline {
  const controller = new AbortController();
  let passed = false;
  let fail!: (error: LongshipError) => void;
  const expired = new Promise<never>((_, reject) => {
    fail = reject;
  });
  expired.catch(() => undefined);
  const timer = setTimeout(() => {
    passed = true;
    const error = new LongshipError('TIMEOUT', `${what} took longer than its ${ms} ms deadline`);
    controller.abort(error);
    fail(error);
  }, ms);
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  if (signal?.aborted) forward();
  return {
    signal: controller.signal,
    expired,
    passed: () => passed,
    clear() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    },
  };
}

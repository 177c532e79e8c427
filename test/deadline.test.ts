import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { startDeadline } from '../src/deadline.js';
import { LongshipError } from '../src/errors.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const never = () => new Promise<never>(() => undefined);

it('rejects work that ignores its signal with TIMEOUT at the deadline', async () => {
  const deadline = startDeadline(100, undefined, 'the plan');
  const raced = deadline.race(never());
  const settled = expect(raced).rejects.toMatchObject({
    code: 'TIMEOUT',
    message: 'the plan took longer than its 100 ms deadline',
  });
  await vi.advanceTimersByTimeAsync(100);
  await settled;
  expect(deadline.passed()).toBe(true);
  expect(deadline.signal.reason).toBeInstanceOf(LongshipError);
  deadline.clear();
});

it("follows the caller's abort at once, and does not count it as the deadline", async () => {
  const caller = new AbortController();
  const deadline = startDeadline(10_000, caller.signal, 'the rerank');
  const raced = deadline.race(never());
  caller.abort(new Error('user left'));
  await expect(raced).rejects.toMatchObject({ code: 'ABORTED', cause: new Error('user left') });
  expect(deadline.signal.aborted).toBe(true);
  expect(deadline.passed()).toBe(false);
  deadline.clear();
});

it('starts aborted when the caller already is', async () => {
  const caller = new AbortController();
  caller.abort();
  const deadline = startDeadline(10_000, caller.signal, 'the plan');
  expect(deadline.signal.aborted).toBe(true);
  await expect(deadline.race(Promise.resolve(1))).rejects.toMatchObject({ code: 'ABORTED' });
  deadline.clear();
});

it('passes work that settles in time, and clear() stops the timer and ends what still runs', async () => {
  const caller = new AbortController();
  const deadline = startDeadline(100, caller.signal, 'the plan');
  await expect(deadline.race(Promise.resolve('done'))).resolves.toBe('done');
  deadline.clear();
  expect(deadline.signal.aborted).toBe(true);
  await vi.advanceTimersByTimeAsync(200);
  expect(deadline.passed()).toBe(false);
  // The caller's signal no longer reaches it.
  caller.abort(new Error('late'));
  expect((deadline.signal.reason as LongshipError).code).toBe('ABORTED');
});

// Asking shards, each within its deadline: a shard that fails or is late is left out of the answer
// and named, once, in the list of missing shards; the others' answers are used.
import { LongshipError } from '../errors.js';
import type { CorpusShard } from './shard-protocol.js';

/** A shard left out of a result. */
export interface MissingShard {
  /** Its index in the corpus's shards. */
  shard: number;
  /** `'timeout'`: no answer within the deadline; `'error'`: it failed (unreachable, an error thrown). */
  reason: 'timeout' | 'error';
  message: string;
}

/** The answers by shard index, in index order. */
export type Answers<T> = Map<number, T>;

/**
 * Asks the shards at `indexes` at once; each has `deadlineMs`. Those that fail or are late are
 * added to `missing` (once each) and absent from the answers.
 */
export async function askAll<T>(
  shards: readonly CorpusShard[],
  indexes: readonly number[],
  call: (shard: CorpusShard, index: number) => Promise<T>,
  deadlineMs: number,
  missing: MissingShard[],
): Promise<Answers<T>> {
  const settled = await Promise.all(
    indexes.map(async (index) => {
      try {
        return { index, answer: await withDeadline(call(shards[index]!, index), deadlineMs) };
      } catch (error) {
        if (!missing.some((left) => left.shard === index)) {
          const late = error instanceof LongshipError && error.code === 'TIMEOUT';
          missing.push({ shard: index, reason: late ? 'timeout' : 'error', message: messageOf(error) });
          missing.sort((a, b) => a.shard - b.shard);
        }
        return undefined;
      }
    }),
  );
  const answers: Answers<T> = new Map();
  for (const each of settled) if (each) answers.set(each.index, each.answer);
  return answers;
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LongshipError('TIMEOUT', `no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

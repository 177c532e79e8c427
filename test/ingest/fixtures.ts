/** Small generated fixtures for the ingest tests: deterministic prose of a chosen size. */
import { expect } from 'vitest';
import { LongshipError } from '../../src/errors.js';

const WORDS = `harbour keel rowing tide compass lantern cargo timber anchor voyage river fjord sail mast
crew oar rope plank storm shore beacon chart island current`.split(/\s+/);

/**
 * `count` sentences of about ten words each about `topic` (≈ 18 tokens per sentence), numbered so
 * that no two sentences are equal.
 */
export function prose(topic: string, count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const a = WORDS[i % WORDS.length]!;
    const b = WORDS[(i * 7 + 3) % WORDS.length]!;
    return `The ${topic} ${a} keeps the ${b} steady on day ${i} of the crossing.`;
  }).join(' ');
}

/** The LongshipError `run` rejects with; fails the test on any other outcome. */
export async function rejectsWith(
  run: () => Promise<unknown> | unknown,
  code: string,
): Promise<LongshipError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe(code);
    return error as LongshipError;
  }
  throw new Error(`expected a ${code} error`);
}

// context()'s budget as a plain number of tokens (issue 33): `budget: 500` is `{ tokens: 500 }`, and
// a budget of the wrong shape is refused with words that say what shape is wanted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

let longship: Longship;

beforeAll(async () => {
  const embedder = bagOfWordsEmbedder();
  longship = await openLongship({
    store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
    embedder,
  });
  await longship.write('viking://resources/retries.md', 'Uploads retry with exponential backoff.');
});
afterAll(() => longship.close());

describe('context() budget', () => {
  it('takes a number as that many tokens', async () => {
    const asNumber = await longship.context('upload retries', { budget: 500 });
    const asObject = await longship.context('upload retries', { budget: { tokens: 500 } });
    expect(asNumber.budget).toEqual({ tokens: 500 });
    expect(asNumber).toEqual(asObject);
    expect(asNumber.parts.map((part) => part.uri)).toEqual(['viking://resources/retries.md']);
  });

  it.each([
    [{ budget: 0 }, /^context\(\): option 'budget' must be ≥ 1, not 0$/],
    [{ budget: 1.5 }, /^context\(\): option 'budget' must be a whole number, not 1\.5$/],
    [{ budget: '500' }, /^context\(\): option 'budget' must be a number of tokens \(500\) or \{ tokens \}/],
    [{ budget: { token: 5 } }, /option 'budget' must be a number of tokens \(500\) or \{ tokens \}/],
    [{ budget: { tokens: 0 } }, /option 'budget\.tokens' must be ≥ 1, not 0/],
    [{}, /^context\(\): option 'budget' is required$/],
    // Any option of the wrong shape is named for its shape, not reported as missing.
    [{ budget: 500, quotas: 5 }, /^context\(\): option 'quotas' must be an object, not 5$/],
  ])('%j is INVALID_ARGUMENT saying what is wanted', async (options, message) => {
    const refused = await longship.context('upload retries', options as never).catch((error) => error);
    expect(refused).toBeInstanceOf(LongshipError);
    expect(refused.code).toBe('INVALID_ARGUMENT');
    expect(refused.message).toMatch(message);
  });
});

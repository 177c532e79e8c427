import { describe, expect, it } from 'vitest';
import { abortError, throwIfAborted } from '../../src/abort.js';
import { embedInBatches } from '../../src/embed/batch.js';
import { LongshipError } from '../../src/errors.js';

const vector = (text: string) => new Float32Array([text.length]);
const lengths = async (batch: string[]) => batch.map(vector);

describe('embedInBatches', () => {
  it('runs bounded batches in order and reports progress after each', async () => {
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const batches: string[][] = [];
    const progress: { done: number; total: number }[] = [];
    const vectors = await embedInBatches(
      texts,
      2,
      async (batch) => {
        batches.push(batch);
        return batch.map(vector);
      },
      { onProgress: (p) => progress.push(p) },
    );
    expect(batches).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    expect(vectors).toEqual(texts.map(vector));
    expect(progress).toEqual([
      { done: 2, total: 5 },
      { done: 4, total: 5 },
      { done: 5, total: 5 },
    ]);
  });

  it('does nothing for no texts', async () => {
    let calls = 0;
    const progress: unknown[] = [];
    const run = async () => {
      calls++;
      return [];
    };
    expect(await embedInBatches([], 8, run, { onProgress: (p) => progress.push(p) })).toEqual([]);
    expect(calls).toBe(0);
    expect(progress).toEqual([]);
  });

  it('passes the signal to each batch and checks it between batches', async () => {
    const controller = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    const promise = embedInBatches(
      ['a', 'b', 'c'],
      1,
      async (batch, signal) => {
        seen.push(signal);
        controller.abort(new Error('enough'));
        return batch.map(vector);
      },
      { signal: controller.signal },
    );
    await expect(promise).rejects.toMatchObject({ code: 'ABORTED', cause: new Error('enough') });
    expect(seen).toEqual([controller.signal]);
  });

  it('throws ABORTED without running anything when the signal has already fired', async () => {
    let calls = 0;
    const run = async (batch: string[]) => {
      calls++;
      return batch.map(vector);
    };
    await expect(embedInBatches(['a'], 1, run, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      LongshipError,
    );
    expect(calls).toBe(0);
  });

  it("turns a batch's own AbortError into ABORTED when the caller aborted", async () => {
    const controller = new AbortController();
    const run = async (_batch: string[], signal: AbortSignal | undefined) => {
      controller.abort();
      throw signal?.reason;
    };
    await expect(embedInBatches(['a'], 1, run, { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });

  it('passes other failures through untouched', async () => {
    const failure = new Error('model crashed');
    const run = async () => {
      throw failure;
    };
    await expect(embedInBatches(['a'], 1, run)).rejects.toBe(failure);
    const typed = new LongshipError('TIMEOUT', 'slow');
    const controller = new AbortController();
    const late = async () => {
      controller.abort();
      throw typed;
    };
    await expect(embedInBatches(['a'], 1, late, { signal: controller.signal })).rejects.toBe(typed);
  });

  it('refuses a batch that comes back with the wrong number of vectors', async () => {
    const short = async (batch: string[]) => batch.slice(1).map(vector);
    await expect(embedInBatches(['a', 'b'], 2, short)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses batchSize %d', async (size) => {
    await expect(embedInBatches(['a'], size, lengths)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('abortError and throwIfAborted', () => {
  it('carry the reason as cause', () => {
    const reason = new Error('bye');
    expect(abortError(AbortSignal.abort(reason))).toMatchObject({ code: 'ABORTED', cause: reason });
    expect(() => throwIfAborted(AbortSignal.abort(reason))).toThrow(LongshipError);
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
    expect(() => throwIfAborted(undefined)).not.toThrow();
  });
});

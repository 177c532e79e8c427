import { describe, expect, it } from 'vitest';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { LongshipError } from '../../src/errors.js';

const twoD = (texts: string[]) => texts.map((text) => [text.length, 1]);

describe('functionEmbedder', () => {
  it('is an Embedder: id, dimensions and Float32Array vectors in order', async () => {
    const embedder = functionEmbedder({
      id: 'lengths@1',
      dimensions: 2,
      embed: async (texts) => twoD(texts),
    });
    expect(embedder.id).toBe('lengths@1');
    expect(embedder.dimensions).toBe(2);
    const vectors = await embedder.embed(['a', 'bbb']);
    expect(vectors).toEqual([new Float32Array([1, 1]), new Float32Array([3, 1])]);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
  });

  it('calls the function in batches, passes the signal, and reports progress', async () => {
    const calls: string[][] = [];
    const signals: (AbortSignal | undefined)[] = [];
    const embedder = functionEmbedder({
      id: 'f',
      dimensions: 2,
      batchSize: 2,
      embed: async (texts, signal) => {
        calls.push(texts);
        signals.push(signal);
        return twoD(texts);
      },
    });
    const signal = new AbortController().signal;
    const progress: number[] = [];
    await embedder.embed(['a', 'b', 'c'], { signal, onProgress: ({ done }) => progress.push(done) });
    expect(calls).toEqual([['a', 'b'], ['c']]);
    expect(signals).toEqual([signal, signal]);
    expect(progress).toEqual([2, 3]);
  });

  it('copies returned Float32Arrays, so a reused buffer cannot overwrite earlier vectors', async () => {
    const scratch = new Float32Array(2);
    const embedder = functionEmbedder({
      id: 'f',
      dimensions: 2,
      batchSize: 1,
      embed: async (texts) => {
        scratch.set([texts[0]?.length ?? 0, 0]);
        return [scratch];
      },
    });
    expect(await embedder.embed(['a', 'bb'])).toEqual([new Float32Array([1, 0]), new Float32Array([2, 0])]);
  });

  it('reports vectors of another length as DIMENSION_MISMATCH', async () => {
    const embedder = functionEmbedder({ id: 'f', dimensions: 3, embed: async (texts) => twoD(texts) });
    await expect(embedder.embed(['a'])).rejects.toMatchObject({
      code: 'DIMENSION_MISMATCH',
      message: expect.stringContaining('2-dimensional'),
    });
  });

  it.each([
    ['too few vectors', async () => [[1, 2]]],
    ['not an array', async () => ({ vectors: [] }) as unknown as number[][]],
    ['a vector that is not an array', async () => ['ab', 'cd'] as unknown as number[][]],
    [
      'NaN',
      async () => [
        [1, Number.NaN],
        [1, 2],
      ],
    ],
    ['Infinity', async () => [[1, 2], new Float32Array([1, Number.POSITIVE_INFINITY])]],
    [
      'null',
      async () =>
        [
          [1, null],
          [1, 2],
        ] as unknown as number[][],
    ],
    [
      'a boolean',
      async () =>
        [
          [1, true],
          [1, 2],
        ] as unknown as number[][],
    ],
  ])('rejects output with %s as INVALID_ARGUMENT', async (_, embed) => {
    const embedder = functionEmbedder({ id: 'f', dimensions: 2, embed });
    await expect(embedder.embed(['a', 'b'])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('turns an abort the function noticed into ABORTED', async () => {
    const controller = new AbortController();
    const embedder = functionEmbedder({
      id: 'f',
      dimensions: 2,
      embed: (_texts, signal) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    });
    const pending = embedder.embed(['a'], { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('passes the function’s own failure through', async () => {
    const failure = new Error('provider down');
    const embedder = functionEmbedder({
      id: 'f',
      dimensions: 2,
      embed: async () => {
        throw failure;
      },
    });
    await expect(embedder.embed(['a'])).rejects.toBe(failure);
  });

  it.each([
    { id: '' },
    { dimensions: 0 },
    { dimensions: 2.5 },
    { batchSize: 0 },
    { embed: 'not a function' as unknown as () => Promise<number[][]> },
  ])('rejects options %o with INVALID_ARGUMENT', (options) => {
    const create = () => functionEmbedder({ id: 'f', dimensions: 2, embed: async () => [], ...options });
    expect(create).toThrow(LongshipError);
    expect(create).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

describe('embedder options', () => {
  it('refuses an unknown option of functionEmbedder, naming it', () => {
    const embed = async (texts: string[]) => texts.map(() => new Float32Array(4));
    expect(() => functionEmbedder({ id: 'x', dimensions: 4, embed, batch_size: 8 } as never)).toThrow(
      /functionEmbedder: unknown option 'batch_size'/,
    );
  });

  it('refuses an unknown option of transformersEmbedder, naming it, and a bad device', () => {
    expect(() => transformersEmbedder({ dtypes: 'q8' } as never)).toThrow(
      /transformersEmbedder\(\): unknown option 'dtypes'/,
    );
    expect(() => transformersEmbedder({ device: 'gpu' } as never)).toThrow(/option 'device'/);
    expect(transformersEmbedder({ dtype: 'q8', batchSize: 8 }).id).toBe('longship/use-lite');
  });
});

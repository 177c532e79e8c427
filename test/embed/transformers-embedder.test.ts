import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AutoModel, env } from '@huggingface/transformers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundledModel } from '../../src/embed/bundled-model.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { LongshipError } from '../../src/errors.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

const similarPairs: [string, string][] = [
  ['How do I reset my password?', 'I forgot my password and need to change it.'],
  ['The cat is sleeping on the sofa.', 'A kitten naps on the couch.'],
  ['What is the weather like tomorrow?', 'Will it rain tomorrow?'],
  ['The stock market fell sharply today.', 'Share prices dropped a lot this afternoon.'],
  ['She plays the violin in an orchestra.', 'He is a cellist in a symphony orchestra.'],
  ['Add two numbers in Python.', 'How to sum integers with Python code'],
  ['The restaurant serves excellent pasta.', 'This Italian place has great spaghetti.'],
  ['Our flight to Tokyo was delayed.', 'The plane to Japan left late.'],
];

async function rejection(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

describe('transformersEmbedder with the bundled model', () => {
  const embedder = transformersEmbedder();

  it('is the bundled USE-lite: id and 512 dimensions', () => {
    expect(embedder.id).toBe(bundledModel.id);
    expect(embedder.dimensions).toBe(512);
  });

  it('scores similar sentences above unrelated ones', async () => {
    const vectors = await embedder.embed(similarPairs.flat());
    const left = vectors.filter((_, i) => i % 2 === 0);
    const right = vectors.filter((_, i) => i % 2 === 1);
    left.forEach((a, i) => {
      const similar = dot(a, right[i]!);
      const unrelated = right.filter((_, j) => j !== i).map((b) => dot(a, b));
      expect(similar, similarPairs[i]![0]).toBeGreaterThan(Math.max(...unrelated));
    });
  });

  it('returns unit vectors that do not depend on the batch they were in', async () => {
    const texts = ['short', 'a somewhat longer sentence about ships and the sea', '', 'word '.repeat(300)];
    const together = await transformersEmbedder({ batchSize: 4 }).embed(texts);
    const alone = await transformersEmbedder({ batchSize: 1 }).embed(texts);
    together.forEach((vector, i) => {
      expect(vector).toHaveLength(512);
      expect(dot(vector, vector)).toBeCloseTo(1, 5);
      expect(dot(vector, alone[i]!)).toBeGreaterThan(0.99999);
    });
  });

  it('reads only the first 128 tokens', async () => {
    const [long, cut] = await embedder.embed(['word '.repeat(300), `${'word '.repeat(127)}word`]);
    expect(dot(long!, cut!)).toBeGreaterThan(0.99999);
  });

  it('reports progress after each batch and stops between batches when aborted', async () => {
    const small = transformersEmbedder({ batchSize: 2 });
    const progress: number[] = [];
    expect(
      await small.embed(['a', 'b', 'c'], { onProgress: ({ done }) => progress.push(done) }),
    ).toHaveLength(3);
    expect(progress).toEqual([2, 3]);

    const controller = new AbortController();
    const seen: number[] = [];
    const error = await rejection(
      small.embed(['a', 'b', 'c', 'd', 'e'], {
        signal: controller.signal,
        onProgress: ({ done }) => {
          seen.push(done);
          controller.abort();
        },
      }),
    );
    expect(error.code).toBe('ABORTED');
    expect(seen).toEqual([2]);
  });

  it('embeds nothing without loading anything', async () => {
    expect(
      await transformersEmbedder({ model: 'file:///nonexistent/model/', dimensions: 3 }).embed([]),
    ).toEqual([]);
  });

  it('leaves transformers.js settings as it found them, but remote models off', async () => {
    await transformersEmbedder().embed(['x']);
    const before = { ...env, backends: undefined };
    await transformersEmbedder({ dtype: 'fp32' }).embed(['x']);
    expect({ ...env, backends: undefined }).toEqual(before);
    expect(env.allowRemoteModels).toBe(false);
    expect(env.remoteHost).toBe('');
  });
});

describe('transformersEmbedder options', () => {
  it('loads a local model by folder and name', async () => {
    const byName = transformersEmbedder({
      model: 'use-lite',
      localModelPath: new URL('../../model/', import.meta.url),
      dimensions: 512,
    });
    expect(byName.id).toBe('use-lite');
    const [a] = await byName.embed(['hello']);
    const [b] = await transformersEmbedder().embed(['hello']);
    expect(dot(a!, b!)).toBeGreaterThan(0.99999);
  });

  it('fails with MODEL_LOAD, offline, when a local model is missing, and can retry', async () => {
    const empty = pathToFileURL(join(mkdtempSync(join(tmpdir(), 'longship-model-')), 'none/'));
    const missing = transformersEmbedder({ model: empty.href, dimensions: 512 });
    expect((await rejection(missing.embed(['x']))).code).toBe('MODEL_LOAD');
    expect((await rejection(missing.embed(['x']))).code).toBe('MODEL_LOAD');
    expect(env.allowRemoteModels).toBe(false);
  });

  describe('a load that fails midway', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('never asks a remote host for a file, and leaves remote models off', async () => {
      // A folder with the model's config but no tokenizer and no weights: the tokenizer fails
      // first, while the model is still loading.
      const folder = mkdtempSync(join(tmpdir(), 'longship-half-model-'));
      copyFileSync(new URL('../../model/use-lite/config.json', import.meta.url), join(folder, 'config.json'));
      mkdirSync(join(folder, 'onnx'));
      // transformers.js fetches through env.fetch, which holds the fetch of when it was imported.
      const fetched: string[] = [];
      const realFetch = env.fetch;
      vi.spyOn(env, 'fetch').mockImplementation((input, init) => {
        fetched.push(input instanceof Request ? input.url : String(input));
        return realFetch(input, init);
      });
      // The model's half of the load, to know when it has ended.
      const modelLoads: Promise<unknown>[] = [];
      const fromPretrained = AutoModel.from_pretrained.bind(AutoModel);
      vi.spyOn(AutoModel, 'from_pretrained').mockImplementation((...args) => {
        const loading = fromPretrained(...args);
        modelLoads.push(loading.catch(() => undefined));
        return loading;
      });
      const half = transformersEmbedder({ model: pathToFileURL(`${folder}/`).href, dimensions: 512 });
      expect((await rejection(half.embed(['x']))).code).toBe('MODEL_LOAD');
      expect(modelLoads).toHaveLength(1);
      await modelLoads[0];
      expect(fetched).toEqual([]);
      expect(env.allowRemoteModels).toBe(false);
      expect(env.remoteHost).toBe('');
    });
  });

  it('says in Node that a model given as files needs a directory', async () => {
    const files = transformersEmbedder({
      model: { ...bundledModel, files: { 'config.json': new Uint8Array([123, 125]) } },
    });
    const error = await rejection(files.embed(['x']));
    expect(error.code).toBe('MODEL_LOAD');
    expect((error.cause as LongshipError).code).toBe('INVALID_ARGUMENT');
  });

  it('rejects bad options', () => {
    const code = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return (error as LongshipError).code;
      }
      return undefined;
    };
    expect(code(() => transformersEmbedder({ model: 'Xenova/all-MiniLM-L6-v2' }))).toBe('INVALID_ARGUMENT');
    expect(code(() => transformersEmbedder({ batchSize: 0 }))).toBe('INVALID_ARGUMENT');
    expect(code(() => transformersEmbedder({ batchSize: 257 }))).toBe('INVALID_ARGUMENT');
    expect(code(() => transformersEmbedder({ dtype: 'fp16' as 'q8' }))).toBe('INVALID_ARGUMENT');
    // A model folder has a directory or files, one of the two, and files are URLs or bytes.
    const folder = { id: 'm', dimensions: 3 };
    expect(code(() => transformersEmbedder({ model: folder }))).toBe('INVALID_ARGUMENT');
    expect(code(() => transformersEmbedder({ model: { ...folder, directory: '/m/', files: {} } }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(
      code(() => transformersEmbedder({ model: { ...folder, files: { 'config.json': 42 as never } } })),
    ).toBe('INVALID_ARGUMENT');
    expect(
      code(() => transformersEmbedder({ model: { ...folder, directory: '/m/', dirctory: 1 } as never })),
    ).toBe('INVALID_ARGUMENT');
    // onnxruntime-web's WebGPU build is not shipped: naming its files is the caller's part.
    expect(code(() => transformersEmbedder({ device: 'webgpu' }))).toBe('INVALID_ARGUMENT');
    expect(transformersEmbedder({ model: 'Xenova/all-MiniLM-L6-v2', dimensions: 384 }).id).toBe(
      'Xenova/all-MiniLM-L6-v2',
    );
  });
});

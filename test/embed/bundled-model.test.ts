// The converted USE-lite (model/use-lite, built by `npm run build:model`) against the TF.js original.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AutoModel, pipeline, Tensor } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openReference, type UseLiteReference } from './use-lite-reference.js';
import { varietyTexts } from './use-lite-texts.js';

// A path, not a hub id: transformers.js then reads the folder directly and never goes online.
const directory = fileURLToPath(new URL('../../model/use-lite/', import.meta.url));

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(aa * bb);
}

/** Runs the ONNX model on token ids, right-padded, in batches of `batchSize`. */
async function embedIds(dtype: 'fp32' | 'q8', ids: number[][], batchSize = 16): Promise<Float32Array[]> {
  const model = await AutoModel.from_pretrained(directory, { dtype });
  const vectors: Float32Array[] = [];
  for (let start = 0; start < ids.length; start += batchSize) {
    const batch = ids.slice(start, start + batchSize);
    const length = Math.max(...batch.map((row) => row.length));
    const inputIds = new BigInt64Array(batch.length * length);
    const mask = new BigInt64Array(batch.length * length);
    for (const [i, row] of batch.entries()) {
      for (const [j, id] of row.entries()) {
        inputIds[i * length + j] = BigInt(id);
        mask[i * length + j] = 1n;
      }
    }
    const dims = [batch.length, length];
    const { sentence_embedding } = await model({
      input_ids: new Tensor('int64', inputIds, dims),
      attention_mask: new Tensor('int64', mask, dims),
    });
    const data = sentence_embedding.data as Float32Array;
    batch.forEach((_, i) => {
      vectors.push(data.slice(i * 512, (i + 1) * 512));
    });
  }
  await model.dispose();
  return vectors;
}

describe('the bundled USE-lite model', () => {
  let reference: UseLiteReference;
  let expected: number[][];

  beforeAll(async () => {
    if (!existsSync(directory)) throw new Error(`${directory} is missing: run npm run build:model`);
    reference = await openReference();
    expected = await reference.embed(varietyTexts);
  });

  it('has texts longer than its 128-token window among the test texts', () => {
    expect(varietyTexts.length).toBeGreaterThanOrEqual(50);
    expect(
      varietyTexts.filter((text) => reference.tokenize(text).length > 128).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it.each([
    ['fp32', 0.9999],
    ['q8', 0.995],
  ] as const)(
    '%s agrees with the TF.js original on the same token ids (cosine ≥ %s)',
    async (dtype, floor) => {
      const vectors = await embedIds(dtype, varietyTexts.map(reference.tokenize));
      const cosines = vectors.map((vector, i) => cosine(vector, expected[i]!));
      console.log(`${dtype}: min cosine ${Math.min(...cosines).toFixed(7)} over ${cosines.length} texts`);
      expect(Math.min(...cosines)).toBeGreaterThanOrEqual(floor);
    },
  );

  it("q8: a text's vector does not depend on the texts batched with it", async () => {
    // The int8 graph quantizes activations as it runs; with one scale per token, not per batch,
    // a batch's outliers cannot move anyone else's vector.
    const ids = varietyTexts.map(reference.tokenize);
    const [alone, together] = [await embedIds('q8', ids, 1), await embedIds('q8', ids, 16)];
    const worst = Math.max(
      ...alone.flatMap((vector, i) => Array.from(vector, (value, j) => Math.abs(value - together[i]![j]!))),
    );
    expect(worst).toBeLessThan(1e-6);
  });

  it('agrees end to end, through its own tokenizer, in the embedder', async () => {
    const vectors = await transformersEmbedder({ dtype: 'fp32', batchSize: 8 }).embed(varietyTexts);
    const cosines = vectors.map((vector, i) => cosine(vector, expected[i]!));
    // One text tokenizes differently (a tie: "1"+"11" for "11"+"1"; see the tokenizer test), which
    // swaps two neighbouring tokens and barely moves the mean.
    expect(Math.min(...cosines)).toBeGreaterThanOrEqual(0.9999);
  });

  it("gives finished vectors through transformers.js's feature-extraction pipeline with pooling 'none'", async () => {
    const extractor = await pipeline('feature-extraction', directory, { dtype: 'fp32' });
    const output = await extractor(['hello world', 'The quick brown fox jumps over the lazy dog.'], {
      pooling: 'none',
    });
    expect(output.dims).toEqual([2, 512]);
    const data = output.data as Float32Array;
    expect(cosine(data.slice(0, 512), expected[varietyTexts.indexOf('hello world')]!)).toBeGreaterThan(
      0.9999,
    );
    await extractor.dispose();
  });
});

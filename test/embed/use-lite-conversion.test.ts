// tools/model/convert.ts: the same bytes every run, the layout transformers.js expects, sane sizes.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { AutoModel, Tensor } from '@huggingface/transformers';
import { afterAll, describe, expect, it } from 'vitest';
import { convertUseLite } from '../../tools/model/convert.js';
import { ModelProto } from '../../tools/model/onnx-schema.js';

function files(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)))
    .sort();
}

describe('the USE-lite conversion', () => {
  const first = mkdtempSync(join(tmpdir(), 'longship-use-lite-'));
  const second = mkdtempSync(join(tmpdir(), 'longship-use-lite-'));
  afterAll(() => {
    rmSync(first, { recursive: true, force: true });
    rmSync(second, { recursive: true, force: true });
  });

  it('writes identical bytes on every run, in seconds', () => {
    const started = performance.now();
    const sizes = convertUseLite(first);
    convertUseLite(second);
    console.log(`two conversions: ${((performance.now() - started) / 1000).toFixed(1)} s`, sizes);
    expect(files(first)).toEqual(files(second));
    for (const file of files(first)) {
      expect(readFileSync(join(first, file)).equals(readFileSync(join(second, file))), file).toBe(true);
    }
  });

  it('writes a transformers.js model folder', () => {
    expect(files(first)).toEqual([
      'LICENSE',
      'config.json',
      'onnx/model.onnx',
      'onnx/model_quantized.onnx',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    const size = (file: string) => readFileSync(join(first, file)).byteLength / 1e6;
    expect(size('onnx/model.onnx')).toBeGreaterThan(27);
    expect(size('onnx/model_quantized.onnx')).toBeLessThan(8);
  });

  it.each([
    ['fp32', 'model.onnx'],
    ['q8', 'model_quantized.onnx'],
  ] as const)('%s: %s takes input_ids and attention_mask, gives sentence_embedding', async (dtype, file) => {
    const { graph } = ModelProto.toObject(ModelProto.decode(readFileSync(join(first, 'onnx', file)))) as {
      graph: { input: { name: string }[]; output: { name: string }[] };
    };
    expect(graph.input.map((value) => value.name)).toEqual(['input_ids', 'attention_mask']);
    expect(graph.output.map((value) => value.name)).toEqual(['sentence_embedding', 'last_hidden_state']);
    // A row of nothing but padding (an empty text) works too: no NaN from the all-masked softmax.
    const model = await AutoModel.from_pretrained(first, { dtype });
    const ids = new Tensor('int64', new BigInt64Array(2), [1, 2]);
    const { sentence_embedding } = await model({ input_ids: ids, attention_mask: ids });
    expect(sentence_embedding.dims).toEqual([1, 512]);
    expect(Array.from(sentence_embedding.data as Float32Array).every(Number.isFinite)).toBe(true);
    // So does a batch of texts without a single token: [2, 0].
    const none = new Tensor('int64', new BigInt64Array(0), [2, 0]);
    const empty = await model({ input_ids: none, attention_mask: none });
    expect(empty.sentence_embedding.dims).toEqual([2, 512]);
    expect(Array.from(empty.sentence_embedding.data as Float32Array).every(Number.isFinite)).toBe(true);
    await model.dispose();
  });
});

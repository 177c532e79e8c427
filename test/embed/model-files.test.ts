// The fetch that answers transformers.js's requests for a model's files where it fetches them
// (browsers, workers, workerd): from bytes, from each file's URL, and nothing outside the folder.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bundledModelFiles } from '../../src/embed/bundled-model.js';
import { folderLookup, modelFileFetch, routedFolder } from '../../src/embed/model-files.js';

const at = (file: string) => `${routedFolder}model/${file}`;

describe('modelFileFetch', () => {
  it('answers with bytes, with a file URL, and 404 for a file the model lacks', async () => {
    const files = bundledModelFiles();
    const fetch = modelFileFetch('model', (name) =>
      name === 'tokenizer_config.json' ? new TextEncoder().encode('{"a":1}') : files[name],
    );
    expect(await (await fetch(at('tokenizer_config.json'))).json()).toEqual({ a: 1 });
    const config = await (await fetch(at('config.json'))).text();
    expect(config).toBe(await readFile(files['config.json'] as URL, 'utf8'));
    expect((await fetch(at('generation_config.json'))).status).toBe(404);
  });

  it('refuses anything outside the model folder, so nothing else is fetched', async () => {
    const fetch = modelFileFetch('model', () => new Uint8Array(1));
    await expect(fetch('https://huggingface.co/x/resolve/main/config.json')).rejects.toThrow(/outside/);
  });

  it('finds a folder’s files under its URL', () => {
    const lookup = folderLookup(new URL('https://app.example/models/use-lite'));
    expect(String(lookup('onnx/model_quantized.onnx'))).toBe(
      'https://app.example/models/use-lite/onnx/model_quantized.onnx',
    );
  });
});

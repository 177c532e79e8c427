// The options a page sends its worker: every URL in them as an absolute string, since a URL object
// does not survive structured clone and a relative one would resolve against the worker's script.
import { describe, expect, it } from 'vitest';
import { urlsForWorker } from '../../src/worker/worker-options.js';

const page = 'https://app.example/notes/index.html';

describe('urlsForWorker', () => {
  it('writes URL objects and page-relative strings as absolute strings, and survives structured clone', () => {
    const compiled = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    const bytes = new Uint8Array([1, 2, 3]);
    const wire = urlsForWorker(
      {
        store: { indexedDB: 'n' },
        usearch: new URL('/wasm/usearch.wasm', page),
        embedder: {
          transformers: {
            model: {
              id: 'm',
              dimensions: 3,
              files: { 'config.json': './model/config.json', 'onnx/model_quantized.onnx': bytes },
            },
            localModelPath: new URL('https://cdn.example/models/'),
            wasmPaths: { mjs: new URL('/ort/glue.mjs', page), wasm: compiled },
          },
        },
      },
      page,
    );
    expect(structuredClone(wire)).toEqual({
      store: { indexedDB: 'n' },
      usearch: 'https://app.example/wasm/usearch.wasm',
      embedder: {
        transformers: {
          model: {
            id: 'm',
            dimensions: 3,
            files: {
              'config.json': 'https://app.example/notes/model/config.json',
              'onnx/model_quantized.onnx': bytes,
            },
          },
          localModelPath: 'https://cdn.example/models/',
          wasmPaths: { mjs: 'https://app.example/ort/glue.mjs', wasm: expect.any(WebAssembly.Module) },
        },
      },
    });
  });

  it('resolves a model folder, a model URL and a wasm prefix; leaves hub ids and bytes alone', () => {
    const folder = urlsForWorker(
      {
        embedder: {
          transformers: { model: { id: 'm', dimensions: 3, directory: '/m/' }, wasmPaths: 'ort/' },
        },
      },
      page,
    );
    expect(folder.embedder?.transformers).toEqual({
      model: { id: 'm', dimensions: 3, directory: 'https://app.example/m/' },
      wasmPaths: 'https://app.example/notes/ort/',
    });
    expect(
      urlsForWorker({ embedder: { transformers: { model: '../models/x/' } } }, page).embedder?.transformers
        .model,
    ).toBe('https://app.example/models/x/');
    expect(
      urlsForWorker({ embedder: { transformers: { model: 'Xenova/all-MiniLM-L6-v2' } } }, page).embedder
        ?.transformers.model,
    ).toBe('Xenova/all-MiniLM-L6-v2');
    const buffer = new ArrayBuffer(4);
    expect(urlsForWorker({ usearch: buffer }, page).usearch).toBe(buffer);
  });

  it('leaves the LLM’s options alone: a model name may look like a path', () => {
    const llm = { openAiCompatible: { baseUrl: 'http://127.0.0.1:8080/v1', model: '/models/llama.gguf' } };
    expect(urlsForWorker({ usearch: 'u.wasm', llm }, page)).toEqual({
      usearch: 'https://app.example/notes/u.wasm',
      llm,
    });
  });

  it('without a page (a Node thread), turns URL objects into strings and leaves strings as they are', () => {
    expect(urlsForWorker({ usearch: new URL('file:///x/usearch.wasm') })).toEqual({
      usearch: 'file:///x/usearch.wasm',
    });
    expect(urlsForWorker({ usearch: 'usearch.wasm' })).toEqual({ usearch: 'usearch.wasm' });
  });
});

// The `assets` option: one folder, laid out as in the package, from which every asset is loaded
// that is not named on its own (docs/guide/assets.md, "One folder for every file").
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetPaths, assetUrls } from '../src/assets.js';
import { openLongship } from '../src/engine.js';
import { LongshipError } from '../src/errors.js';
import { urlsForWorker } from '../src/worker/worker-options.js';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const modelFiles = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];

let folder: string;
let empty: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-assets-'));
  empty = await mkdtemp(join(tmpdir(), 'longship-no-assets-'));
  const files = [assetPaths.usearch, ...modelFiles.map((file) => `${assetPaths.model}${file}`)];
  for (const file of files) {
    await mkdir(dirname(join(folder, file)), { recursive: true });
    await copyFile(join(packageRoot, file), join(folder, file));
  }
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
});

async function errorOf(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

describe('assets', () => {
  it('loads USearch and the bundled model from the folder, under the bundled id', async () => {
    const longship = await openLongship({ store: 'memory', assets: pathToFileURL(`${folder}/`) });
    try {
      expect(longship.embedder.id).toBe('longship/use-lite');
      await longship.write('viking://resources/notes/boat.md', 'The longship sails at dawn.', {
        parents: true,
      });
      const { resources } = await longship.find('when does the ship leave?');
      expect(resources[0]?.uri).toBe('viking://resources/notes/boat.md');
    } finally {
      await longship.close();
    }
  });

  it('fails the open where the folder lacks the files, naming where it looked', async () => {
    const error = await errorOf(openLongship({ store: 'memory', assets: pathToFileURL(empty) }));
    expect(error.code).toBe('WASM_LOAD');
    expect(error.message).toContain(join(empty, 'wasm', 'dist', 'usearch.wasm'));
  });

  it('takes a file named on its own over the folder', async () => {
    const usearch = pathToFileURL(join(packageRoot, assetPaths.usearch));
    const error = await errorOf(openLongship({ store: 'memory', assets: pathToFileURL(empty), usearch }));
    // USearch came from the package; the model, named by nobody, from the empty folder.
    expect(error.code).toBe('MODEL_LOAD');
    expect(error.message).toContain(join(empty, 'model'));
  });

  it('refuses what is not the URL of a folder with INVALID_ARGUMENT', async () => {
    for (const assets of [42, '', 'not a url', 'data:text/plain,x', {}]) {
      const error = await errorOf(openLongship({ store: 'memory', assets: assets as string }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain("option 'assets'");
    }
  });

  it('derives every file from a folder given with or without its slash, relative to the page', () => {
    const page = 'chrome-extension://abcdef/sidepanel/panel.html';
    for (const assets of ['../longship', '/longship/', new URL('chrome-extension://abcdef/longship')]) {
      const urls = assetUrls(assets, page, 'openLongship()');
      expect(Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, url.href]))).toEqual({
        worker: 'chrome-extension://abcdef/longship/dist/worker/entry.js',
        usearch: 'chrome-extension://abcdef/longship/wasm/dist/usearch.wasm',
        model: 'chrome-extension://abcdef/longship/model/use-lite/',
        ort: 'chrome-extension://abcdef/longship/dist/ort/',
      });
    }
  });

  it('travels to the worker as an absolute string', () => {
    const wire = urlsForWorker({ assets: './vendor/longship/' }, 'https://app.example/notes/index.html');
    expect(wire).toEqual({ assets: 'https://app.example/notes/vendor/longship/' });
  });
});

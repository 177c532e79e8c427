// The `assets` option: one folder holding the package's asset files laid out as in the package
// (docs/guide/assets.md, "One folder for every file"), from which every asset URL is derived that
// is not given on its own. Shared by the page's client and the engine, so it imports nothing.
import { LongshipError } from './errors.js';

/** Where each asset lies under the `assets` folder: the same paths as inside the package. */
export const assetPaths = {
  /** The worker script `openLongshipInWorker()` starts (its chunks lie beside it). */
  worker: 'dist/worker/entry.js',
  usearch: 'wasm/dist/usearch.wasm',
  /** The bundled model's folder: config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx. */
  model: 'model/use-lite/',
  /** onnxruntime-web's folder: ort-wasm-simd-threaded.mjs and .wasm. */
  ort: 'dist/ort/',
} as const;

/** Every asset's URL under one folder. */
export type AssetUrls = { [name in keyof typeof assetPaths]: URL };

/**
 * The folder `assets` names, as an absolute URL ending in `/`: a `URL`, or a string that is an
 * absolute URL or a path relative to `page` (the page's or worker's address). Anything else is
 * INVALID_ARGUMENT, thrown by `what` (`'openLongship()'`).
 */
export function assetUrls(assets: unknown, page: string | undefined, what: string): AssetUrls {
  const bad = (detail: string): never => {
    throw new LongshipError('INVALID_ARGUMENT', `${what}: option 'assets' ${detail} (docs/guide/assets.md)`);
  };
  if (!(assets instanceof URL) && (typeof assets !== 'string' || assets === '')) {
    return bad('must be the URL of a folder: a URL, or a string');
  }
  let folder: URL;
  try {
    folder = new URL(String(assets), page);
  } catch {
    return bad(`'${String(assets)}' is not a URL${page ? '' : ' (there is no page to resolve it against)'}`);
  }
  if (!/^(https?|file|chrome-extension|moz-extension|safari-web-extension):$/.test(folder.protocol)) {
    bad(`must be an http(s):, file: or extension URL, not ${folder.protocol}`);
  }
  // Without the slash, 'wasm/…' would replace the folder's last segment instead of going under it.
  if (!folder.pathname.endsWith('/')) folder.pathname += '/';
  const urls = Object.entries(assetPaths).map(([name, path]) => [name, new URL(path, folder)]);
  return Object.fromEntries(urls) as AssetUrls;
}

// Where a transformersEmbedder's model comes from, from what its options name: the bundled model,
// a hub id (with or without a local folder of models), a URL or path of a model folder, or its
// files one by one; as the folder and name transformers.js loads by, and the lookup that answers
// its fetches where the files are known one by one.
import { pageLocation } from '../env/runtime.js';
import { LongshipError } from '../errors.js';
import { bundledModelFiles, type ModelFiles } from './bundled-model.js';
import { type FileLookup, folderLookup, routedName } from './model-files.js';

/**
 * A transformers.js model and what to record for its vectors: its folder, or its files one by one.
 * Spread {@link bundledModel} to serve the bundled model from somewhere else and keep its id:
 * `{ ...bundledModel, directory: new URL('/models/use-lite/', location.href) }`, or in workerd
 * `{ ...bundledModel, files: { 'config.json': configBytes, … } }` (docs/guide/workerd.md).
 */
export interface ModelFolder {
  id: string;
  dimensions: number;
  /** The folder: an http(s): or file: URL, a path relative to the page, or a file path in Node and Deno. */
  directory?: string | URL;
  /**
   * Or each file by its name in the folder (`config.json`, `tokenizer.json`,
   * `tokenizer_config.json`, `onnx/model_quantized.onnx`): its URL, or its bytes. Browsers,
   * workers and workerd only; Node and Deno read a `directory`.
   */
  files?: ModelFiles;
}

/**
 * Where a model comes from: a hub id, or a folder name inside a local folder of models, which
 * transformers.js reads itself; and, where the model's files are known one by one, `routed`: the
 * lookup that answers transformers.js's fetches instead (browsers, workers, workerd).
 */
export interface ModelSource {
  name: string;
  localFolder?: string;
  routed?: FileLookup;
}

/**
 * The source of `model` (undefined: the bundled one, in `dtype`), and the ModelFolder it is, if one,
 * checked. The source is resolved when the model loads: the bundled model's URLs need
 * import.meta.url, which workerd lacks.
 */
export function resolveModel(
  model: string | URL | ModelFolder | undefined,
  localModelPath: string | URL | undefined,
  dtype: 'fp32' | 'q8',
): { folder?: ModelFolder; source: () => ModelSource } {
  if (model === undefined) return { source: () => bundledSource(dtype) };
  if (typeof model === 'object' && !(model instanceof URL)) {
    const folder = modelFolder(model);
    const files = folder.files;
    if (files) return { folder, source: () => ({ name: routedName, routed: (name) => files[name] }) };
    const directory = asDirectory(folder.directory!);
    const source: ModelSource = directory
      ? { ...folderAndName(directory), routed: folderLookup(directory) }
      : pathFolderAndName(String(folder.directory));
    return { folder, source: () => source };
  }
  const url = asUrl(model);
  const source: ModelSource = url
    ? { ...folderAndName(url), routed: folderLookup(url) }
    : localModelPath !== undefined
      ? { name: String(model), localFolder: location(localModelPath) }
      : { name: String(model) };
  return { source: () => source };
}

/** The bundled model's files; its folder too where they are files (Node, Deno, a page without a bundler). */
function bundledSource(dtype: 'fp32' | 'q8'): ModelSource {
  const files = bundledModelFiles();
  const config = files['config.json'] as URL;
  // The fp32 weights are opt-in (not installed by default) and have no literal URL, so that no
  // bundler copies 28 MB nobody asked for; where the package is served as it is, they sit beside.
  if (dtype === 'fp32') files['onnx/model.onnx'] = new URL('onnx/model.onnx', config);
  const folder = config.protocol === 'file:' ? folderAndName(new URL('./', config)) : { name: routedName };
  return { ...folder, routed: (name) => files[name] };
}

/** A ModelFolder as given, checked: an id, dimensions, and a directory or files (not both). */
function modelFolder(folder: ModelFolder): ModelFolder {
  const known = new Set(['id', 'dimensions', 'directory', 'files', 'maxTokens']);
  const unknown = Object.keys(folder).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new LongshipError('INVALID_ARGUMENT', `unknown model folder option ${unknown.join(', ')}`);
  }
  if (typeof folder.id !== 'string' || folder.id === '') {
    throw new LongshipError('INVALID_ARGUMENT', 'a model folder needs an id');
  }
  if ((folder.directory === undefined) === (folder.files === undefined)) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `model ${folder.id} needs a directory or files, one of the two`,
    );
  }
  if (folder.files !== undefined) {
    for (const [name, file] of Object.entries(folder.files)) {
      const ok =
        typeof file === 'string' ||
        file instanceof URL ||
        file instanceof ArrayBuffer ||
        ArrayBuffer.isView(file);
      if (!ok) throw new LongshipError('INVALID_ARGUMENT', `model file ${name} must be a URL or bytes`);
    }
  }
  return folder;
}

/** A ModelFolder's directory as a URL: a URL, or a path resolved against the page in browsers. */
function asDirectory(directory: string | URL): URL | undefined {
  const url = asUrl(directory);
  if (url) return url;
  const here = pageLocation();
  return here ? new URL(directory as string, here.href) : undefined;
}

/** A folder given as a file path: its parent folder and its name. */
function pathFolderAndName(directory: string): ModelSource {
  const trimmed = directory.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return { name: trimmed.slice(cut + 1), localFolder: cut < 0 ? '.' : trimmed.slice(0, cut + 1) };
}

/** An http(s): or file: URL, or undefined for a model id. */
function asUrl(model: string | URL): URL | undefined {
  if (model instanceof URL) return model;
  if (!/^(https?|file):/i.test(model)) return undefined;
  try {
    return new URL(model);
  } catch {
    return undefined;
  }
}

/** transformers.js loads local models as `localModelPath` + a folder name. */
function folderAndName(directory: URL): ModelSource {
  const withSlash = new URL(directory.href.endsWith('/') ? directory.href : `${directory.href}/`);
  const parent = new URL('../', withSlash);
  const name = decodeURIComponent(withSlash.pathname.slice(parent.pathname.length, -1));
  return { name, localFolder: location(parent) };
}

/**
 * What transformers.js accepts as a local location: a file path where it reads files (Node),
 * a URL where it fetches them (browsers).
 */
export function location(folder: string | URL): string {
  const url = typeof folder === 'string' ? asUrl(folder) : folder;
  if (!url) return folder as string;
  if (url.protocol !== 'file:') return fetchable(url);
  const path = decodeURIComponent(url.pathname);
  if (url.host) return `//${url.host}${path}`; // a UNC path
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path; // drop the slash before a drive letter
}

/**
 * How transformers.js should see a model folder on a web server. It only looks for a tokenizer in a
 * local folder given as a path, not as an absolute URL, so: the path alone for the page's own origin,
 * a scheme-relative URL for another host (both resolved by fetch against the page or worker).
 */
function fetchable(url: URL): string {
  const here = pageLocation();
  if (here?.origin === url.origin) return url.pathname;
  if (here?.protocol === url.protocol) return `//${url.host}${url.pathname}`;
  return url.href;
}

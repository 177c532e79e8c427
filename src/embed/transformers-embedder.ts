// Embeddings on the device, through transformers.js: onnxruntime-node in Node, onnxruntime-web
// (WASM or WebGPU) in browsers and workers. The default model is the bundled USE-lite.

import * as v from 'valibot';
import { throwIfAborted } from '../abort.js';
import { pageLocation } from '../env/runtime.js';
import { loadTransformers } from '../env/transformers.js';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import { embedInBatches } from './batch.js';
import { bundledModel, bundledModelFiles, type ModelFiles } from './bundled-model.js';
import type { Embedder, EmbedOptions } from './embedder.js';
import { type FileLookup, folderLookup, modelFileFetch, routedFolder, routedName } from './model-files.js';
import type { OrtWasmFiles } from './ort-files.js';
import { withEnv } from './transformers-env.js';

type Transformers = typeof import('@huggingface/transformers');
type TransformersEnv = Transformers['env'];
type Tensor = InstanceType<Transformers['Tensor']>;

/**
 * A transformers.js model and what to record for its vectors: its folder, or its files one by one.
 * Spread {@link bundledModel} to serve the bundled model from somewhere else and keep its id:
 * `{ ...bundledModel, directory: new URL('/models/use-lite/', location.href) }`, or in workerd
 * `{ ...bundledModel, files: { 'config.json': configBytes, … } }` (docs/workerd.md).
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

export interface TransformersEmbedderOptions {
  /**
   * A transformers.js model id (`'Xenova/all-MiniLM-L6-v2'`, fetched from the hub or
   * `localModelPath`), the http(s): or file: URL of a model directory, or a {@link ModelFolder}.
   * Default: the bundled USE-lite ({@link bundledModel}), found in this package.
   */
  model?: string | URL | ModelFolder;
  /** Length of the model's vectors. Required for any model but the bundled one. */
  dimensions?: number;
  /** `q8` (default) loads onnx/model_quantized.onnx, `fp32` onnx/model.onnx (not installed by default). */
  dtype?: 'fp32' | 'q8';
  /** Default: `cpu` (onnxruntime-node) in Node, `wasm` in browsers. */
  device?: 'wasm' | 'webgpu' | 'cpu';
  /** Texts per model call, 1–256 (default 32). Progress and cancellation happen between batches. */
  batchSize?: number;
  /** A folder (path or URL) of local models; `model` is then a folder name inside it. */
  localModelPath?: string | URL;
  /**
   * Browsers and workerd: onnxruntime-web's files. Default: the copy of its plain WASM build in this
   * package (docs/assets.md). A URL prefix (the folder of its `dist` files) or the two files: the
   * `.mjs` glue's URL (in workerd, the name of the module it is bound as) and the `.wasm`'s URL, or
   * the compiled `WebAssembly.Module` (workerd, which compiles no bytes). From a prefix the embedder
   * loads `ort-wasm-simd-threaded.mjs` and `.wasm`; only with `device: 'webgpu'`, which needs this
   * option, does it leave onnxruntime-web to pick its `.asyncify` files.
   */
  wasmPaths?: string | URL | OrtWasmFiles;
  /**
   * CPU threads for one model call. Node: onnxruntime-node's intra-op threads (default: its own
   * choice, one per core). Browsers: WASM threads, which need a cross-origin isolated page (one
   * thread otherwise); onnxruntime-web starts once per worker, so the first load there decides.
   */
  threads?: number;
}

/** Every option of {@link TransformersEmbedderOptions}; the constructor checks their values itself. @internal */
export const transformersEmbedderOptionsSchema = v.strictObject({
  model: v.optional(v.unknown()),
  dimensions: v.optional(v.unknown()),
  dtype: v.optional(v.unknown()),
  device: v.optional(v.picklist(['wasm', 'webgpu', 'cpu'])),
  batchSize: v.optional(v.unknown()),
  localModelPath: v.optional(v.unknown()),
  wasmPaths: v.optional(v.unknown()),
  threads: v.optional(v.unknown()),
});

/** One text's token ids and masks, truncated but not padded. */
type Encoding = Record<string, number[]>;

interface Model {
  encode: (texts: string[]) => Encoding[];
  /** Pads a batch of encodings to its longest, the way the tokenizer pads, into int64 tensors. */
  pad: (rows: Encoding[]) => Record<string, Tensor>;
  run: (inputs: Record<string, Tensor>) => Promise<Record<string, Tensor | undefined>>;
  dispose: () => Promise<unknown>;
  meanPooling: Transformers['mean_pooling'];
}

type Settings = Pick<TransformersEmbedderOptions, 'dtype' | 'device' | 'wasmPaths' | 'threads'>;

/**
 * Where a model comes from: a hub id, or a folder name inside a local folder of models, which
 * transformers.js reads itself; and, where the model's files are known one by one, `routed`: the
 * lookup that answers transformers.js's fetches instead (browsers, workers, workerd).
 */
interface ModelSource {
  name: string;
  localFolder?: string;
  routed?: FileLookup;
}

const defaultBatchSize = 32;
const maxBatchSize = 256;
/** Texts tokenized, then sorted by length, at a time: enough batches to sort, few enough to cancel. */
const batchesPerWindow = 16;

/**
 * An {@link Embedder} that runs a transformers.js feature-extraction model on the device. It loads
 * the model on first use, embeds in batches, checks the caller's signal between batches and reports
 * progress after each. Vectors are L2-normalised: models with a pooled `sentence_embedding` output
 * (like the bundled USE-lite) are used as they are; others are mean-pooled over their tokens.
 *
 * Texts are tokenized a window at a time and batched by token count, so that a batch pads its
 * short texts only to the length of similar ones (vectors come back in input order).
 *
 * Local models (the bundled one, a URL, or `localModelPath`) never touch the network: while they
 * load, transformers.js's remote downloads and caches are switched off. In browsers, WASM runs on
 * one thread unless the page is cross-origin isolated (COOP/COEP headers), which threads need.
 *
 * @example
 * const embedder = new TransformersEmbedder(); // bundled USE-lite, int8 weights
 * const [vector] = await embedder.embed(['How do I reset my password?']);
 */
export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Resolved when the model loads: the bundled model's URLs need import.meta.url (not in workerd). */
  private readonly source: () => ModelSource;
  private readonly batchSize: number;
  private readonly settings: Settings;
  private model: Promise<Model> | undefined;

  constructor(options: TransformersEmbedderOptions = {}) {
    checkOptions(transformersEmbedderOptionsSchema, options, 'TransformersEmbedder');
    const {
      localModelPath,
      dtype = 'q8',
      device,
      wasmPaths,
      threads,
      batchSize = defaultBatchSize,
    } = options;
    const model = options.model;
    const folder = typeof model === 'object' && !(model instanceof URL) ? modelFolder(model) : undefined;
    const directory = folder?.directory === undefined ? undefined : asDirectory(folder.directory);
    this.id = folder?.id ?? (model === undefined ? bundledModel.id : String(model));
    const dimensions =
      folder?.dimensions ?? (model === undefined ? bundledModel.dimensions : options.dimensions);
    if (!Number.isInteger(dimensions) || dimensions! < 1) {
      throw new LongshipError('INVALID_ARGUMENT', `TransformersEmbedder needs the dimensions of ${this.id}`);
    }
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > maxBatchSize) {
      throw new LongshipError('INVALID_ARGUMENT', `batchSize must be an integer from 1 to ${maxBatchSize}`);
    }
    if (dtype !== 'q8' && dtype !== 'fp32')
      throw new LongshipError('INVALID_ARGUMENT', `unknown dtype ${dtype}`);
    if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) {
      throw new LongshipError('INVALID_ARGUMENT', `threads must be a positive integer, not ${threads}`);
    }
    if (device === 'webgpu' && wasmPaths === undefined) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        "device 'webgpu' needs wasmPaths: onnxruntime-web's .asyncify files, which Longship does not ship",
      );
    }
    this.dimensions = dimensions!;
    this.batchSize = batchSize;
    this.settings = { dtype, device, wasmPaths, threads };
    if (model === undefined) this.source = () => bundledSource(dtype);
    else if (folder?.files) {
      const files = folder.files;
      this.source = () => ({ name: routedName, routed: (name) => files[name] });
    } else if (directory) {
      const source = { ...folderAndName(directory), routed: folderLookup(directory) };
      this.source = () => source;
    } else if (folder) {
      const source = pathFolderAndName(String(folder.directory));
      this.source = () => source;
    } else {
      const url = asUrl(model as string | URL);
      const source: ModelSource = url
        ? { ...folderAndName(url), routed: folderLookup(url) }
        : localModelPath !== undefined
          ? { name: String(model), localFolder: location(localModelPath) }
          : { name: String(model) };
      this.source = () => source;
    }
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    throwIfAborted(options.signal);
    const model = await this.load();
    const vectors = new Array<Float32Array>(texts.length);
    const window = this.batchSize * batchesPerWindow;
    for (let start = 0; start < texts.length; start += window) {
      throwIfAborted(options.signal);
      const slice = texts.slice(start, start + window);
      const encodings = model.encode(slice);
      // Stable, so that texts of one length keep their order and equal inputs give equal batches.
      const order = encodings.map((_, i) => i);
      order.sort((a, b) => encodings[a]!.input_ids!.length - encodings[b]!.input_ids!.length);
      // embedInBatches hands out the sorted texts in order, one batch at a time; each batch takes
      // its encodings off the front of the queue, so that no text is tokenized twice.
      const queue = order.map((i) => encodings[i]!);
      const sorted = await embedInBatches(
        order.map((i) => slice[i]!),
        this.batchSize,
        (batch) => this.embedBatch(model, queue.splice(0, batch.length)),
        {
          signal: options.signal,
          onProgress: ({ done }) => options.onProgress?.({ done: start + done, total: texts.length }),
        },
      );
      order.forEach((i, k) => {
        vectors[start + i] = sorted[k]!;
      });
    }
    return vectors;
  }

  /** Releases the model's inference session. A later `embed` loads it again. */
  async dispose(): Promise<void> {
    const loading = this.model;
    this.model = undefined;
    await (await loading?.catch(() => undefined))?.dispose();
  }

  private load(): Promise<Model> {
    // One load per embedder; a failed load is forgotten so that the next call can try again.
    this.model ??= loadModel(this.source, this.settings).catch((error: unknown) => {
      this.model = undefined;
      // The package ships the bundled model's int8 weights only (docs/package.md).
      const fp32Hint =
        this.settings.dtype === 'fp32' && this.id === bundledModel.id
          ? '; its fp32 weights are not installed by default: run `npx longship-model-fp32` (docs/package.md)'
          : '';
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
      // transformers.js's own message may not say where it looked (a missing folder gives a TypeError).
      const { name, localFolder } = this.source();
      const from = localFolder === undefined ? name : `${localFolder.replace(/[\\/]*$/, '/')}${name}/`;
      throw new LongshipError(
        'MODEL_LOAD',
        `could not load the embedding model ${this.id} from ${from}: ${reason}${fp32Hint}`,
        { cause: error },
      );
    });
    return this.model;
  }

  private async embedBatch(model: Model, batch: Encoding[]): Promise<Float32Array[]> {
    const inputs = model.pad(batch);
    const outputs = await model.run(inputs);
    const hidden = outputs.last_hidden_state ?? outputs.token_embeddings;
    let pooled = outputs.sentence_embedding;
    if (!pooled && hidden) {
      pooled = hidden.dims.length === 3 ? model.meanPooling(hidden, inputs.attention_mask!) : hidden;
    }
    if (!pooled) throw new LongshipError('MODEL_LOAD', `${this.id} has no embedding output`);
    const normalized = pooled.normalize(2, -1);
    const [rows, width] = normalized.dims as [number, number];
    if (width !== this.dimensions) {
      throw new LongshipError(
        'DIMENSION_MISMATCH',
        `${this.id} gives ${width} dimensions, not ${this.dimensions}`,
      );
    }
    const data = normalized.data as Float32Array;
    return Array.from({ length: rows }, (_, i) => data.slice(i * width, (i + 1) * width));
  }
}

async function loadModel(sourceOf: () => ModelSource, settings: Settings): Promise<Model> {
  const source = sourceOf();
  const { transformers, localSettings, readsLocalFiles } = await loadTransformers();
  const { AutoModel, AutoTokenizer, Tensor, env, mean_pooling } = transformers;
  const options = {
    dtype: settings.dtype ?? 'q8',
    ...(settings.device ? { device: settings.device } : {}),
    session_options: {
      // 'all' adds only layout rewrites for convolutions over 'extended', which text encoders
      // lack; skipping that pass shortens the session start in browsers.
      graphOptimizationLevel: 'extended',
      // Threads that wait for work sleep instead of spinning: the embedder shares its cores with
      // the page, the store and other tabs, and a spinning thread takes time they need.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
      // Only onnxruntime-node reads it; onnxruntime-web takes its threads from env (see withEnv).
      ...(settings.threads ? { intraOpNumThreads: settings.threads } : {}),
    },
  } as const;
  // The runtime's own settings (Deno's) go over the model's.
  const [tokenizer, model] = await withEnv(
    env,
    { ...envFor(source, readsLocalFiles), ...localSettings },
    settings,
    () =>
      Promise.all([
        AutoTokenizer.from_pretrained(source.name),
        AutoModel.from_pretrained(source.name, options),
      ]),
  );
  const padValue = (key: string) => (key === 'input_ids' ? tokenizer.pad_token_id : 0);
  return {
    encode: (texts) => {
      // Without tensors the tokenizer answers by field ({ input_ids: [row, …], … }); turn that into rows.
      const fields = tokenizer(texts, { truncation: true, return_tensor: false }) as unknown as Record<
        string,
        number[][]
      >;
      return texts.map((_, i) =>
        Object.fromEntries(Object.entries(fields).map(([key, rows]) => [key, rows[i]!])),
      );
    },
    pad: (rows) => {
      const width = Math.max(...rows.map((row) => row.input_ids!.length));
      const inputs: Record<string, Tensor> = {};
      for (const key of Object.keys(rows[0]!)) {
        const data = new BigInt64Array(rows.length * width).fill(BigInt(padValue(key)));
        rows.forEach((row, i) => {
          const values = row[key]!;
          const at = i * width + (tokenizer.padding_side === 'left' ? width - values.length : 0);
          values.forEach((value, j) => {
            data[at + j] = BigInt(value);
          });
        });
        inputs[key] = new Tensor('int64', data, [rows.length, width]);
      }
      return inputs;
    },
    run: (inputs) => model(inputs) as Promise<Record<string, Tensor | undefined>>,
    dispose: () => model.dispose(),
    meanPooling: mean_pooling,
  };
}

/**
 * The model-file settings of a load. Where transformers.js reads files itself (Node, Deno) it reads
 * the folder; elsewhere it fetches, and files the embedder knows one by one answer those fetches.
 * Local models switch remote models and caches off: caching files that are already local would
 * only duplicate them, and a cache keyed by model name would serve a stale model after an upgrade.
 */
function envFor(source: ModelSource, readsLocalFiles: boolean): Partial<TransformersEnv> {
  const local = {
    allowLocalModels: true,
    allowRemoteModels: false,
    useBrowserCache: false,
    useFSCache: false,
    useCustomCache: false,
  };
  if (readsLocalFiles) {
    if (source.localFolder !== undefined) return { ...local, localModelPath: source.localFolder };
    if (source.routed) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        'in Node and Deno a model folder needs a directory, not files',
      );
    }
    return {};
  }
  if (source.routed) {
    return {
      ...local,
      useFS: false,
      localModelPath: routedFolder,
      fetch: modelFileFetch(source.name, source.routed),
    };
  }
  return source.localFolder === undefined ? {} : { ...local, localModelPath: source.localFolder };
}

/** The bundled model's files; its folder too where they are files (Node, Deno, a page without a bundler). */
function bundledSource(dtype: Settings['dtype']): ModelSource {
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
function location(folder: string | URL): string {
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

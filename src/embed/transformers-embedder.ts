// Embeddings on the device, through transformers.js: onnxruntime-node in Node, onnxruntime-web
// (WASM or WebGPU) in browsers and workers. The default model is the bundled USE-lite.

import { throwIfAborted } from '../abort.js';
import { loadTransformers } from '../env/transformers.js';
import { LongshipError } from '../errors.js';
import { embedInBatches } from './batch.js';
import { bundledModel } from './bundled-model.js';
import type { Embedder, EmbedOptions } from './embedder.js';

type Transformers = typeof import('@huggingface/transformers');
type TransformersEnv = Transformers['env'];
type Tensor = InstanceType<Transformers['Tensor']>;

/**
 * A transformers.js model folder and what to record for its vectors. Spread {@link bundledModel}
 * to serve the bundled model from a URL of your own and keep its id:
 * `{ ...bundledModel, directory: new URL('/models/use-lite/', location.href) }`.
 */
export interface ModelFolder {
  id: string;
  dimensions: number;
  /** An http(s): or file: URL, or a file path in Node. */
  directory: string | URL;
}

export interface TransformersEmbedderOptions {
  /**
   * A transformers.js model id (`'Xenova/all-MiniLM-L6-v2'`, fetched from the hub or
   * `localModelPath`), the http(s): or file: URL of a model directory, or a {@link ModelFolder}.
   * Default: the bundled USE-lite ({@link bundledModel}), found relative to this module.
   */
  model?: string | URL | ModelFolder;
  /** Length of the model's vectors. Required for any model but the bundled one. */
  dimensions?: number;
  /** `q8` (default) loads onnx/model_quantized.onnx, `fp32` onnx/model.onnx. */
  dtype?: 'fp32' | 'q8';
  /** Default: `cpu` (onnxruntime-node) in Node, `wasm` in browsers. */
  device?: 'wasm' | 'webgpu' | 'cpu';
  /** Texts per model call, 1–256 (default 32). Progress and cancellation happen between batches. */
  batchSize?: number;
  /** A folder (path or URL) of local models; `model` is then a folder name inside it. */
  localModelPath?: string | URL;
  /**
   * Browsers: where the app serves onnxruntime-web's files, a URL prefix (the folder of its `dist`
   * files) or one URL per file. Without it transformers.js fetches them from a CDN. From a prefix
   * the embedder loads `ort-wasm-simd-threaded.mjs` and `.wasm`, the plain WASM build; only with
   * `device: 'webgpu'` does it leave onnxruntime-web to pick its `.asyncify` files.
   */
  wasmPaths?: string | { mjs: string; wasm: string };
  /**
   * CPU threads for one model call. Node: onnxruntime-node's intra-op threads (default: its own
   * choice, one per core). Browsers: WASM threads, which need a cross-origin isolated page (one
   * thread otherwise); onnxruntime-web starts once per worker, so the first load there decides.
   */
  threads?: number;
}

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

/** Where a model comes from: a hub id, or a folder name inside a local folder of models. */
interface ModelSource {
  name: string;
  localFolder?: string;
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
  private readonly source: ModelSource;
  private readonly batchSize: number;
  private readonly settings: Settings;
  private model: Promise<Model> | undefined;

  constructor(options: TransformersEmbedderOptions = {}) {
    const {
      localModelPath,
      dtype = 'q8',
      device,
      wasmPaths,
      threads,
      batchSize = defaultBatchSize,
    } = options;
    const model = options.model ?? bundledModel;
    const folder = typeof model === 'object' && !(model instanceof URL) ? model : undefined;
    const directory = folder ? asDirectory(folder.directory) : asUrl(model as string | URL);
    const bundled = !folder && directory?.href === bundledModel.directory.href;
    this.id = folder?.id ?? (bundled ? bundledModel.id : String(model));
    const dimensions = folder?.dimensions ?? (bundled ? bundledModel.dimensions : options.dimensions);
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
    this.dimensions = dimensions!;
    this.batchSize = batchSize;
    this.settings = { dtype, device, wasmPaths, threads };
    if (directory) this.source = folderAndName(directory);
    else if (folder) this.source = pathFolderAndName(String(folder.directory));
    else if (localModelPath !== undefined)
      this.source = { name: String(model), localFolder: location(localModelPath) };
    else this.source = { name: String(model) };
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
      const { name, localFolder } = this.source;
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

async function loadModel(source: ModelSource, settings: Settings): Promise<Model> {
  const { transformers, localSettings } = await loadTransformers();
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
  const [tokenizer, model] = await withEnv(env, source, settings, localSettings, () =>
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

let envQueue: Promise<unknown> = Promise.resolve();

/**
 * The one place that touches transformers.js's global `env`. WASM settings (files, threads) stay:
 * onnxruntime-web reads them once, when it starts. For a local model, the loader switches remote
 * models and caches off (caching files that are already local would only duplicate them, and a
 * cache keyed by model name would serve a stale model after an upgrade) and restores the user's
 * settings when the load is done. Loads run one at a time so that no load sees another one's
 * settings.
 */
function withEnv<T>(
  env: TransformersEnv,
  source: ModelSource,
  { wasmPaths, threads, device }: Settings,
  runtimeSettings: Partial<TransformersEnv>,
  load: () => Promise<T>,
): Promise<T> {
  const task = envQueue.then(async () => {
    const wasm = env.backends.onnx.wasm;
    if (wasm && wasmPaths !== undefined) wasm.wasmPaths = wasmFiles(wasmPaths, device);
    if (wasm && threads !== undefined) wasm.numThreads = threads;
    // WASM threads need SharedArrayBuffer, which browsers give only to cross-origin isolated pages;
    // elsewhere onnxruntime-web would warn and fall back to one thread anyway.
    if (wasm && globalThis.crossOriginIsolated === false) wasm.numThreads = 1;
    // With its WASM cache on, transformers.js downloads the files itself and hands onnxruntime-web
    // the bytes, which then compiles them without streaming and without the browser's code cache.
    // Files the app serves are in the browser's HTTP cache already.
    const wasmBorrowed = wasmPaths === undefined ? {} : { useWasmCache: false };
    if (source.localFolder === undefined) return withSettings(env, wasmBorrowed, load);
    return withSettings(
      env,
      {
        ...wasmBorrowed,
        allowLocalModels: true,
        allowRemoteModels: false,
        localModelPath: source.localFolder,
        useBrowserCache: false,
        useFSCache: false,
        useCustomCache: false,
        ...runtimeSettings,
      },
      load,
    );
  });
  envQueue = task.catch(() => undefined);
  return task;
}

/** Runs `load` with some of transformers.js's settings changed, and puts them back afterwards. */
async function withSettings<T>(
  env: TransformersEnv,
  borrowed: Partial<TransformersEnv>,
  load: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(
    Object.keys(borrowed).map((key) => [key, env[key as keyof TransformersEnv]]),
  );
  Object.assign(env, borrowed);
  try {
    return await load();
  } finally {
    Object.assign(env, saved);
  }
}

/**
 * onnxruntime-web's files for the settings: a prefix becomes the plain WASM build's two files unless
 * the model runs on WebGPU. transformers.js imports onnxruntime-web's WebGPU bundle, which would
 * otherwise load its `.asyncify` build: twice the size (27 MB against 14), about twice as slow to
 * start in Chromium, and no faster once running (bench/embed). A paths object is copied, since
 * transformers.js may write into it.
 */
function wasmFiles(
  wasmPaths: string | { mjs: string; wasm: string },
  device: Settings['device'],
): string | { mjs: string; wasm: string } {
  if (typeof wasmPaths !== 'string') return { ...wasmPaths };
  if (device === 'webgpu') return wasmPaths;
  const prefix = wasmPaths.endsWith('/') ? wasmPaths : `${wasmPaths}/`;
  return { mjs: `${prefix}ort-wasm-simd-threaded.mjs`, wasm: `${prefix}ort-wasm-simd-threaded.wasm` };
}

/** A ModelFolder's directory as a URL: a URL, or a path resolved against the page in browsers. */
function asDirectory(directory: string | URL): URL | undefined {
  const url = asUrl(directory);
  if (url) return url;
  const here = (globalThis as { location?: { href: string } }).location;
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
  const here = (globalThis as { location?: { origin: string; protocol: string } }).location;
  if (here?.origin === url.origin) return url.pathname;
  if (here?.protocol === url.protocol) return `//${url.host}${url.pathname}`;
  return url.href;
}

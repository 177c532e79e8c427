// Embeddings on the device, through transformers.js: onnxruntime-node in Node, onnxruntime-web
// (WASM or WebGPU) in browsers and workers. The default model is the bundled USE-lite.
import { LongshipError } from '../errors.js';
import { embedInBatches, throwIfAborted } from './batch.js';
import { bundledModel } from './bundled-model.js';
import type { Embedder, EmbedOptions } from './embedder.js';

type Transformers = typeof import('@huggingface/transformers');
type TransformersEnv = Transformers['env'];
type Tensor = InstanceType<Transformers['Tensor']>;

export interface TransformersEmbedderOptions {
  /**
   * A transformers.js model id (`'Xenova/all-MiniLM-L6-v2'`, fetched from the hub or
   * `localModelPath`), or the http(s): or file: URL of a model directory. Default: the bundled
   * USE-lite ({@link bundledModel}).
   */
  model?: string | URL;
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
   * Browsers: where the app serves onnxruntime-web's `.wasm`/`.mjs` files (a URL prefix, or one
   * URL per file). Without it transformers.js fetches them from a CDN.
   */
  wasmPaths?: string | { mjs: string; wasm: string };
}

interface Model {
  tokenizer: (texts: string[], options: { padding: boolean; truncation: boolean }) => Record<string, Tensor>;
  run: (inputs: Record<string, Tensor>) => Promise<Record<string, Tensor | undefined>>;
  dispose: () => Promise<unknown>;
  meanPooling: Transformers['mean_pooling'];
}

/** Where a model comes from: a hub id, or a folder name inside a local folder of models. */
interface ModelSource {
  name: string;
  localFolder?: string;
}

const defaultBatchSize = 32;
const maxBatchSize = 256;

/**
 * An {@link Embedder} that runs a transformers.js feature-extraction model on the device. It loads
 * the model on first use, embeds in batches, checks the caller's signal between batches and reports
 * progress after each. Vectors are L2-normalised: models with a pooled `sentence_embedding` output
 * (like the bundled USE-lite) are used as they are; others are mean-pooled over their tokens.
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
  private readonly settings: Pick<TransformersEmbedderOptions, 'dtype' | 'device' | 'wasmPaths'>;
  private model: Promise<Model> | undefined;

  constructor(options: TransformersEmbedderOptions = {}) {
    const { model, localModelPath, dtype = 'q8', device, wasmPaths, batchSize = defaultBatchSize } = options;
    const directory = model === undefined ? bundledModel.directory : asUrl(model);
    const bundled = directory?.href === bundledModel.directory.href;
    this.id = bundled ? bundledModel.id : String(model);
    const dimensions = bundled ? bundledModel.dimensions : options.dimensions;
    if (!Number.isInteger(dimensions) || dimensions! < 1) {
      throw new LongshipError('INVALID_ARGUMENT', `TransformersEmbedder needs the dimensions of ${this.id}`);
    }
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > maxBatchSize) {
      throw new LongshipError('INVALID_ARGUMENT', `batchSize must be an integer from 1 to ${maxBatchSize}`);
    }
    if (dtype !== 'q8' && dtype !== 'fp32')
      throw new LongshipError('INVALID_ARGUMENT', `unknown dtype ${dtype}`);
    this.dimensions = dimensions!;
    this.batchSize = batchSize;
    this.settings = { dtype, device, wasmPaths };
    if (directory) this.source = folderAndName(directory);
    else if (localModelPath !== undefined)
      this.source = { name: String(model), localFolder: location(localModelPath) };
    else this.source = { name: String(model) };
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    throwIfAborted(options.signal);
    const model = await this.load();
    return embedInBatches(texts, this.batchSize, (batch) => this.embedBatch(model, batch), options);
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
      throw new LongshipError('MODEL_LOAD', `could not load the embedding model ${this.id}`, {
        cause: error,
      });
    });
    return this.model;
  }

  private async embedBatch(model: Model, batch: string[]): Promise<Float32Array[]> {
    const inputs = model.tokenizer(batch, { padding: true, truncation: true });
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

async function loadModel(source: ModelSource, settings: TransformersEmbedderOptions): Promise<Model> {
  const transformers = await import('@huggingface/transformers');
  const { AutoModel, AutoTokenizer, env, mean_pooling } = transformers;
  const options = {
    dtype: settings.dtype ?? 'q8',
    ...(settings.device ? { device: settings.device } : {}),
  } as const;
  const [tokenizer, model] = await withEnv(env, source, settings.wasmPaths, () =>
    Promise.all([
      AutoTokenizer.from_pretrained(source.name),
      AutoModel.from_pretrained(source.name, options),
    ]),
  );
  return {
    tokenizer: (texts, tokenizerOptions) => tokenizer(texts, tokenizerOptions) as Record<string, Tensor>,
    run: (inputs) => model(inputs) as Promise<Record<string, Tensor | undefined>>,
    dispose: () => model.dispose(),
    meanPooling: mean_pooling,
  };
}

let envQueue: Promise<unknown> = Promise.resolve();

/**
 * The one place that touches transformers.js's global `env`. WASM settings stay (onnxruntime-web
 * reads them once, when it starts). For a local model, the loader switches remote models and
 * caches off (caching files that are already local would only duplicate them, and a cache keyed by
 * model name would serve a stale model after an upgrade) and restores the user's settings when
 * the load is done. Loads run one at a time so that no load sees another one's settings.
 */
function withEnv<T>(
  env: TransformersEnv,
  source: ModelSource,
  wasmPaths: TransformersEmbedderOptions['wasmPaths'],
  load: () => Promise<T>,
): Promise<T> {
  const task = envQueue.then(async () => {
    const wasm = env.backends.onnx.wasm;
    if (wasm && wasmPaths !== undefined) wasm.wasmPaths = wasmPaths;
    // WASM threads need SharedArrayBuffer, which browsers give only to cross-origin isolated pages;
    // elsewhere onnxruntime-web would warn and fall back to one thread anyway.
    if (wasm && globalThis.crossOriginIsolated === false) wasm.numThreads = 1;
    if (source.localFolder === undefined) return load();
    const borrowed = {
      allowLocalModels: true,
      allowRemoteModels: false,
      localModelPath: source.localFolder,
      useBrowserCache: false,
      useFSCache: false,
      useCustomCache: false,
    };
    const saved = Object.fromEntries(
      Object.keys(borrowed).map((key) => [key, env[key as keyof typeof borrowed]]),
    );
    Object.assign(env, borrowed);
    try {
      return await load();
    } finally {
      Object.assign(env, saved);
    }
  });
  envQueue = task.catch(() => undefined);
  return task;
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
  if (url.protocol !== 'file:') return url.href;
  const path = decodeURIComponent(url.pathname);
  if (url.host) return `//${url.host}${path}`; // a UNC path
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path; // drop the slash before a drive letter
}

// Embeddings on the device, through transformers.js: onnxruntime-node in Node, onnxruntime-web
// (WASM or WebGPU) in browsers and workers. The default model is the bundled USE-lite.

import * as v from 'valibot';
import { throwIfAborted } from '../abort.js';
import { cspAdvice } from '../csp.js';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import { embedInBatches } from './batch.js';
import { bundledModel } from './bundled-model.js';
import type { Embedder, EmbedOptions } from './embedder.js';
import { type ModelFolder, type ModelSource, resolveModel } from './model-source.js';
import type { OrtWasmFiles } from './ort-files.js';
import { type Encoding, loadModel, type Model, type ModelSettings } from './transformers-model.js';

export type { ModelFolder } from './model-source.js';

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
   * package (docs/guide/assets.md). A URL prefix (the folder of its `dist` files) or the two files: the
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

/** Every option of {@link TransformersEmbedderOptions}; the embedder checks their values itself. @internal */
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

const defaultBatchSize = 32;
const maxBatchSize = 256;
/** Texts tokenized, then sorted by length, at a time: enough batches to sort, few enough to cancel. */
const batchesPerWindow = 16;

/** The embedder {@link transformersEmbedder} makes. @internal */
export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Resolved when the model loads: the bundled model's URLs need import.meta.url (not in workerd). */
  private readonly source: () => ModelSource;
  private readonly batchSize: number;
  private readonly settings: ModelSettings;
  private model: Promise<Model> | undefined;

  constructor(options: TransformersEmbedderOptions = {}) {
    checkOptions(transformersEmbedderOptionsSchema, options, 'transformersEmbedder()');
    const {
      localModelPath,
      dtype = 'q8',
      device,
      wasmPaths,
      threads,
      batchSize = defaultBatchSize,
    } = options;
    const model = options.model;
    const { folder, source } = resolveModel(model, localModelPath, dtype);
    this.id = folder?.id ?? (model === undefined ? bundledModel.id : String(model));
    const dimensions =
      folder?.dimensions ?? (model === undefined ? bundledModel.dimensions : options.dimensions);
    if (!Number.isInteger(dimensions) || dimensions! < 1) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `transformersEmbedder() needs the dimensions of ${this.id}`,
      );
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
    this.source = source;
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
      // The package ships the bundled model's int8 weights only (docs/guide/package.md).
      const fp32Hint =
        this.settings.dtype === 'fp32' && this.id === bundledModel.id
          ? '; its fp32 weights are not installed by default: run `npx longship-model-fp32` (docs/guide/package.md)'
          : '';
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
      // transformers.js's own message may not say where it looked (a missing folder gives a TypeError).
      const { name, localFolder } = this.source();
      const from = localFolder === undefined ? name : `${localFolder.replace(/[\\/]*$/, '/')}${name}/`;
      throw new LongshipError(
        'MODEL_LOAD',
        `could not load the embedding model ${this.id} from ${from}: ${reason}${fp32Hint}${cspAdvice(error)}`,
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
 * const embedder = transformersEmbedder(); // bundled USE-lite, int8 weights
 * const [vector] = await embedder.embed(['How do I reset my password?']);
 */
export function transformersEmbedder(options: TransformersEmbedderOptions = {}): Embedder {
  return new TransformersEmbedder(options);
}

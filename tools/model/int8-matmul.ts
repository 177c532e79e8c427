// A matrix product in integer arithmetic: `x · W` with int8 weights (one scale per output column)
// and activations quantized to uint8 as the graph runs, one scale per row (per token).
//
// Why per row: onnxruntime's DynamicQuantizeLinear takes one scale for the whole tensor, so one
// token's outlier coarsens every other token in the batch, and a text's vector would depend on
// the texts it was batched with. A scale per row keeps each token's precision its own. MatMulInteger
// takes only one activation zero point, so the rows are quantized symmetrically around a fixed
// 128 (or from 0, for inputs that are never negative, such as a ReLU's output): the zero point
// stays one scalar while the scale varies by row.
import { int, ints, type OnnxGraph } from './onnx-writer.js';
import { quantizePerChannel } from './quantize.js';

export interface Int8MatMulOptions {
  /** The input is ≥ 0 (a ReLU's output): quantize to 0…255 instead of 1…255 around 128. */
  nonNegative?: boolean;
}

/** Adds `input · kernel` (`kernel` row-major `[inputs, outputs]`) to `g`; returns the float result. */
export function int8MatMul(
  g: OnnxGraph,
  name: string,
  input: string,
  kernel: { data: Float32Array; inputs: number; outputs: number },
  { nonNegative = false }: Int8MatMulOptions = {},
): string {
  const { values, scales } = quantizePerChannel(kernel.data, kernel.inputs, kernel.outputs, 1);
  const weights = g.initializer(`${name}/int8`, 'int8', [kernel.inputs, kernel.outputs], values);
  const levels = nonNegative ? 255 : 127;
  const zeroPoint = g.initializer(`${name}/zero_point`, 'uint8', [], Uint8Array.of(nonNegative ? 0 : 128));

  // Rows as a matrix, reduced over axis 1: onnxruntime's ReduceMax returns an empty input (a batch
  // of empty texts) unreduced when the axis is given as -1; over axis 1 of a matrix it gives [0, 1].
  const rows = g.op('Reshape', `${name}/rows`, [input, g.int64s(`${name}/rows_shape`, [-1, kernel.inputs])]);
  // The row's largest magnitude, floored so that an all-zero row (padding) divides by no zero.
  const largest = g.op('Max', `${name}/row_max`, [
    g.op('ReduceMax', `${name}/row_abs_max`, [g.op('Abs', `${name}/abs`, [rows])], {
      axes: ints([1]),
      keepdims: int(1),
    }),
    g.scalar(`${name}/row_max_floor`, 1e-30),
  ]);
  // QuantizeLinear with scale 1 rounds (half to even), adds the zero point and saturates in one op.
  const quantized = g.op('QuantizeLinear', `${name}/quantized`, [
    g.op('Mul', `${name}/row_scaled`, [
      rows,
      g.op('Div', `${name}/row_inverse_scale`, [g.scalar(`${name}/levels`, levels), largest]),
    ]),
    g.scalar(`${name}/unit_scale`, 1),
    zeroPoint,
  ]);
  const sums = g.op('MatMulInteger', `${name}/int_matmul`, [quantized, weights, zeroPoint]);
  // Row scale largest/levels times column scale: the column part (with 1/levels) is a constant.
  const columnScales = scales.map((scale) => scale / levels);
  const product = g.op('Mul', `${name}/row_rescaled`, [
    g.op('Mul', `${name}/column_rescaled`, [
      g.op('Cast', `${name}/float`, [sums], { to: int(1) }),
      g.initializer(`${name}/column_scale`, 'float', [kernel.outputs], columnScales),
    ]),
    largest,
  ]);
  // Back to the input's leading dimensions (allowzero: a 0 there is an empty batch, not "keep").
  const shape = g.op(
    'Concat',
    `${name}/shape`,
    [
      g.op('Shape', `${name}/leading_dims`, [input], { end: int(-1) }),
      g.int64s(`${name}/outputs`, [kernel.outputs]),
    ],
    { axis: int(0) },
  );
  return g.op('Reshape', name, [product, shape], { allowzero: int(1) });
}

// Symmetric per-channel int8 quantization. Symmetric (zero point 0, range ±127) keeps the
// in-graph dequantization a single Mul; per-channel scales keep small-magnitude channels from
// being flattened by one large outlier elsewhere in the matrix.

export interface Quantized {
  readonly values: Int8Array;
  /** One scale per channel: `value ≈ q * scale`. */
  readonly scales: Float32Array;
}

/**
 * Quantizes a row-major `[rows, columns]` matrix with one scale per row (`axis` 0) or per
 * column (`axis` 1).
 */
export function quantizePerChannel(
  data: Float32Array,
  rows: number,
  columns: number,
  axis: 0 | 1,
): Quantized {
  if (data.length !== rows * columns)
    throw new Error(`expected ${rows}×${columns} values, got ${data.length}`);
  const channels = axis === 0 ? rows : columns;
  const maxAbs = new Float32Array(channels);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const channel = axis === 0 ? r : c;
      const magnitude = Math.abs(data[r * columns + c]!);
      if (magnitude > maxAbs[channel]!) maxAbs[channel] = magnitude;
    }
  }
  // An all-zero channel gets scale 1 so that dequantization never divides by or multiplies with 0/0.
  const scales = maxAbs.map((m) => (m === 0 ? 1 : m / 127));
  const values = new Int8Array(data.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const i = r * columns + c;
      const q = Math.round(data[i]! / scales[axis === 0 ? r : c]!);
      values[i] = Math.max(-127, Math.min(127, q));
    }
  }
  return { values, scales };
}

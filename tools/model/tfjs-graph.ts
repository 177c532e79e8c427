// Reads a TF.js graph model (model.json plus its binary weight shards) into plain typed arrays,
// so the converter can pick weights by their TensorFlow names without loading TF.js itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TfjsTensor {
  readonly shape: readonly number[];
  readonly data: Float32Array | Int32Array;
}

export interface TfjsNode {
  readonly name: string;
  readonly op: string;
  readonly input?: readonly string[];
}

export interface TfjsGraph {
  readonly nodes: readonly TfjsNode[];
  /** Every weight by its TensorFlow name. */
  readonly weights: ReadonlyMap<string, TfjsTensor>;
}

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: unknown;
}

interface ModelJson {
  modelTopology: { node: TfjsNode[] };
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
}

/** Loads `model.json` and its shards from `directory`. */
export function readTfjsGraph(directory: string): TfjsGraph {
  const model = JSON.parse(readFileSync(join(directory, 'model.json'), 'utf8')) as ModelJson;
  const weights = new Map<string, TfjsTensor>();
  for (const group of model.weightsManifest) {
    const bytes = Buffer.concat(group.paths.map((path) => readFileSync(join(directory, path))));
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.quantization) throw new Error(`${spec.name}: quantized TF.js weights are not supported`);
      const count = spec.shape.reduce((a, b) => a * b, 1);
      // Copy: shard buffers are not 4-byte aligned in general, and typed arrays need alignment.
      const slice = new Uint8Array(bytes.subarray(offset, offset + count * 4)).buffer;
      if (spec.dtype === 'float32')
        weights.set(spec.name, { shape: spec.shape, data: new Float32Array(slice) });
      else if (spec.dtype === 'int32')
        weights.set(spec.name, { shape: spec.shape, data: new Int32Array(slice) });
      else throw new Error(`${spec.name}: unsupported dtype ${spec.dtype}`);
      offset += count * 4;
    }
    if (offset !== bytes.byteLength)
      throw new Error(`weight shards hold ${bytes.byteLength} bytes, specs ${offset}`);
  }
  return { nodes: model.modelTopology.node, weights };
}

// A small builder for ONNX inference graphs: named initializers, nodes with typed attributes,
// graph inputs and outputs, and deterministic serialisation (protobufjs writes fields in id order
// and we add nothing time- or machine-dependent).
import { AttributeType, DataType, type DataTypeName, ModelProto } from './onnx-schema.js';

export type Attribute =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'ints'; value: readonly number[] }
  | { kind: 'string'; value: string };

export const int = (value: number): Attribute => ({ kind: 'int', value });
export const float = (value: number): Attribute => ({ kind: 'float', value });
export const ints = (value: readonly number[]): Attribute => ({ kind: 'ints', value });

/** A graph input or output: element type and shape, with strings for symbolic dimensions. */
export interface ValueInfo {
  readonly name: string;
  readonly type: DataTypeName;
  readonly shape: readonly (number | string)[];
}

type TypedArray = Float32Array | Uint8Array | Int8Array | Int32Array | BigInt64Array;

interface NodeMessage {
  input: string[];
  output: string[];
  name: string;
  opType: string;
  attribute: Record<string, unknown>[];
}

export class OnnxGraph {
  private readonly nodes: NodeMessage[] = [];
  private readonly initializers: Record<string, unknown>[] = [];
  private readonly names = new Set<string>();
  private readonly inputs: ValueInfo[] = [];
  private readonly outputs: ValueInfo[] = [];

  input(info: ValueInfo): string {
    this.inputs.push(info);
    return this.claim(info.name);
  }

  output(info: ValueInfo): void {
    this.outputs.push(info);
  }

  /** Adds a constant tensor; returns its name. */
  initializer(name: string, type: DataTypeName, dims: readonly number[], data: TypedArray): string {
    const count = dims.reduce((a, b) => a * b, 1);
    if (data.length !== count) throw new Error(`${name}: ${data.length} values for dims [${dims}]`);
    const rawData = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
      throw new Error('raw_data must be little-endian');
    this.initializers.push({ name: this.claim(name), dataType: DataType[type], dims: [...dims], rawData });
    return name;
  }

  /** Shorthand for a small int64 constant such as a shape or an axis list. */
  int64s(name: string, values: readonly number[]): string {
    return this.initializer(name, 'int64', [values.length], BigInt64Array.from(values.map(BigInt)));
  }

  /** Shorthand for a float scalar. */
  scalar(name: string, value: number): string {
    return this.initializer(name, 'float', [], Float32Array.of(value));
  }

  /** Adds one node with one output, named `name`; returns the output's name. */
  op(
    opType: string,
    name: string,
    inputs: readonly string[],
    attributes: Record<string, Attribute> = {},
  ): string {
    return this.opN(opType, name, inputs, 1, attributes)[0]!;
  }

  /** Adds one node with `outputCount` outputs, named `name:0`, `name:1`, … */
  opN(
    opType: string,
    name: string,
    inputs: readonly string[],
    outputCount: number,
    attributes: Record<string, Attribute> = {},
  ): string[] {
    const output =
      outputCount === 1
        ? [this.claim(name)]
        : Array.from({ length: outputCount }, (_, i) => this.claim(`${name}:${i}`));
    this.nodes.push({
      input: [...inputs],
      output,
      name,
      opType,
      attribute: Object.entries(attributes).map(([key, attribute]) => encodeAttribute(key, attribute)),
    });
    return output;
  }

  /** Serialises the graph as an ONNX model. */
  encode(meta: { name: string; opset: number; irVersion: number; docString: string }): Uint8Array {
    const model = {
      irVersion: meta.irVersion,
      producerName: 'longship tools/model',
      docString: meta.docString,
      graph: {
        node: this.nodes,
        name: meta.name,
        initializer: this.initializers,
        input: this.inputs.map(encodeValueInfo),
        output: this.outputs.map(encodeValueInfo),
      },
      opsetImport: [{ domain: '', version: meta.opset }],
    };
    const problem = ModelProto.verify(model);
    if (problem) throw new Error(`invalid ONNX model: ${problem}`);
    return ModelProto.encode(model).finish();
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new Error(`duplicate value name ${name}`);
    this.names.add(name);
    return name;
  }
}

function encodeAttribute(name: string, attribute: Attribute): Record<string, unknown> {
  switch (attribute.kind) {
    case 'int':
      return { name, type: AttributeType.int, i: attribute.value };
    case 'float':
      return { name, type: AttributeType.float, f: attribute.value };
    case 'ints':
      return { name, type: AttributeType.ints, ints: [...attribute.value] };
    case 'string':
      return { name, type: AttributeType.string, s: new TextEncoder().encode(attribute.value) };
  }
}

function encodeValueInfo(info: ValueInfo): Record<string, unknown> {
  const dim = info.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d }));
  return { name: info.name, type: { tensorType: { elemType: DataType[info.type], shape: { dim } } } };
}

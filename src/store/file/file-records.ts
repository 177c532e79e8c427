// What one frame of the file store's log or checkpoint says. A payload is a kind byte, a body (a
// structured clone through node:v8, so a node's `meta` keeps what IndexedDB would keep), and the
// vectors it carries as raw little-endian floats beside it: decoding 512 floats is one copy, not
// 512 numbers parsed, and each vector gets a buffer of its own (docs/guide/file-store.md).

import type { NodeFiles } from '../../env/node-files.js';
import { LongshipError } from '../../errors.js';
import type { CommitPlan } from '../plan/commit-plan.js';
import type { VectorRecord } from '../store.js';

export const RecordKind = {
  /** First frame of a log or checkpoint: `{ format, version, generation }` (+ `state` in a checkpoint). */
  header: 1,
  /** A commit: its plan (without `putVectors`, which ride as vectors) and the key counter then. */
  commit: 2,
  /** allocateKeys(): `{ nextKey }`. */
  keys: 3,
  /** pruneChanges(): `{ throughSeq }`. */
  prune: 4,
  /** useEmbedder() recorded or reset: `{ embedder, reset }`. */
  embedder: 5,
  /** Checkpoint rows of one table: `{ table, rows }` (vectors ride as vectors). */
  rows: 6,
  /** Last frame of a checkpoint: `{ frames }`, how many came before it. */
  end: 7,
} as const;
export type RecordKind = (typeof RecordKind)[keyof typeof RecordKind];

export interface DecodedRecord {
  kind: RecordKind;
  body: unknown;
  vectors: VectorRecord[];
}

/** A commit as the log holds it. */
export interface CommitBody {
  plan: Omit<CommitPlan, 'putVectors'>;
  nextKey: number;
}

// key f64, node key f64, chunk u32, dimensions u32.
const VECTOR_HEAD = 24;

/** Encodes and decodes payloads with the runtime's structured clone. */
export class RecordCodec {
  constructor(private readonly v8: NodeFiles['v8']) {}

  encode(kind: RecordKind, body: unknown, vectors: readonly VectorRecord[] = []): Uint8Array {
    const clone = this.v8.serialize(body);
    const vectorBytes = vectors.reduce((sum, v) => sum + VECTOR_HEAD + v.vector.byteLength, 0);
    const out = new Uint8Array(1 + 4 + clone.length + 4 + vectorBytes);
    const view = new DataView(out.buffer);
    out[0] = kind;
    view.setUint32(1, clone.length, true);
    out.set(clone, 5);
    let at = 5 + clone.length;
    view.setUint32(at, vectors.length, true);
    at += 4;
    for (const v of vectors) {
      view.setFloat64(at, v.key, true);
      view.setFloat64(at + 8, v.nodeKey, true);
      view.setUint32(at + 16, v.chunk, true);
      view.setUint32(at + 20, v.vector.length, true);
      at += VECTOR_HEAD;
      // The machine's byte order is little-endian wherever Node and Deno run (x64, arm64).
      out.set(new Uint8Array(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength), at);
      at += v.vector.byteLength;
    }
    return out;
  }

  decode(payload: Uint8Array): DecodedRecord {
    try {
      const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
      const kind = payload[0] as RecordKind;
      const cloneLength = view.getUint32(1, true);
      const body = this.v8.deserialize(payload.subarray(5, 5 + cloneLength));
      let at = 5 + cloneLength;
      const count = view.getUint32(at, true);
      at += 4;
      const vectors: VectorRecord[] = [];
      for (let i = 0; i < count; i++) {
        const dimensions = view.getUint32(at + 20, true);
        const vector = new Float32Array(dimensions);
        new Uint8Array(vector.buffer).set(
          payload.subarray(at + VECTOR_HEAD, at + VECTOR_HEAD + dimensions * 4),
        );
        vectors.push({
          key: view.getFloat64(at, true),
          nodeKey: view.getFloat64(at + 8, true),
          chunk: view.getUint32(at + 16, true),
          vector,
        });
        at += VECTOR_HEAD + dimensions * 4;
      }
      if (at !== payload.length) throw new RangeError(`${payload.length - at} bytes left over`);
      return { kind, body, vectors };
    } catch (error) {
      // The frame's CRC held, so this is a writer's bug or a format this code does not know.
      throw new LongshipError('STORE_ERROR', 'a record of the file store cannot be read', { cause: error });
    }
  }
}

// The sample corpus's pack: every record a store holds once the corpus is indexed, made at build time
// (tools/demo/pack.ts) and written into a visitor's empty store by the worker (pack-import.ts), so
// that nobody waits for the model to embed the corpus in their tab.
//
// One file: "LSPK", the header's length (u32, little-endian), the header as JSON, zeros up to a
// multiple of 4, every vector's Float32 values one after the other, in the header's order, then the
// bytes of each index snapshot in the header's order: with them the engine opened next loads its
// indexes rather than building them from the records (docs/internals/snapshots.md).
import type {
  EmbedderInfo,
  NodeRecord,
  PostingRecord,
  RelationRecord,
  VectorRecord,
} from '../../src/store/store.js';

/** Bump when the file's layout changes. */
export const PACK_FORMAT = 2;

const MAGIC = 'LSPK';

export interface PackHeader {
  format: number;
  /** A hash of the corpus's files, the model's id, the package's version and the records' schema. */
  hash: string;
  embedder: EmbedderInfo;
  /** The records' shape: STORE_SCHEMA_VERSION when the pack was made. */
  schema: number;
  /** The package's version that made it. */
  version: string;
  /** The store's next key after the records: keys below it are taken. */
  nextKey: number;
  nodes: NodeRecord[];
  postings: PostingRecord[];
  relations: RelationRecord[];
  /** Each vector's `[key, nodeKey, chunk]`; its values are in the body, in this order. */
  vectors: [number, number, number][];
  /** Each snapshot's name and length, in the order they are written; their bytes follow the vectors. */
  snapshots: [string, number][];
}

/** An index snapshot of the records, as of the pack's one change. */
export interface PackSnapshot {
  name: string;
  bytes: Uint8Array;
}

export interface Pack {
  header: PackHeader;
  vectors: VectorRecord[];
  snapshots: PackSnapshot[];
}

export function encodePack(
  header: Omit<PackHeader, 'vectors' | 'snapshots'>,
  vectors: readonly VectorRecord[],
  snapshots: readonly PackSnapshot[],
): Uint8Array {
  const json = new TextEncoder().encode(
    JSON.stringify({
      ...header,
      vectors: vectors.map((v) => [v.key, v.nodeKey, v.chunk]),
      snapshots: snapshots.map((s) => [s.name, s.bytes.length]),
    }),
  );
  const bodyAt = align4(8 + json.length);
  const dims = header.embedder.dimensions;
  let at = bodyAt + vectors.length * dims * 4;
  const bytes = new Uint8Array(at + snapshots.reduce((sum, s) => sum + s.bytes.length, 0));
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(bytes.buffer).setUint32(4, json.length, true);
  bytes.set(json, 8);
  const body = new Float32Array(bytes.buffer, bodyAt, vectors.length * dims);
  vectors.forEach((v, i) => {
    body.set(v.vector, i * dims);
  });
  for (const snapshot of snapshots) {
    bytes.set(snapshot.bytes, at);
    at += snapshot.bytes.length;
  }
  return bytes;
}

/** The pack in `bytes`; throws an Error when they are not one. */
export function decodePack(bytes: Uint8Array): Pack {
  if (bytes.length < 8 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) {
    throw new Error('not a Longship pack');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))) as PackHeader;
  if (header.format !== PACK_FORMAT) throw new Error(`a pack of format ${header.format}, not ${PACK_FORMAT}`);
  const dims = header.embedder.dimensions;
  const bodyAt = align4(8 + length);
  const snapshotsAt = bodyAt + header.vectors.length * dims * 4;
  const snapshotBytes = header.snapshots.reduce((sum, [, n]) => sum + n, 0);
  if (bytes.byteLength !== snapshotsAt + snapshotBytes) throw new Error('a truncated pack');
  // Copied once, to be aligned for Float32Array whatever the offset of `bytes`.
  const body = new Float32Array(bytes.slice(bodyAt, snapshotsAt).buffer);
  // Each a copy with a buffer of its own: IndexedDB clones a view's whole buffer, not the view.
  const vectors = header.vectors.map(([key, nodeKey, chunk], i) => ({
    key,
    nodeKey,
    chunk,
    vector: body.slice(i * dims, (i + 1) * dims),
  }));
  let at = snapshotsAt;
  const snapshots = header.snapshots.map(([name, n]) => {
    const snapshot = { name, bytes: bytes.subarray(at, at + n) };
    at += n;
    return snapshot;
  });
  return { header, vectors, snapshots };
}

const align4 = (n: number) => Math.ceil(n / 4) * 4;

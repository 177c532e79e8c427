// Shape checks for what a caller hands to commit(). A store's records outlive the code that wrote
// them, so a wrong type is refused at the door rather than discovered by a reader months later.

import { LongshipError } from '../../errors.js';
import type {
  NodeRecord,
  NodeRef,
  NodeUse,
  PostingRecord,
  RelationKey,
  RelationRecord,
  VectorRecord,
  WriteBatch,
} from '../store.js';

const KINDS = new Set(['dir', 'file']);
const CONTEXT_TYPES = new Set(['resource', 'memory', 'skill']);
const SUMMARY_KINDS = new Set(['extractive', 'llm']);

function invalid(message: string): LongshipError {
  return new LongshipError('INVALID_ARGUMENT', message);
}

/** Keys are safe integers: the store hands them out in sequence and never reaches 2^53. */
export function isKey(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function requireString(value: unknown, what: string): void {
  if (typeof value !== 'string') throw invalid(`${what} must be a string`);
}

function requireOptionalString(value: unknown, what: string): void {
  if (value !== undefined) requireString(value, what);
}

function requireNumber(value: unknown, what: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${what} must be a finite number`);
}

function checkNode(node: NodeRecord): void {
  if (typeof node !== 'object' || node === null) throw invalid('a node must be an object');
  requireString(node.uri, 'node.uri');
  const at = `node ${node.uri}`;
  if (node.uri === '') throw invalid('node.uri must not be empty');
  if (node.parent !== null) requireString(node.parent, `${at}: parent`);
  requireString(node.name, `${at}: name`);
  if (!KINDS.has(node.kind)) throw invalid(`${at}: kind must be 'dir' or 'file'`);
  if (!CONTEXT_TYPES.has(node.contextType))
    throw invalid(`${at}: unknown contextType ${String(node.contextType)}`);
  if (!isKey(node.key)) throw invalid(`${at}: key must be a non-negative integer`);
  requireString(node.l0, `${at}: l0`);
  requireOptionalString(node.l1, `${at}: l1`);
  requireOptionalString(node.l2, `${at}: l2`);
  if (!SUMMARY_KINDS.has(node.summaryKind)) throw invalid(`${at}: summaryKind must be 'extractive' or 'llm'`);
  requireOptionalString(node.hash, `${at}: hash`);
  if (typeof node.meta !== 'object' || node.meta === null) throw invalid(`${at}: meta must be an object`);
  checkMeta(node.meta, at);
  requireNumber(node.createdAt, `${at}: createdAt`);
  requireNumber(node.updatedAt, `${at}: updatedAt`);
  requireNumber(node.useCount, `${at}: useCount`);
  if (node.lastUsedAt !== undefined) requireNumber(node.lastUsedAt, `${at}: lastUsedAt`);
}

/** How deep meta may nest, and how many values it may hold counted as a tree (shared ones each time). */
export const META_LIMITS = { depth: 64, values: 100_000 } as const;

/**
 * Meta is data: every reader (verify's comparison, the catalogue's JSON, structured clone) walks it
 * as a tree. A cycle, a nesting past {@link META_LIMITS} or a function would break them later, on
 * every read; it is refused here, before anything is written.
 */
function checkMeta(meta: object, at: string): void {
  const stack: { value: unknown; depth: number; path: readonly object[] }[] = [
    { value: meta, depth: 0, path: [] },
  ];
  let values = 0;
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (++values > META_LIMITS.values)
      throw invalid(`${at}: meta holds more than ${META_LIMITS.values} values`);
    if (typeof value === 'function' || typeof value === 'symbol') {
      throw invalid(`${at}: meta holds a ${typeof value}, which cannot be stored`);
    }
    if (typeof value !== 'object' || value === null) continue;
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) continue;
    if (path.includes(value)) throw invalid(`${at}: meta is circular (it contains itself)`);
    if (depth >= META_LIMITS.depth)
      throw invalid(`${at}: meta nests deeper than ${META_LIMITS.depth} levels`);
    const inner = [...path, value];
    const children =
      value instanceof Map
        ? [...value.keys(), ...value.values()]
        : value instanceof Set
          ? [...value]
          : Object.values(value);
    for (const child of children) stack.push({ value: child, depth: depth + 1, path: inner });
  }
}

function checkVector(vector: VectorRecord): void {
  if (typeof vector !== 'object' || vector === null) throw invalid('a vector must be an object');
  if (!isKey(vector.key)) throw invalid('vector.key must be a non-negative integer');
  const at = `vector ${vector.key}`;
  if (!isKey(vector.nodeKey)) throw invalid(`${at}: nodeKey must be a non-negative integer`);
  if (!isKey(vector.chunk)) throw invalid(`${at}: chunk must be a non-negative integer`);
  if (!(vector.vector instanceof Float32Array)) throw invalid(`${at}: vector must be a Float32Array`);
  // The graph refuses NaN and ±Infinity: stored, they would leave the store and the graph apart.
  if (!vector.vector.every(Number.isFinite)) throw invalid(`${at}: vector must hold finite numbers`);
}

function checkPosting(posting: PostingRecord): void {
  if (typeof posting !== 'object' || posting === null) throw invalid('a posting must be an object');
  if (!isKey(posting.key)) throw invalid('posting.key must be a non-negative integer');
  const at = `posting ${posting.key}`;
  requireOptionalString(posting.title, `${at}: title`);
  if (posting.headings !== undefined) {
    if (!Array.isArray(posting.headings)) throw invalid(`${at}: headings must be an array of strings`);
    for (const heading of posting.headings) requireString(heading, `${at}: a heading`);
  }
  requireString(posting.body, `${at}: body`);
}

function checkRelationKey(relation: RelationKey): void {
  if (typeof relation !== 'object' || relation === null) throw invalid('a relation must be an object');
  requireString(relation.from, 'relation.from');
  requireString(relation.to, 'relation.to');
}

function checkRelation(relation: RelationRecord): void {
  checkRelationKey(relation);
  requireString(relation.reason, `relation ${relation.from} -> ${relation.to}: reason`);
  requireNumber(relation.createdAt, `relation ${relation.from} -> ${relation.to}: createdAt`);
}

function checkUse(use: NodeUse): void {
  if (typeof use !== 'object' || use === null) throw invalid('a use must be an object');
  requireString(use.uri, 'use.uri');
  requireNumber(use.at, `use of ${use.uri}: at`);
}

function checkRef(ref: NodeRef): void {
  if (typeof ref !== 'object' || ref === null) throw invalid('a required node must be an object');
  requireString(ref.uri, 'requireNodes[].uri');
  if (!isKey(ref.key)) throw invalid(`required node ${ref.uri}: key must be a non-negative integer`);
}

function checkKeys(keys: readonly unknown[], what: string): void {
  for (const key of keys) if (!isKey(key)) throw invalid(`${what} must hold non-negative integers`);
}

function checkStrings(values: readonly unknown[], what: string): void {
  for (const value of values) requireString(value, what);
}

function requireArray(value: unknown, what: string): void {
  if (value !== undefined && !Array.isArray(value)) throw invalid(`batch.${what} must be an array`);
}

/**
 * Copies the batch (so a caller mutating it later changes nothing stored) and checks its shape.
 * Throws `INVALID_ARGUMENT`, with the DataCloneError as cause for what cannot be stored at all.
 */
export function cloneAndCheckBatch(batch: WriteBatch): Required<WriteBatch> {
  if (typeof batch !== 'object' || batch === null) throw invalid('a batch must be an object');
  for (const field of [
    'putNodes',
    'deleteNodes',
    'putVectors',
    'deleteVectorsOfNodes',
    'putPostings',
    'deletePostings',
    'putRelations',
    'deleteRelations',
    'useNodes',
    'requireNodes',
  ] as const) {
    requireArray(batch[field], field);
  }
  // A vector may be a view into a larger buffer (a WASM heap): structured clone would copy the
  // whole buffer, so each vector is first copied into one of its own.
  const tight: WriteBatch = batch.putVectors
    ? {
        ...batch,
        putVectors: batch.putVectors.map((v) =>
          v !== null && typeof v === 'object' && v.vector instanceof Float32Array
            ? { ...v, vector: v.vector.slice() }
            : v,
        ),
      }
    : batch;
  let copy: WriteBatch;
  try {
    copy = structuredClone(tight);
  } catch (cause) {
    throw new LongshipError('INVALID_ARGUMENT', 'the batch holds a value that cannot be stored', { cause });
  }
  const full: Required<WriteBatch> = {
    putNodes: copy.putNodes ?? [],
    deleteNodes: copy.deleteNodes ?? [],
    putVectors: copy.putVectors ?? [],
    deleteVectorsOfNodes: copy.deleteVectorsOfNodes ?? [],
    putPostings: copy.putPostings ?? [],
    deletePostings: copy.deletePostings ?? [],
    putRelations: copy.putRelations ?? [],
    deleteRelations: copy.deleteRelations ?? [],
    useNodes: copy.useNodes ?? [],
    requireNodes: copy.requireNodes ?? [],
  };
  full.putNodes.forEach(checkNode);
  checkStrings(full.deleteNodes, 'batch.deleteNodes');
  full.putVectors.forEach(checkVector);
  checkKeys(full.deleteVectorsOfNodes, 'batch.deleteVectorsOfNodes');
  full.putPostings.forEach(checkPosting);
  checkKeys(full.deletePostings, 'batch.deletePostings');
  full.putRelations.forEach(checkRelation);
  full.deleteRelations.forEach(checkRelationKey);
  full.useNodes.forEach(checkUse);
  full.requireNodes.forEach(checkRef);
  return full;
}

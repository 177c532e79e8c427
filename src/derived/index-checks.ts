// verify() for the derived indexes: do they hold exactly what the store holds? Reads everything;
// for tests and repair, never on a hot path.

import type { LexicalIndex } from '../lexical/lexical-index.js';
import type { FullStore } from '../store/full-store.js';
import type { PostingRecord } from '../store/store.js';
import type { VectorIndex } from '../vector/vector-index.js';
import type { NodeCatalogue } from './node-catalogue.js';
import { postingDoc } from './posting-doc.js';
import type { VectorOwners } from './vector-owners.js';

const SCAN_BATCH = 1024;
const SPOT_CHECKS = 32;

/**
 * How a vector index disagrees with the stored vectors: keys missing or extra, and vectors that
 * differ, spot-checked (every one of the first 32, then ever further apart).
 *
 * @example
 * const problems = await vectorIndexProblems(store, indexes.vectors);
 */
export async function vectorIndexProblems(
  store: FullStore,
  index: VectorIndex,
  owners?: Pick<VectorOwners, 'nodeOf' | 'size'>,
): Promise<string[]> {
  const problems: string[] = [];
  let count = 0;
  let step = 1;
  for await (const rows of store.scan('vectors', SCAN_BATCH)) {
    for (const record of rows) {
      count++;
      if (owners && owners.nodeOf(record.key) !== record.nodeKey) {
        problems.push(
          `vector ${record.key} belongs to node ${record.nodeKey}, the indexes say ${owners.nodeOf(record.key)}`,
        );
      }
      if (!index.contains(record.key)) {
        problems.push(`vector ${record.key} is stored but not in the vector index`);
        continue;
      }
      // Spot checks, spread out: the first few, then ever further apart.
      if (count % step !== 0) continue;
      if (count >= SPOT_CHECKS * step) step *= 2;
      const held = index.get(record.key);
      if (!held || !sameVector(held, record.vector, index.quantization === 'f32' ? 1e-6 : 0.02)) {
        problems.push(`vector ${record.key} differs between the vector index and the store`);
      }
    }
  }
  if (index.size !== count) problems.push(`the vector index holds ${index.size} vectors, the store ${count}`);
  if (owners && owners.size !== count)
    problems.push(`the indexes know owners of ${owners.size} vectors, the store ${count}`);
  return problems;
}

/**
 * How a BM25 index disagrees with the stored postings: keys missing or extra, and scores that
 * differ from an index built afresh from them (for the first words of sampled postings). `fresh`:
 * an empty index with the live one's settings.
 *
 * @example
 * const problems = await lexicalIndexProblems(store, indexes.lexical, createLexicalIndex());
 */
export async function lexicalIndexProblems(
  store: FullStore,
  live: LexicalIndex,
  fresh: LexicalIndex,
): Promise<string[]> {
  const problems: string[] = [];
  // Scores depend on the whole corpus, so they are compared with an index built afresh.
  const samples: PostingRecord[] = [];
  let count = 0;
  for await (const rows of store.scan('postings', SCAN_BATCH)) {
    for (const posting of rows) {
      count++;
      fresh.add(postingDoc(posting));
      if (!live.has(posting.key))
        problems.push(`posting ${posting.key} is stored but not in the lexical index`);
      else if (samples.length < SPOT_CHECKS && count % 7 === 1) samples.push(posting);
    }
  }
  if (live.size !== count)
    problems.push(`the lexical index holds ${live.size} documents, the store ${count}`);
  for (const posting of samples) {
    const query = `${posting.title ?? ''} ${posting.body}`.split(/\s+/).filter(Boolean).slice(0, 6).join(' ');
    const a = live.search(query, { limit: 5 });
    const b = fresh.search(query, { limit: 5 });
    const same =
      a.length === b.length &&
      a.every((hit, i) => Math.abs(hit.score - b[i]!.score) <= 1e-6 * Math.max(1, Math.abs(hit.score)));
    if (!same) problems.push(`BM25 scores for posting ${posting.key}'s text differ from a rebuilt index`);
  }
  return problems;
}

const CATALOGUE_FIELDS = [
  'uri',
  'parent',
  'name',
  'kind',
  'contextType',
  'l0',
  'summaryKind',
  'createdAt',
  'updatedAt',
  'useCount',
  'lastUsedAt',
] as const;

/**
 * How the node catalogue disagrees with the stored nodes: nodes missing or extra, fields that differ.
 *
 * @example
 * const problems = await catalogueProblems(store, catalogue);
 */
export async function catalogueProblems(
  store: FullStore,
  catalogue: Pick<NodeCatalogue, 'nodeByKey' | 'node' | 'size'>,
): Promise<string[]> {
  const problems: string[] = [];
  let count = 0;
  for await (const rows of store.scan('nodes', SCAN_BATCH)) {
    for (const stored of rows) {
      count++;
      const held = catalogue.nodeByKey(stored.key);
      if (!held) {
        problems.push(`node ${stored.uri} is stored but not in the node catalogue`);
        continue;
      }
      const fields: string[] = CATALOGUE_FIELDS.filter((field) => !Object.is(held[field], stored[field]));
      if (!sameValue(held.meta, stored.meta)) fields.push('meta');
      if (fields.length > 0)
        problems.push(`node ${stored.uri}: the node catalogue differs in ${fields.join(', ')}`);
      else if (catalogue.node(stored.uri) !== held)
        problems.push(`node ${stored.uri}: the node catalogue finds another node by its URI`);
    }
  }
  if (catalogue.size !== count)
    problems.push(`the node catalogue holds ${catalogue.size} nodes, the store ${count}`);
  return problems;
}

/**
 * Deep equality for structured-clonable metadata: plain objects and arrays by content, the rest by tag
 * and text. Past 64 levels (a circular meta stored before commit() refused them) they count as different.
 */
function sameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (depth > 64) return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const tag = Object.prototype.toString.call(a);
  if (tag !== Object.prototype.toString.call(b)) return false;
  if (tag !== '[object Object]' && tag !== '[object Array]') return String(a) === String(b);
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  const other = b as Record<string, unknown>;
  return keysA.every(
    (key) => key in other && sameValue((a as Record<string, unknown>)[key], other[key], depth + 1),
  );
}

function sameVector(a: Float32Array, b: Float32Array, tolerance: number): boolean {
  if (a.length !== b.length) return false;
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  if (aa === 0 || bb === 0) return aa === bb;
  return 1 - dot / Math.sqrt(aa * bb) <= tolerance;
}

// A node as index records and back. Export writes each node's layers as OpenViking's records
// (L0 and L1 of a directory at levels 0 and 1, a file at level 2), one record per vector, and what
// Longship keeps beyond them under `longship`. Import reads a node back from its records, and from
// OpenViking's own records, which lack those fields, with Longship's defaults.

import type { NodeRecord, PostingRecord, SummaryKind, VectorRecord } from '../store/store.js';
import { canonicalJson } from './format.js';
import type { IndexRecord, LongshipFields } from './records.js';

/** The lexical document a node gets when nothing says otherwise: what the tree's writes index. */
export const defaultPosting = (node: Pick<NodeRecord, 'kind' | 'name' | 'l0' | 'l1' | 'l2'>) => ({
  title: node.name,
  body: node.kind === 'file' ? (node.l2 ?? '') : [node.l0, node.l1].filter(Boolean).join('\n'),
});

/** The posting as the difference from {@link defaultPosting}: nothing for the usual one. */
function postingFields(node: NodeRecord, posting: PostingRecord | undefined): LongshipFields['posting'] {
  if (!posting) return null;
  const usual = defaultPosting(node);
  const fields: NonNullable<LongshipFields['posting']> = {};
  if (posting.title !== usual.title) fields.title = posting.title ?? null;
  if (posting.headings !== undefined) fields.headings = posting.headings;
  if (posting.body !== usual.body) fields.body = posting.body;
  return Object.keys(fields).length > 0 ? fields : undefined;
}

function longshipFields(node: NodeRecord, posting: PostingRecord | undefined): LongshipFields {
  const fields: LongshipFields = {
    ...(node.kind === 'file' && node.l1 !== undefined ? { l1: node.l1 } : {}),
    summary_kind: node.summaryKind,
    ...(node.hash !== undefined ? { hash: node.hash } : {}),
    meta: node.meta,
    created_at: node.createdAt,
    updated_at: node.updatedAt,
    use_count: node.useCount,
    ...(node.lastUsedAt !== undefined ? { last_used_at: node.lastUsedAt } : {}),
  };
  const p = postingFields(node, posting);
  return p === undefined ? fields : { ...fields, posting: p };
}

/**
 * Writes the index records of an export, node by node, as JSONL lines to `emit`, and keeps the keys
 * of their vectors in order (dense.f32 is written from them after).
 */
export function packRecords(dimensions: number, emit: (lines: string) => void) {
  const vectorKeys: number[] = [];
  let count = 0;
  return {
    vectorKeys,
    get count() {
      return count;
    },
    /** The records of `node` at `path`, with its vectors (sorted by chunk) when the pack carries them. */
    add(
      path: string,
      node: NodeRecord,
      posting: PostingRecord | undefined,
      vectors: readonly VectorRecord[],
    ) {
      const lines: string[] = [];
      const push = (record: Omit<IndexRecord, 'record_id'>, vector?: VectorRecord) => {
        const withVector: Omit<IndexRecord, 'record_id'> = vector
          ? { ...record, vector: { dense: { offset: vectorKeys.length * dimensions, dimensions } } }
          : record;
        if (vector) vectorKeys.push(vector.key);
        count++;
        lines.push(canonicalJson({ record_id: `r${String(count).padStart(6, '0')}`, ...withVector }));
      };
      const kind = node.kind === 'dir' ? 'directory' : 'file';
      const sorted = [...vectors].sort((a, b) => a.chunk - b.chunk);
      const level = node.kind === 'dir' ? 0 : 2;
      const scalars = (at: number) => ({
        abstract: node.l0,
        context_type: node.contextType,
        level: at,
        name: node.name,
      });
      push(
        {
          path,
          kind,
          level,
          ...(node.kind === 'dir' ? { text: node.l0 } : {}),
          scalars: scalars(level),
          longship: longshipFields(node, posting),
        },
        sorted[0],
      );
      if (node.kind === 'dir' && node.l1 !== undefined) {
        push({ path, kind, level: 1, text: node.l1, scalars: scalars(1) });
      }
      for (const vector of sorted.slice(1)) {
        push({ path, kind, level, longship: { chunk: vector.chunk } }, vector);
      }
      emit(`${lines.join('\n')}\n`);
    },
  };
}

/** What a node's records say of it, with Longship's defaults where they are silent. */
export interface PackedNode {
  l0?: string;
  l1?: string;
  summaryKind?: SummaryKind;
  fields: LongshipFields;
  /** The node's records that carry a vector, in chunk order. */
  vectorRecords: IndexRecord[];
}

/** Reads a node's records: its first one carries Longship's fields, levels 0-2 its layers. */
export function packedNode(records: readonly IndexRecord[], kind: 'dir' | 'file'): PackedNode {
  const fields = (records.find((r) => r.longship && r.longship.chunk === undefined)?.longship ??
    {}) as LongshipFields;
  const at = (level: number) => records.find((r) => r.level === level);
  const abstractOf = (r: IndexRecord | undefined) =>
    typeof r?.scalars?.abstract === 'string' ? r.scalars.abstract : undefined;
  const l0 =
    kind === 'dir' ? (at(0)?.text ?? abstractOf(at(0))) : (abstractOf(at(2)) ?? abstractOf(records[0]));
  const l1 = kind === 'dir' ? at(1)?.text : fields.l1;
  const vectorRecords = records
    .filter((r) => r.vector)
    .map((r, i) => ({ r, chunk: r.longship?.chunk ?? i }))
    .sort((a, b) => a.chunk - b.chunk)
    .map(({ r }) => r);
  return {
    ...(l0 !== undefined ? { l0 } : {}),
    ...(l1 !== undefined ? { l1 } : {}),
    ...(fields.summary_kind === 'llm' || fields.summary_kind === 'extractive'
      ? { summaryKind: fields.summary_kind }
      : {}),
    fields,
    vectorRecords,
  };
}

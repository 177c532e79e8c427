// The index records (`_ovpack/index_records.jsonl`): one line per layer of a node, with its scalar
// fields and, in a pack with vectors, where its vector lies in `dense.f32`. Longship adds what
// OpenViking's records lack (a file's L1, meta, times, the lexical document) under `longship`,
// which OpenViking ignores (docs/guide/ovpack.md, "What a pack holds").

import { corrupt, isCount } from './format.js';
import type { DenseInfo, ManifestEntry } from './manifest.js';

/** What Longship keeps of a node beyond OpenViking's fields; on the node's first record. */
export interface LongshipFields {
  /** A file's L1 (a directory's is its `.overview.md`). */
  l1?: string;
  summary_kind?: 'extractive' | 'llm';
  hash?: string;
  meta?: Record<string, unknown>;
  created_at?: number;
  updated_at?: number;
  use_count?: number;
  last_used_at?: number;
  /** The lexical document where it differs from the node's own text; `null`: the node has none. */
  posting?: { title?: string | null; headings?: string[]; body?: string } | null;
  /** Which of the node's chunks the record's vector embeds (0 when absent). */
  chunk?: number;
}

export interface IndexRecord {
  record_id: string;
  path: string;
  kind: 'directory' | 'file';
  level: number;
  text?: string;
  scalars?: Record<string, unknown>;
  vector?: { dense: { offset: number; dimensions: number } };
  longship?: LongshipFields;
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The records in `bytes`, each checked against the manifest's entries; their vector references
 * checked against `dense`: contiguous, of its dimensions, as many as it counts.
 */
export function parseRecords(
  bytes: Uint8Array,
  count: number,
  entries: ReadonlyMap<string, ManifestEntry>,
  dense: DenseInfo | undefined,
  denseBytes: number,
): IndexRecord[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    corrupt('the index records are not UTF-8', { cause: error });
  }
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  if (lines.length !== count)
    corrupt(`the manifest counts ${count} index records, the file has ${lines.length}`);
  const ids = new Set<string>();
  const records = lines.map((line, i) => {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      corrupt(`index record ${i + 1} is not JSON`, { cause: error });
    }
    checkRecord(record, i + 1, entries);
    if (ids.has(record.record_id)) corrupt(`index record id ${record.record_id} is used twice`);
    ids.add(record.record_id);
    return record;
  });
  checkDenseRefs(records, dense, denseBytes);
  return records;
}

function checkRecord(
  record: unknown,
  line: number,
  entries: ReadonlyMap<string, ManifestEntry>,
): asserts record is IndexRecord {
  if (!isObject(record)) corrupt(`index record ${line} is not an object`);
  if (typeof record.record_id !== 'string' || record.record_id === '')
    corrupt(`index record ${line} has no id`);
  const entry = typeof record.path === 'string' ? entries.get(record.path) : undefined;
  if (!entry) corrupt(`index record ${line} names a path the manifest does not list`);
  if (record.kind !== entry.kind)
    corrupt(`index record ${line} is a ${record.kind}, the manifest says ${entry.kind}`);
  if (typeof record.level !== 'number' || !Number.isInteger(record.level))
    corrupt(`index record ${line} has no level`);
  if (record.text !== undefined && typeof record.text !== 'string')
    corrupt(`index record ${line}'s text is not a string`);
  if (record.scalars !== undefined && !isObject(record.scalars))
    corrupt(`index record ${line}'s scalars are not an object`);
  if (record.longship !== undefined && !isObject(record.longship))
    corrupt(`index record ${line}'s longship fields are not an object`);
  if (record.vector !== undefined) {
    const dense = isObject(record.vector) ? record.vector.dense : undefined;
    if (!isObject(dense) || !isCount(dense.offset) || !isCount(dense.dimensions) || dense.dimensions === 0) {
      corrupt(`index record ${line} has an invalid vector reference`);
    }
  }
}

function checkDenseRefs(
  records: readonly IndexRecord[],
  dense: DenseInfo | undefined,
  denseBytes: number,
): void {
  const refs = records.flatMap((r) => (r.vector ? [r.vector.dense] : [])).sort((a, b) => a.offset - b.offset);
  if (refs.length === 0) {
    if (dense) corrupt('the pack has dense vectors that no index record refers to');
    return;
  }
  if (!dense) corrupt('index records refer to dense vectors the pack does not have');
  let expected = 0;
  for (const ref of refs) {
    if (ref.offset !== expected)
      corrupt(`dense vector offsets are not contiguous (expected ${expected}, found ${ref.offset})`);
    if (ref.dimensions !== dense.dimensions)
      corrupt(`a dense vector has ${ref.dimensions} dimensions, the manifest says ${dense.dimensions}`);
    expected += ref.dimensions;
  }
  if (dense.count !== refs.length)
    corrupt(`the manifest counts ${dense.count} dense vectors, the records ${refs.length}`);
  if (denseBytes !== expected * 4)
    corrupt(`dense.f32 has ${denseBytes} bytes, the records need ${expected * 4}`);
}

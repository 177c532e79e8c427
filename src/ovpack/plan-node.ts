// One node of a pack as Longship writes it: its layers from the sidecars and records, what Longship
// keeps beyond OpenViking's fields where the pack has them, Longship's defaults where not.

import { fileSummaries } from '../context/tree-batches.js';
import { basename, contextTypeOf, join, parentOf, type VikingUri } from '../context/uri.js';
import type { NodeRecord, PostingRecord } from '../store/store.js';
import type { CheckedPack } from './check-pack.js';
import { defaultPosting, packedNode } from './pack-records.js';
import type { IndexRecord } from './records.js';

/** A node ready to write but for its key: its record, lexical document and vectors if it brings them. */
export interface Planned {
  node: Omit<NodeRecord, 'key'>;
  posting: Omit<PostingRecord, 'key'> | null;
  vectors?: Float32Array[];
}

export interface PlanContext {
  checked: CheckedPack;
  rootUri: VikingUri;
  /** The node's index records. */
  records: readonly IndexRecord[];
  /** Whether the pack's vectors are reused. */
  restore: boolean;
  /** The time of nodes whose pack gives none. */
  now: number;
}

/** The node at `path` (a file with its `content`), planned from the pack. */
export async function planNode(
  { checked, rootUri, records, restore, now }: PlanContext,
  path: string,
  kind: 'dir' | 'file',
  content?: string,
): Promise<Planned> {
  const uri = path === '' ? rootUri : join(rootUri, path);
  const packed = packedNode(records, kind);
  const f = packed.fields;
  const side = checked.sidecars.get(path);
  let l0 = side?.abstract ?? packed.l0;
  let l1 = side?.overview ?? packed.l1;
  let summaryKind = packed.summaryKind ?? (l0 !== undefined ? 'llm' : 'extractive');
  if (kind === 'file') {
    const made = await fileSummaries(undefined, uri, content ?? '', {
      ...(l0 !== undefined ? { abstract: l0 } : {}),
      ...(l1 !== undefined ? { overview: l1 } : {}),
    });
    [l0, l1] = [made.l0, made.l1];
    summaryKind = packed.summaryKind ?? made.kind;
  }
  const node: Omit<NodeRecord, 'key'> = {
    uri,
    parent: parentOf(uri)!,
    name: basename(uri),
    kind,
    contextType: contextTypeOf(uri)!,
    l0: l0 ?? basename(uri),
    ...(l1 !== undefined ? { l1 } : {}),
    ...(kind === 'file' ? { l2: content ?? '' } : {}),
    summaryKind,
    ...(f.hash !== undefined ? { hash: f.hash } : {}),
    meta: f.meta ?? {},
    createdAt: f.created_at ?? now,
    updatedAt: f.updated_at ?? now,
    useCount: f.use_count ?? 0,
    ...(f.last_used_at !== undefined ? { lastUsedAt: f.last_used_at } : {}),
  };
  const usual = defaultPosting(node);
  const p = f.posting;
  const posting =
    p === null
      ? null
      : {
          ...(p?.title === null ? {} : { title: p?.title ?? usual.title }),
          ...(p?.headings ? { headings: p.headings } : {}),
          body: p?.body ?? usual.body,
        };
  const vectors =
    restore && packed.vectorRecords.length > 0
      ? packed.vectorRecords.map((r) => {
          const { offset, dimensions } = r.vector!.dense;
          return checked.dense!.slice(offset, offset + dimensions);
        })
      : undefined;
  return { node, posting, ...(vectors ? { vectors } : {}) };
}

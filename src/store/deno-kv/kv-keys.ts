// Where everything lives under the store's prefix. Records under their primary key, so that a range
// of keys is a range of the table in its order; each lookup an index key written beside the record
// in the same batch (docs/guide/deno-kv.md, "Layout").

import type { KvKey } from './kv-handle.js';

/** The keys of one store, all under `[prefix]`. */
export class KvKeys {
  constructor(readonly prefix: string) {}

  readonly all = (): KvKey => [this.prefix];
  /** `{ seq, embedder?, applying? }`: written by every commit, checked by the next. */
  readonly meta = (): KvKey => [this.prefix, 'meta'];
  /** The next key allocateKeys hands out: apart from meta, so that allocating never fails a write's check. */
  readonly nextKey = (): KvKey => [this.prefix, 'next-key'];

  readonly node = (uri: string): KvKey => [this.prefix, 'nodes', uri];
  readonly nodes = (): KvKey => [this.prefix, 'nodes'];
  readonly nodePart =
    (uri: string) =>
    (field: string, i: number): KvKey => [this.prefix, 'node-parts', uri, field, i];
  readonly nodeByKey = (key: number): KvKey => [this.prefix, 'node-by-key', key];
  readonly nodeByParent = (parent: string, uri?: string): KvKey =>
    uri === undefined
      ? [this.prefix, 'node-by-parent', parent]
      : [this.prefix, 'node-by-parent', parent, uri];

  readonly vector = (key: number): KvKey => [this.prefix, 'vectors', key];
  readonly vectors = (): KvKey => [this.prefix, 'vectors'];
  readonly vectorByNode = (nodeKey: number, key?: number): KvKey =>
    key === undefined
      ? [this.prefix, 'vector-by-node', nodeKey]
      : [this.prefix, 'vector-by-node', nodeKey, key];

  readonly posting = (key: number): KvKey => [this.prefix, 'postings', key];
  readonly postings = (): KvKey => [this.prefix, 'postings'];
  readonly postingPart =
    (key: number) =>
    (field: string, i: number): KvKey => [this.prefix, 'posting-parts', key, field, i];

  readonly relation = (from: string, to: string): KvKey => [this.prefix, 'relations', from, to];
  readonly relationsFrom = (from?: string): KvKey =>
    from === undefined ? [this.prefix, 'relations'] : [this.prefix, 'relations', from];
  readonly relationByTo = (to: string, from?: string): KvKey =>
    from === undefined ? [this.prefix, 'relation-by-to', to] : [this.prefix, 'relation-by-to', to, from];

  /** A change record's chunk `i`. */
  readonly change = (seq: number, i?: number): KvKey =>
    i === undefined ? [this.prefix, 'changes', seq] : [this.prefix, 'changes', seq, i];
  readonly changes = (): KvKey => [this.prefix, 'changes'];

  /** A commit too large for one atomic batch: its head, then its mutations in order. */
  readonly journalHead = (id?: string): KvKey =>
    id === undefined ? [this.prefix, 'journal-head'] : [this.prefix, 'journal-head', id];
  readonly journal = (id: string, i?: number): KvKey =>
    i === undefined ? [this.prefix, 'journal', id] : [this.prefix, 'journal', id, i];
  readonly journals = (): KvKey => [this.prefix, 'journal'];

  readonly snapshot = (name: string): KvKey => [this.prefix, 'snapshots', name];
  readonly snapshots = (): KvKey => [this.prefix, 'snapshots'];
  /** Piece `sub` of a snapshot's chunk `index`: a chunk is 4 MiB, a value at most 56 KiB. */
  readonly snapshotPiece = (name: string, generation?: string, index?: number, sub?: number): KvKey =>
    [this.prefix, 'snapshot-chunks', name, generation, index, sub].filter((p) => p !== undefined) as KvKey;
  readonly snapshotPieces = (): KvKey => [this.prefix, 'snapshot-chunks'];
}

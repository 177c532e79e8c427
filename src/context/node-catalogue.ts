// Every node of the store as retrieval needs it: the record without its L1/L2 text. Finding where
// a query looks (a scope: the nodes below some roots) from the store means reading every node
// record below them, 100k of them in a large store; the derived indexes keep this catalogue in
// memory instead, in step with the change log, and snapshot it beside the graph and BM25.

import { LongshipError } from '../errors.js';
import type { NodeRecord } from '../store/store.js';

/** A node as the catalogue keeps it: the record without `l1`, `l2` and `hash`. */
export type CatalogueNode = Omit<NodeRecord, 'l1' | 'l2' | 'hash'>;

/** What retrieval reads. */
export interface NodeCatalogueView {
  /** Moves on every change: a scope read at one version holds until the next. */
  readonly version: number;
  readonly size: number;
  node(uri: string): CatalogueNode | undefined;
  /** Every node whose URI starts with `uri + '/'`, by URI (as `Store.descendants` lists them). */
  below(uri: string): readonly CatalogueNode[];
  /** Every node, by URI. */
  all(): readonly CatalogueNode[];
}

const FORMAT = 1;

/** The nodes by key and by URI, and a list by URI kept sorted lazily. */
export class NodeCatalogue implements NodeCatalogueView {
  readonly #byKey = new Map<number, CatalogueNode>();
  readonly #byUri = new Map<string, CatalogueNode>();
  /** By URI, as of the last sort; `#stale` and `#added` say what changed since. */
  #sorted: CatalogueNode[] = [];
  #stale = new Set<CatalogueNode>();
  #added: CatalogueNode[] = [];
  #version = 0;

  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#byKey.size;
  }

  node(uri: string): CatalogueNode | undefined {
    return this.#byUri.get(uri);
  }

  nodeByKey(key: number): CatalogueNode | undefined {
    return this.#byKey.get(key);
  }

  below(uri: string): readonly CatalogueNode[] {
    const sorted = this.#inOrder();
    const prefix = `${uri}/`;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sorted[mid]!.uri < prefix) low = mid + 1;
      else high = mid;
    }
    let end = low;
    while (end < sorted.length && sorted[end]!.uri.startsWith(prefix)) end++;
    return sorted.slice(low, end);
  }

  /** Every node, by URI. */
  all(): readonly CatalogueNode[] {
    return this.#inOrder();
  }

  /** Adds or replaces the node with `record.key` (its URI may have changed: a move). */
  set(record: NodeRecord): void {
    this.delete(record.key);
    const { l1: _l1, l2: _l2, hash: _hash, ...node } = record;
    this.#byKey.set(node.key, node);
    this.#byUri.set(node.uri, node);
    this.#added.push(node);
    this.#version++;
  }

  delete(key: number): void {
    const node = this.#byKey.get(key);
    if (!node) return;
    this.#byKey.delete(key);
    if (this.#byUri.get(node.uri) === node) this.#byUri.delete(node.uri);
    this.#stale.add(node);
    this.#version++;
  }

  /**
   * The nodes as UTF-8 JSON, by URI. Nodes whose `meta` JSON cannot carry exactly (a Date, a Map,
   * `undefined`…) are listed by key only: {@link NodeCatalogue.load} says to read them back.
   */
  serialize(): Uint8Array {
    const rows: unknown[] = [];
    const readBack: number[] = [];
    for (const n of this.#inOrder()) {
      if (!jsonSafe(n.meta)) {
        readBack.push(n.key);
        continue;
      }
      rows.push([
        n.key,
        n.uri,
        n.parent,
        n.name,
        n.kind,
        n.contextType,
        n.l0,
        n.summaryKind,
        n.meta,
        n.createdAt,
        n.updatedAt,
        n.useCount,
        n.lastUsedAt ?? null,
      ]);
    }
    return new TextEncoder().encode(JSON.stringify({ format: FORMAT, rows, readBack }));
  }

  /**
   * Reads what {@link NodeCatalogue.serialize} wrote: the catalogue, and the keys of the nodes to
   * read back from the store. CORRUPT_INDEX for bytes it cannot have written.
   */
  static load(bytes: Uint8Array): { catalogue: NodeCatalogue; readBack: number[] } {
    let parsed: { format?: unknown; rows?: unknown; readBack?: unknown };
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      throw corrupt('not JSON', error);
    }
    const { rows, readBack } = parsed ?? {};
    if (parsed?.format !== FORMAT || !Array.isArray(rows) || !Array.isArray(readBack)) {
      throw corrupt(`not a format ${FORMAT} catalogue`);
    }
    if (!readBack.every((key) => Number.isSafeInteger(key))) throw corrupt('a read-back key is not a key');
    const catalogue = new NodeCatalogue();
    let previous = '';
    let inOrder = true;
    for (const [i, row] of rows.entries()) {
      const node = nodeOf(row);
      if (!node || catalogue.#byKey.has(node.key) || catalogue.#byUri.has(node.uri)) {
        throw corrupt(`row ${i} is not a valid, unique node`);
      }
      if (node.uri < previous) inOrder = false;
      previous = node.uri;
      catalogue.#byKey.set(node.key, node);
      catalogue.#byUri.set(node.uri, node);
      catalogue.#sorted.push(node);
    }
    if (!inOrder) catalogue.#sorted.sort(byUri);
    return { catalogue, readBack: readBack as number[] };
  }

  /** Brings the sorted list up to date: drops what went, merges in what came (both few, usually). */
  #inOrder(): CatalogueNode[] {
    if (this.#stale.size === 0 && this.#added.length === 0) return this.#sorted;
    const stale = this.#stale;
    const kept = stale.size === 0 ? this.#sorted : this.#sorted.filter((node) => !stale.has(node));
    // A node added and then replaced before this sort is stale too.
    const added = this.#added.filter((node) => !stale.has(node)).sort(byUri);
    this.#sorted = added.length === 0 ? kept : merge(kept, added);
    this.#stale = new Set();
    this.#added = [];
    return this.#sorted;
  }
}

function byUri(a: CatalogueNode, b: CatalogueNode): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

function merge(a: readonly CatalogueNode[], b: readonly CatalogueNode[]): CatalogueNode[] {
  const out = new Array<CatalogueNode>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = byUri(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

/** Whether JSON gives `value` back equal in every way `===` and `in` can tell. */
function jsonSafe(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !jsonSafe(value[i])) return false;
    return true;
  }
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!jsonSafe((value as Record<string, unknown>)[key])) return false;
  return true;
}

const KINDS = new Set(['dir', 'file']);
const TYPES = new Set(['resource', 'memory', 'skill']);
const SUMMARIES = new Set(['extractive', 'llm']);
const isTime = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

function nodeOf(row: unknown): CatalogueNode | undefined {
  if (!Array.isArray(row) || row.length !== 13) return undefined;
  const [
    key,
    uri,
    parent,
    name,
    kind,
    contextType,
    l0,
    summaryKind,
    meta,
    createdAt,
    updatedAt,
    useCount,
    lastUsedAt,
  ] = row as unknown[];
  if (
    !Number.isSafeInteger(key) ||
    typeof uri !== 'string' ||
    (parent !== null && typeof parent !== 'string') ||
    typeof name !== 'string' ||
    !KINDS.has(kind as string) ||
    !TYPES.has(contextType as string) ||
    typeof l0 !== 'string' ||
    !SUMMARIES.has(summaryKind as string) ||
    typeof meta !== 'object' ||
    meta === null ||
    Array.isArray(meta) ||
    !isTime(createdAt) ||
    !isTime(updatedAt) ||
    !isTime(useCount) ||
    (lastUsedAt !== null && !isTime(lastUsedAt))
  ) {
    return undefined;
  }
  return {
    key,
    uri,
    parent,
    name,
    kind,
    contextType,
    l0,
    summaryKind,
    meta,
    createdAt,
    updatedAt,
    useCount,
    ...(lastUsedAt === null ? {} : { lastUsedAt }),
  } as CatalogueNode;
}

function corrupt(reason: string, cause?: unknown): LongshipError {
  return new LongshipError('CORRUPT_INDEX', `node catalogue: ${reason}`, cause ? { cause } : undefined);
}

// Every node of the store as retrieval needs it: the record without its L1/L2 text. Finding where
// a query looks (a scope: the nodes below some roots) from the store means reading every node
// record below them, 100k of them in a large store; the derived indexes keep this catalogue in
// memory instead, in step with the change log, and snapshot it beside the graph and BM25.

import type { NodeRecord } from '../store/store.js';
import {
  type CatalogueNode,
  corruptCatalogue,
  decodeCatalogue,
  encodeCatalogue,
} from './catalogue-snapshot.js';

export type { CatalogueNode } from './catalogue-snapshot.js';

/**
 * What retrieval reads. Nodes loaded from a snapshot read their fields from it through getters:
 * spreading or structured-cloning one copies none of them (its `toJSON()` gives the plain record).
 */
export interface NodeCatalogueView {
  /** Moves on every change: a scope read at one version holds until the next. */
  readonly version: number;
  readonly size: number;
  node(uri: string): CatalogueNode | undefined;
  /** Every node whose URI starts with `uri + '/'`, by URI (as `Store.descendants` lists them). */
  below(uri: string): readonly CatalogueNode[];
  /** Every node, by URI. */
  all(): readonly CatalogueNode[];
  /**
   * What changed since `version` when every change was a node replaced in place (same key, URI,
   * parent and kind: a use recorded, new metadata or summaries), oldest first; undefined when
   * anything else changed, or too long ago to tell. A scope can then swap the nodes, not reload.
   */
  replacedSince(version: number): readonly Replacement[] | undefined;
}

/** A node replaced in place: `node` holds the key, URI, parent and kind that `old` had. */
export interface Replacement {
  old: CatalogueNode;
  node: CatalogueNode;
}

/** How many in-place replacements the catalogue remembers for {@link NodeCatalogueView.replacedSince}. */
const JOURNAL = 1024;

/**
 * The nodes by URI, with a map by key built on first need: an open that only finds never builds it.
 * Changes are merged into the sorted list lazily; until then a URI is looked up among the nodes set
 * since (by URI), then in the sorted list. No map of every URI is made: for a loaded catalogue it
 * decoded every node's URI at the first write after an open (~0.2 s at 100k in Node).
 */
export class NodeCatalogue implements NodeCatalogueView {
  #byKey: Map<number, CatalogueNode> | undefined;
  /** By URI, as of the last sort; `#stale` and `#added` say what changed since. */
  #sorted: CatalogueNode[] = [];
  #stale = new Set<CatalogueNode>();
  #added: CatalogueNode[] = [];
  /** `#added` by URI, less the stale: what `#sorted` does not hold yet. */
  #addedByUri = new Map<string, CatalogueNode>();
  #version = 0;
  /** In-place replacements, the last {@link JOURNAL}, and the version of the last other change. */
  #journal: Array<Replacement & { version: number }> = [];
  #reshapedAt = 0;

  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#byKey ? this.#byKey.size : this.#sorted.length;
  }

  node(uri: string): CatalogueNode | undefined {
    const added = this.#addedByUri.get(uri);
    if (added) return added;
    // Between sorts the list keeps its order; what left it since is stale.
    const sorted = this.#sorted;
    const at = lowerBound(sorted, uri);
    const found = sorted[at];
    return found?.uri === uri && !this.#stale.has(found) ? found : undefined;
  }

  nodeByKey(key: number): CatalogueNode | undefined {
    return this.#keys().get(key);
  }

  below(uri: string): readonly CatalogueNode[] {
    const sorted = this.#inOrder();
    const prefix = `${uri}/`;
    const start = lowerBound(sorted, prefix);
    // What starts with the prefix sorts before whatever else follows it: the end is a search too,
    // so a loaded node's URI is only read when the search needs it.
    let low = start;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sorted[mid]!.uri.startsWith(prefix)) low = mid + 1;
      else high = mid;
    }
    return sorted.slice(start, low);
  }

  all(): readonly CatalogueNode[] {
    return this.#inOrder();
  }

  /** Adds or replaces the node with `record.key` (its URI may have changed: a move). */
  set(record: NodeRecord): void {
    const { l1: _l1, l2: _l2, hash: _hash, ...node } = record;
    const byKey = this.#keys();
    const old = byKey.get(node.key);
    const inPlace =
      old !== undefined && old.uri === node.uri && old.parent === node.parent && old.kind === node.kind;
    this.#remove(node.key);
    byKey.set(node.key, node);
    this.#addedByUri.set(node.uri, node);
    this.#added.push(node);
    this.#version++;
    if (inPlace) {
      this.#journal.push({ version: this.#version, old, node });
      if (this.#journal.length > JOURNAL) this.#journal.splice(0, this.#journal.length - JOURNAL);
    } else {
      this.#reshapedAt = this.#version;
    }
  }

  delete(key: number): void {
    if (!this.#remove(key)) return;
    this.#version++;
    this.#reshapedAt = this.#version;
  }

  replacedSince(version: number): readonly Replacement[] | undefined {
    if (version === this.#version) return [];
    // Every change after `version` must be an in-place one, and still in the journal.
    const journal = this.#journal;
    if (
      this.#reshapedAt > version ||
      version > this.#version ||
      !(journal[0] && journal[0].version <= version + 1)
    ) {
      return undefined;
    }
    return journal.filter((entry) => entry.version > version).map(({ old, node }) => ({ old, node }));
  }

  /** Takes the node with `key` out of the maps and marks it stale in the sorted list. */
  #remove(key: number): boolean {
    const byKey = this.#keys();
    const node = byKey.get(key);
    if (!node) return false;
    byKey.delete(key);
    if (this.#addedByUri.get(node.uri) === node) this.#addedByUri.delete(node.uri);
    this.#stale.add(node);
    return true;
  }

  /** The nodes in the snapshot format of catalogue-snapshot.ts. */
  serialize(): Uint8Array {
    return encodeCatalogue(this.#inOrder());
  }

  /**
   * Reads what {@link NodeCatalogue.serialize} wrote: the catalogue, and the keys of the nodes to
   * read back from the store. CORRUPT_INDEX for bytes it cannot have written; the nodes read their
   * fields from `bytes` when asked, so the caller must leave them as they are.
   */
  static load(bytes: Uint8Array): { catalogue: NodeCatalogue; readBack: number[] } {
    const { nodes, readBack } = decodeCatalogue(bytes);
    const catalogue = new NodeCatalogue();
    catalogue.#sorted = nodes;
    return { catalogue, readBack };
  }

  /** The map by key, built from the sorted list the first time it is needed. */
  #keys(): Map<number, CatalogueNode> {
    if (!this.#byKey) {
      // Nothing changes without the map, so the sorted list is whole here.
      const byKey = new Map<number, CatalogueNode>();
      for (const node of this.#sorted) {
        if (byKey.has(node.key)) throw corruptCatalogue(`key ${node.key} is given twice`);
        byKey.set(node.key, node);
      }
      this.#byKey = byKey;
    }
    return this.#byKey;
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
    this.#addedByUri = new Map();
    return this.#sorted;
  }
}

/** The first index whose URI is not below `uri` in code-unit order. */
function lowerBound(sorted: readonly CatalogueNode[], uri: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]!.uri < uri) low = mid + 1;
    else high = mid;
  }
  return low;
}

function byUri(a: CatalogueNode, b: CatalogueNode): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

/**
 * `b` (the few changed since the last sort, in order) into `a` (all the others, in order), each placed
 * by binary search: only O(b log a) of `a`'s URIs are read, where a walk of both read every one, and a
 * loaded node decodes its URI when read (~50 ms at 100k, at the first find after an open's replay).
 * On equal URIs `a`'s node comes first.
 */
function merge(a: readonly CatalogueNode[], b: readonly CatalogueNode[]): CatalogueNode[] {
  const out = new Array<CatalogueNode>(a.length + b.length);
  let k = 0;
  let from = 0;
  for (const node of b) {
    let low = from;
    let high = a.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (a[mid]!.uri <= node.uri) low = mid + 1;
      else high = mid;
    }
    while (from < low) out[k++] = a[from++]!;
    out[k++] = node;
  }
  while (from < a.length) out[k++] = a[from++]!;
  return out;
}

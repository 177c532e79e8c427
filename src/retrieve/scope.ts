// Where a query looks: the root directories (a target URI or the roots of the context types) and
// every node below them, read from the derived node catalogue (or the store, for sources without
// one). A scope is kept until what it was read from changes (see ScopeCache).

import * as v from 'valibot';
import { roots as typeRoots } from '../context/namespace.js';
import { isWithin, parseUri, type VikingUri } from '../context/uri.js';
import type { CatalogueNode, NodeCatalogueView, Replacement } from '../derived/node-catalogue.js';
import { LongshipError } from '../errors.js';
import { metaSchema } from '../options.js';
import type { ContextType, NodeKind, NodeRecord } from '../store/store.js';
import { NodesByKey } from './nodes-by-key.js';
import { type RetrievalSources, vectorKeysOf } from './sources.js';

/** Which nodes may be returned. Every field narrows; an empty filter allows everything. */
export interface FindFilter {
  /** One context type or several. Without `targetUri` it also picks the roots searched. */
  contextType?: ContextType | readonly ContextType[];
  /** `'file'` for leaves only, `'dir'` for directories only. */
  kind?: NodeKind;
  /**
   * Metadata equality: each key must equal `node.meta[key]` (`===`), or, given an array, equal one
   * of its elements. Directories are still walked through when they do not match; only results are
   * filtered.
   */
  meta?: Readonly<Record<string, unknown>>;
}

const contextTypeSchema = v.picklist(['resource', 'memory', 'skill']);

/** @internal */
export const findFilterSchema = v.strictObject({
  contextType: v.optional(v.union([contextTypeSchema, v.array(contextTypeSchema)])),
  kind: v.optional(v.picklist(['file', 'dir'])),
  meta: v.optional(metaSchema),
});

export interface Scope {
  /** The roots that exist: directories to walk, or a file when the target is one. */
  roots: NodeRecord[];
  /** Every node below the roots (a file root is its own scope), roots excluded, root by root. */
  nodes: readonly NodeRecord[];
  byKey: NodesByKey;
  /**
   * The children in scope of each directory in scope (roots included), by the parent's URI. Made on
   * first read: only a walk (THINKING) reads it, and at 100k nodes it is a third of a scope's cost.
   */
  readonly children: Map<string, NodeRecord[]>;
  /** How many vectors `nodes` have together. */
  vectorCount: number;
  /** The vector keys of a node in `nodes`. */
  vectorKeys: (nodeKey: number) => readonly number[];
}

const ALL_TYPES: readonly ContextType[] = ['resource', 'memory', 'skill'];

/** The context types the filter allows (all three without one). */
export function filterTypes(filter: FindFilter | undefined): readonly ContextType[] {
  const wanted = filter?.contextType;
  if (wanted === undefined) return ALL_TYPES;
  const list = typeof wanted === 'string' ? [wanted] : wanted;
  for (const type of list) {
    if (!ALL_TYPES.includes(type)) {
      throw new LongshipError('INVALID_ARGUMENT', `filter.contextType: unknown context type ${String(type)}`);
    }
  }
  return list;
}

/**
 * `targetUri` (normalised; INVALID_URI if it is not one) or the roots of the filter's context types:
 * `defaults`, the namespace's (docs/guide/namespaces.md).
 */
export function resolveRoots(
  targetUri: string | undefined,
  filter: FindFilter | undefined,
  defaults: Readonly<Record<ContextType, readonly VikingUri[]>> = typeRoots,
): VikingUri[] {
  const types = filterTypes(filter);
  if (targetUri !== undefined) return [parseUri(targetUri)];
  return types.flatMap((type) => defaults[type]);
}

/**
 * Whether a node may be a result at all: not one whose meta says `searchable: false`, as a
 * session's pending messages do (docs/guide/retrieval.md, "What find() returns").
 */
const searchable = (node: NodeRecord): boolean => node.meta.searchable !== false;

/** Whether a node may be returned under `filter`: checked and unpacked once, it runs over every node in scope. */
export function filterPredicate(filter: FindFilter | undefined): (node: NodeRecord) => boolean {
  if (!filter) return searchable;
  const { kind } = filter;
  const types = filter.contextType === undefined ? undefined : filterTypes(filter);
  const meta = Object.entries(filter.meta ?? {});
  return (node) => {
    if (!searchable(node)) return false;
    if (kind !== undefined && node.kind !== kind) return false;
    if (types && !types.includes(node.contextType)) return false;
    for (const [name, wanted] of meta) {
      const value = node.meta[name];
      if (Array.isArray(wanted) ? !wanted.includes(value) : value !== wanted) return false;
    }
    return true;
  };
}

/**
 * Loads the roots that exist and everything below them: from the sources' node catalogue when they
 * have one (no store reads), otherwise from the store.
 */
export async function loadScope(sources: RetrievalSources, rootUris: readonly VikingUri[]): Promise<Scope> {
  const catalogue = sources.nodes;
  const node = catalogue ? (uri: string) => catalogue.node(uri) : (uri: string) => sources.store.node(uri);
  const below = catalogue
    ? (uri: string) => catalogue.below(uri)
    : (uri: string) => sources.store.descendants(uri);
  const roots: NodeRecord[] = [];
  const lists: (readonly NodeRecord[])[] = [];
  for (const uri of rootUris) {
    // Roots nested in one another (a target inside a type's root) are walked once.
    if (roots.some((root) => isWithin(uri, root.uri as VikingUri))) continue;
    const root = await node(uri);
    if (!root) continue;
    roots.push(root);
    lists.push(root.kind === 'file' ? [root] : await below(uri));
  }
  // Roots are disjoint and both sources list descendants by URI: no sort needed. Most roots of a
  // store are empty but one; and Array#flat took 13-24 ms over 100k nodes where concat takes ~1.
  const full = lists.filter((list) => list.length > 0);
  const { byKey, nodes } = NodesByKey.of(full.length === 1 ? full[0]! : ([] as NodeRecord[]).concat(...full));
  const vectorKeys = await vectorKeysOf(sources, nodes);
  const countOf = sources.vectorCountOfNode?.bind(sources) ?? ((key: number) => vectorKeys(key).length);
  let vectorCount = 0;
  // A file root is its own scope, in `nodes` as well as `roots`: those are counted node by node.
  const walk = !catalogue || roots.some((root) => root.kind === 'file');
  const above = walk ? [] : ancestorsOf(roots, catalogue);
  if (!walk && nodes.length + roots.length + above.length === catalogue.size) {
    // Every node is in scope but the roots and the directories above them (viking://user above
    // viking://user/default/memories): the index holds their vectors, less those. Not a walk of 100k nodes at
    // the first find after an open (~20 ms); a commit under way may make it a little high, and the
    // count only steers how a search is filtered.
    vectorCount = sources.vectors.size;
    for (const node of [...roots, ...above]) vectorCount -= countOf(node.key);
  } else {
    for (const n of nodes) vectorCount += countOf(n.key);
  }
  return withChildren({ roots, nodes, byKey, vectorCount, vectorKeys }, () => childrenOf(nodes));
}

/** The nodes above the roots, each once, up to the scheme's root: none of them is in the scope. */
function ancestorsOf(roots: readonly NodeRecord[], catalogue: NodeCatalogueView): CatalogueNode[] {
  const found = new Map<string, CatalogueNode>();
  for (const root of roots) {
    for (let uri = root.parent; uri !== null && !found.has(uri); ) {
      const node = catalogue.node(uri);
      if (!node) break;
      found.set(uri, node);
      uri = node.parent;
    }
  }
  return [...found.values()];
}

/** Each scope's `children`, once made. */
const madeChildren = new WeakMap<Scope, Map<string, NodeRecord[]>>();

/** The scope, its `children` made by `make` when first read, then kept. */
function withChildren(fields: Omit<Scope, 'children'>, make: () => Map<string, NodeRecord[]>): Scope {
  const scope = Object.defineProperty(fields, 'children', {
    get: () => {
      let children = madeChildren.get(scope);
      if (!children) {
        children = make();
        madeChildren.set(scope, children);
      }
      return children;
    },
    enumerable: true,
  }) as Scope;
  return scope;
}

function childrenOf(nodes: readonly NodeRecord[]): Map<string, NodeRecord[]> {
  const children = new Map<string, NodeRecord[]>();
  for (const n of nodes) {
    if (n.parent === null) continue;
    const siblings = children.get(n.parent);
    if (siblings) siblings.push(n);
    else children.set(n.parent, [n]);
  }
  return children;
}

/**
 * The scopes of recent queries, each valid while what it was read from stays as it was: the node
 * catalogue's version, or without one the store's sequence number (every write and every use
 * recorded moves either).
 */
export class ScopeCache {
  readonly #scopes = new Map<string, HeldScope>();
  readonly #capacity: number;

  constructor(capacity = 8) {
    this.#capacity = capacity;
  }

  async load(sources: RetrievalSources, rootUris: readonly VikingUri[]): Promise<Scope> {
    // A rebuilt catalogue is a new object that counts from 0 again: the object is part of the key.
    const catalogue = sources.nodes;
    const source: object = catalogue ?? sources.store;
    const version = catalogue ? catalogue.version : (await sources.store.meta()).seq;
    const key = rootUris.join('\n');
    const held = this.#scopes.get(key);
    if (held?.source === source && held.version === version) return held.scope;
    // Uses recorded and other in-place changes swap nodes in the scope held; the rest reloads it.
    const replaced =
      catalogue && held?.source === source && held.loaded ? catalogue.replacedSince(held.version) : undefined;
    const scope =
      replaced && held?.loaded
        ? Promise.resolve(withReplaced(held.loaded, replaced))
        : loadScope(sources, rootUris);
    const entry: HeldScope = { source, version, scope };
    // Most recently used last, so the first entry is the one to evict.
    this.#scopes.delete(key);
    this.#scopes.set(key, entry);
    if (this.#scopes.size > this.#capacity) this.#scopes.delete(this.#scopes.keys().next().value!);
    scope.then(
      (loaded) => {
        entry.loaded = loaded;
      },
      () => this.#scopes.get(key) === entry && this.#scopes.delete(key),
    );
    return scope;
  }
}

interface HeldScope {
  source: object;
  version: number;
  scope: Promise<Scope>;
  loaded?: Scope;
}

/**
 * The scope with nodes replaced in place: a new Scope (others keep what they derive from one per
 * object), sharing what did not change. The scope itself when none of the nodes is in it.
 */
export function withReplaced(scope: Scope, replaced: readonly Replacement[]): Scope {
  const latest = new Map<number, NodeRecord>();
  for (const { node } of replaced) {
    if (scope.byKey.has(node.key) || scope.roots.some((root) => root.key === node.key))
      latest.set(node.key, node);
  }
  if (latest.size === 0) return scope;
  const swap = (node: NodeRecord) => latest.get(node.key) ?? node;
  const byKey = scope.byKey.withReplaced(latest.values());
  const parents = new Set<string>();
  for (const node of latest.values()) if (node.parent !== null) parents.add(node.parent);
  const nodes = scope.nodes.map(swap);
  const { roots, vectorCount, vectorKeys } = scope;
  // Children the held scope made are updated now (a few lists); others wait to be made from the new
  // nodes, so that a scope never holds on to the one it replaced.
  const held = madeChildren.get(scope);
  const children = held && swapChildren(held, parents, swap);
  return withChildren(
    { roots: roots.map(swap), nodes, byKey, vectorCount, vectorKeys },
    () => children ?? childrenOf(nodes),
  );
}

/** A copy of `children` whose lists under `parents` have their nodes swapped. */
function swapChildren(
  children: Map<string, NodeRecord[]>,
  parents: ReadonlySet<string>,
  swap: (node: NodeRecord) => NodeRecord,
): Map<string, NodeRecord[]> {
  const swapped = new Map(children);
  for (const parent of parents) {
    const siblings = swapped.get(parent);
    if (siblings) swapped.set(parent, siblings.map(swap));
  }
  return swapped;
}

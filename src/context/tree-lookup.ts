// Finding and checking the nodes the tree's operations act on: by URI, with the typed failures a
// shell would give (no such node, a file where a directory is needed, a root that cannot move).
import { LongshipError } from '../errors.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';
import { type Namespace, storedTypeOf } from './namespace.js';
import type { NodeInfo } from './tree.js';
import { isProtected, TOP, TOP_LEVEL } from './tree-roots.js';
import { contextTypeOf, parentOf, parseUri, type VikingUri } from './uri.js';

export function fail(
  code:
    | 'NOT_FOUND'
    | 'ALREADY_EXISTS'
    | 'NOT_A_DIRECTORY'
    | 'IS_A_DIRECTORY'
    | 'DIRECTORY_NOT_EMPTY'
    | 'INVALID_ARGUMENT',
  message: string,
): never {
  throw new LongshipError(code, message);
}

export const depthOf = (uri: string): number => uri.split('/').length;

/** Deepest first: children before their parents, as a shell removes them. */
export const deepestFirst = (nodes: readonly NodeRecord[]): string[] =>
  nodes.map((n) => n.uri).sort((a, b) => depthOf(b) - depthOf(a));

export function infoOf(node: NodeRecord): NodeInfo {
  return {
    uri: node.uri as VikingUri,
    name: node.name,
    kind: node.kind,
    contextType: node.contextType,
    abstract: node.l0,
    summaryKind: node.summaryKind,
    size: node.l2?.length ?? 0,
    meta: node.meta,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
  };
}

export async function existing(store: FullStore, uri: VikingUri): Promise<NodeRecord> {
  return (await store.node(uri)) ?? fail('NOT_FOUND', `no node at ${uri}`);
}

/**
 * Where a node may be written: a file where a URI's shape gives a context type, a directory also
 * where it is a namespace's own directory (docs/guide/namespaces.md).
 */
export function writable(input: string, kind: 'file' | 'dir'): VikingUri {
  const uri = parseUri(input);
  if (uri === TOP) fail('ALREADY_EXISTS', 'viking:// always exists');
  if ((kind === 'file' ? contextTypeOf(uri) : storedTypeOf(uri)) === undefined) {
    fail(
      'INVALID_ARGUMENT',
      `${uri} is outside the spaces: viking://resources, viking://user/{user}/memories|resources|skills|sessions, ` +
        'viking://agent/skills, viking://agent/{agent}/memories (viking://~ is the current user)',
    );
  }
  return uri;
}

export function notRoot(input: string, namespace: Namespace): VikingUri {
  const uri = parseUri(input);
  if (isProtected(uri, namespace))
    fail('INVALID_ARGUMENT', `${uri} is a root: it cannot be removed or moved`);
  return uri;
}

/** Every node at or below `uri`, by URI; everything for the top. */
export async function subtree(store: FullStore, uri: VikingUri): Promise<NodeRecord[]> {
  if (uri === TOP) return (await Promise.all(TOP_LEVEL.map((top) => subtree(store, top)))).flat();
  const node = await existing(store, uri);
  return [node, ...(await store.descendants(uri))];
}

/**
 * The directories to create so that `uri`'s parent exists (parents first), or a typed failure.
 * Stops at the first one that exists, which must be a directory.
 */
export async function missingParents(
  store: FullStore,
  uri: VikingUri,
  create: boolean,
): Promise<VikingUri[]> {
  const missing: VikingUri[] = [];
  for (let parent = parentOf(uri); parent && parent !== TOP; parent = parentOf(parent)) {
    const node = await store.node(parent);
    if (node) {
      if (node.kind !== 'dir') fail('NOT_A_DIRECTORY', `${parent} is a file, not a directory`);
      return missing.reverse();
    }
    if (!create) fail('NOT_FOUND', `the parent ${parent} does not exist (pass parents: true to create it)`);
    missing.push(parent);
  }
  return missing.reverse();
}

// The tree's reads: listings, a node's layers, relations, and the searches of a shell (grep over
// file content, glob over URIs). They take no lock: each reads the store once or walks it as it is.
import { checkOptions } from '../options.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';
import { splitGlob } from './glob.js';
import {
  type GlobOptions,
  type GrepMatch,
  type GrepOptions,
  globOptionsSchema,
  grepOptionsSchema,
  type NodeInfo,
  type Relation,
  type TreeNode,
  type TreeOptions,
  treeOptionsSchema,
} from './tree.js';
import { depthOf, existing, fail, infoOf, subtree } from './tree-lookup.js';
import { TOP, TOP_LEVEL } from './tree-roots.js';
import { join, parseUri, relativeTo, type VikingUri } from './uri.js';

export async function ls(store: FullStore, input: string): Promise<NodeInfo[]> {
  return (await childrenOf(store, parseUri(input))).map(infoOf);
}

/** A directory's children, in `ls` order; `viking://`'s are the top directories. */
export async function childrenOf(store: FullStore, uri: VikingUri): Promise<NodeRecord[]> {
  if (uri === TOP) return Promise.all(TOP_LEVEL.map((top) => existing(store, top)));
  const node = await existing(store, uri);
  if (node.kind !== 'dir') fail('NOT_A_DIRECTORY', `${uri} is a file`);
  return store.children(uri);
}

export async function nestedTree(
  store: FullStore,
  input: string,
  options?: TreeOptions,
): Promise<TreeNode[]> {
  const { depth = 3 } = checkOptions(treeOptionsSchema, options, 'tree()');
  return nest(await treeLevels(store, parseUri(input), depth), depth);
}

/** A node of a tree with its level below the tree's top (1 for a child). */
export interface Leveled {
  node: NodeRecord;
  level: number;
}

/** The nodes from 1 to `depth` levels below `uri`, parents before their children. */
export async function treeLevels(store: FullStore, uri: VikingUri, depth: number): Promise<Leveled[]> {
  if (!(depth >= 1)) fail('INVALID_ARGUMENT', `depth must be at least 1, not ${depth}`);
  const nodes = await subtree(store, uri);
  if (uri !== TOP && nodes[0]!.kind !== 'dir') fail('NOT_A_DIRECTORY', `${uri} is a file`);
  const base = uri === TOP ? depthOf('viking://x') - 1 : depthOf(uri);
  return nodes
    .map((node) => ({ node, level: depthOf(node.uri) - base }))
    .filter(({ level }) => level >= 1 && level <= depth);
}

/**
 * `nodes` nested: each under its parent when the parent is among them (parents come first), else
 * at the top, as a page of a tree starts with the rest of a directory the page before began.
 */
export function nest(nodes: readonly Leveled[], depth: number): TreeNode[] {
  const byParent = new Map<string, TreeNode[]>();
  const top: TreeNode[] = [];
  for (const { node, level } of nodes) {
    const entry: TreeNode = infoOf(node);
    if (node.kind === 'dir' && level < depth) {
      entry.children = [];
      byParent.set(node.uri, entry.children);
    }
    const siblings = node.parent === null ? undefined : byParent.get(node.parent);
    (level > 1 && siblings ? siblings : top).push(entry);
  }
  return top;
}

/**
 * A file's content; a split document's, or one of its section directories', whole text: its files'
 * contents joined in name order, depth first, which is the document's order (docs/guide/retrieval.md,
 * "Reading a whole document"). Any other directory is IS_A_DIRECTORY.
 */
export async function read(store: FullStore, input: string): Promise<string> {
  const node = await existing(store, parseUri(input));
  if (node.kind === 'file') return node.l2 ?? '';
  // Ingestion records the input path on every node it writes for a document; a folder's
  // directories, mkdir()'s and the roots have none.
  const source = node.meta.source;
  if (typeof source !== 'string') {
    fail(
      'IS_A_DIRECTORY',
      `${node.uri} is a directory, with no content of its own: list it with tree() or ls(), and read its files`,
    );
  }
  // Only the document's own files: a file written into it later, or a document added under it, is not its text.
  const files = (await store.descendants(node.uri)).filter(
    (n) => n.kind === 'file' && n.meta.source === source,
  );
  return files
    .map((n) => ({ path: n.uri.split('/'), text: n.l2 ?? '' }))
    .sort((a, b) => comparePaths(a.path, b.path))
    .map((f) => f.text)
    .join('');
}

/**
 * Depth-first order of URI segments, by name. Not the URIs as strings: `-` sorts before `/`, which
 * would put `01-a-2` between `01-a` and `01-a/01-b`.
 */
export function comparePaths(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}

export async function overview(store: FullStore, input: string): Promise<string> {
  const node = await existing(store, parseUri(input));
  return node.l1 ?? node.l0;
}

export async function relations(store: FullStore, input: string): Promise<Relation[]> {
  const uri = parseUri(input);
  await existing(store, uri);
  return (await store.relations(uri)).map((r) => ({
    ...r,
    from: r.from as VikingUri,
    to: r.to as VikingUri,
  }));
}

export async function grep(
  store: FullStore,
  pattern: string | RegExp,
  options?: GrepOptions,
): Promise<GrepMatch[]> {
  const {
    uri: input = TOP,
    ignoreCase = false,
    limit = 1000,
  } = checkOptions(grepOptionsSchema, options, 'grep()');
  const matches = lineMatcher(pattern, ignoreCase);
  const found: GrepMatch[] = [];
  for (const node of await subtree(store, parseUri(input))) {
    if (node.kind !== 'file' || !node.l2) continue;
    const lines = node.l2.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      if (!matches(lines[i]!)) continue;
      found.push({ uri: node.uri as VikingUri, line: i + 1, text: lines[i]! });
      if (found.length >= limit) return found;
    }
  }
  return found;
}

export async function glob(store: FullStore, pattern: string, options?: GlobOptions): Promise<VikingUri[]> {
  const { uri: input = TOP } = checkOptions(globOptionsSchema, options, 'glob()');
  const absolute = /^viking:\/\//i.test(pattern);
  const scope = absolute ? TOP : parseUri(input);
  const { base, rest } = splitGlob(absolute ? pattern.slice('viking://'.length) : pattern);
  const root = base.length > 0 ? join(scope, base.join('/')) : scope;
  if (!rest) return (await store.node(root)) ? [root] : [];
  if (root !== TOP && !(await store.node(root))) return [];
  const nodes = root === TOP ? await subtree(store, TOP) : await store.descendants(root);
  return nodes
    .map((node) => node.uri as VikingUri)
    .filter((uri) => rest.test(relativeTo(uri, root)!))
    .sort();
}

function lineMatcher(pattern: string | RegExp, ignoreCase: boolean): (line: string) => boolean {
  if (pattern instanceof RegExp) {
    // Without g and y, test() keeps no state between lines.
    const regexp = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
    return (line) => regexp.test(line);
  }
  if (typeof pattern !== 'string' || pattern === '')
    fail('INVALID_ARGUMENT', 'grep needs a non-empty pattern');
  if (!ignoreCase) return (line) => line.includes(pattern);
  const lower = pattern.toLowerCase();
  return (line) => line.toLowerCase().includes(lower);
}

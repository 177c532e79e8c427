// The tree's reads: listings, a node's layers, relations, and the searches of a shell (grep over
// file content, glob over URIs). They take no lock: each reads the store once or walks it as it is.
import { checkOptions } from '../options.js';
import type { FullStore } from '../store/full-store.js';
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
  const uri = parseUri(input);
  if (uri === TOP) return (await Promise.all(TOP_LEVEL.map((top) => existing(store, top)))).map(infoOf);
  const node = await existing(store, uri);
  if (node.kind !== 'dir') fail('NOT_A_DIRECTORY', `${uri} is a file`);
  return (await store.children(uri)).map(infoOf);
}

export async function nestedTree(
  store: FullStore,
  input: string,
  options?: TreeOptions,
): Promise<TreeNode[]> {
  const { depth = 3 } = checkOptions(treeOptionsSchema, options, 'tree()');
  const uri = parseUri(input);
  if (!(depth >= 1)) fail('INVALID_ARGUMENT', `depth must be at least 1, not ${depth}`);
  const nodes = await subtree(store, uri);
  if (uri !== TOP && nodes[0]!.kind !== 'dir') fail('NOT_A_DIRECTORY', `${uri} is a file`);
  const base = uri === TOP ? depthOf('viking://x') - 1 : depthOf(uri);
  const byParent = new Map<string, TreeNode[]>();
  const top: TreeNode[] = [];
  for (const node of nodes) {
    const level = depthOf(node.uri) - base;
    if (level < 1 || level > depth) continue;
    const entry: TreeNode = infoOf(node);
    if (node.kind === 'dir' && level < depth) {
      entry.children = [];
      byParent.set(node.uri, entry.children);
    }
    if (level === 1) top.push(entry);
    else byParent.get(node.parent!)?.push(entry);
  }
  return top;
}

export async function read(store: FullStore, input: string): Promise<string> {
  const node = await existing(store, parseUri(input));
  if (node.kind === 'dir') {
    // A large document is added as a directory of its sections: say where its text is.
    fail(
      'IS_A_DIRECTORY',
      `${node.uri} is a directory, with no content of its own (a long document is kept as a directory ` +
        'of its sections): list them with tree() or ls(), and read each one',
    );
  }
  return node.l2 ?? '';
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

// ls and tree a page at a time (docs/guide/retrieval.md, "Listing in pages"). A cursor names the
// listing it came from and the last node it gave; the next page starts at the first node after that
// one in listing order, so a node written or removed between two pages neither repeats nor shifts
// the others.
import { checkOptions } from '../options.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';
import {
  type NodeInfo,
  type NodePage,
  type PageOptions,
  pageOptionsSchema,
  type TreeNode,
  type TreePageOptions,
  treePageOptionsSchema,
} from './tree.js';
import { fail, infoOf } from './tree-lookup.js';
import { childrenOf, comparePaths, type Leveled, nest, treeLevels } from './tree-reads.js';
import { TOP, TOP_LEVEL } from './tree-roots.js';
import { parseUri } from './uri.js';

/** OpenViking's `node_limit` default. */
const DEFAULT_LIMIT = 1000;

/** What a cursor holds: the listing (operation, directory, depth) and the last node given. */
interface Cursor {
  of: 'ls' | 'tree';
  uri: string;
  depth?: number;
  after: string;
}

export async function lsPage(
  store: FullStore,
  input: string,
  options?: PageOptions,
): Promise<NodePage<NodeInfo>> {
  const o = checkOptions(pageOptionsSchema, options, 'lsPage()');
  const uri = parseUri(input);
  const listing: Omit<Cursor, 'after'> = { of: 'ls', uri };
  const after = o.cursor === undefined ? undefined : cursorAfter(o.cursor, listing);
  const nodes = await childrenOf(store, uri);
  const page = pageOf(nodes, after, o.limit ?? DEFAULT_LIMIT);
  return { ...paged(page, listing), nodes: page.nodes.map(infoOf) };
}

export async function treePage(
  store: FullStore,
  input: string,
  options?: TreePageOptions,
): Promise<NodePage<TreeNode>> {
  const o = checkOptions(treePageOptionsSchema, options, 'treePage()');
  const uri = parseUri(input);
  const depth = o.depth ?? 3;
  const listing: Omit<Cursor, 'after'> = { of: 'tree', uri, depth };
  const after = o.cursor === undefined ? undefined : cursorAfter(o.cursor, listing);
  // Depth first, each directory's children by name: the order of tree()'s nested nodes.
  const leveled = (await treeLevels(store, uri, depth)).sort((a, b) => compareUris(a.node.uri, b.node.uri));
  const byNode = new Map<NodeRecord, Leveled>(leveled.map((l) => [l.node, l]));
  const page = pageOf(
    leveled.map((l) => l.node),
    after,
    o.limit ?? DEFAULT_LIMIT,
  );
  return {
    ...paged(page, listing),
    nodes: nest(
      page.nodes.map((n) => byNode.get(n)!),
      depth,
    ),
  };
}

interface Page {
  nodes: NodeRecord[];
  hasMore: boolean;
}

/** The `limit` nodes after the node `after` (the cursor's), of `nodes` in listing order. */
function pageOf(nodes: readonly NodeRecord[], after: string | undefined, limit: number): Page {
  const start = after === undefined ? 0 : nodes.findIndex((node) => compareUris(node.uri, after) > 0);
  const from = start < 0 ? nodes.length : start;
  return { nodes: nodes.slice(from, from + limit), hasMore: from + limit < nodes.length };
}

function paged(page: Page, listing: Omit<Cursor, 'after'>): Omit<NodePage<unknown>, 'nodes'> {
  const last = page.nodes.at(-1);
  if (!page.hasMore || !last) return { hasMore: false };
  return { hasMore: true, cursor: encodeCursor({ ...listing, after: last.uri }) };
}

/** Listing order: the top directories as `viking://` lists them, then depth first by name. */
function compareUris(a: string, b: string): number {
  return topIndex(a) - topIndex(b) || comparePaths(a.split('/'), b.split('/'));
}

function topIndex(uri: string): number {
  const top = TOP_LEVEL.findIndex((root) => uri === root || uri.startsWith(`${root}/`));
  return top < 0 ? TOP_LEVEL.length : top;
}

function encodeCursor(cursor: Cursor): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(cursor))) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The URI a cursor ends after, or INVALID_ARGUMENT when it is not a cursor of this listing. */
function cursorAfter(text: string, listing: Omit<Cursor, 'after'>): string {
  const cursor = decodeCursor(text);
  const same =
    cursor !== undefined &&
    cursor.of === listing.of &&
    cursor.uri === listing.uri &&
    cursor.depth === listing.depth;
  if (!same) {
    fail(
      'INVALID_ARGUMENT',
      `cursor ${JSON.stringify(text.slice(0, 80))} is not one that ${listing.of}Page(${listing.uri}${
        listing.depth === undefined ? '' : `, depth ${listing.depth}`
      }) gave`,
    );
  }
  return cursor.after;
}

function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (typeof value !== 'object' || value === null) return undefined;
    const { of, uri, depth, after } = value as Record<string, unknown>;
    if ((of !== 'ls' && of !== 'tree') || typeof uri !== 'string' || typeof after !== 'string')
      return undefined;
    if (depth !== undefined && typeof depth !== 'number') return undefined;
    // The node it ends after lies in the listing: `viking://` holds them all.
    if (uri !== TOP && !after.startsWith(`${uri}/`)) return undefined;
    return { of, uri, after, ...(depth === undefined ? {} : { depth }) };
  } catch {
    return undefined;
  }
}

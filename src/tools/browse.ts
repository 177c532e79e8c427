// ls and tree: the nodes under a viking:// directory, each as much as a model needs of it (no
// creation time, no summary bookkeeping, no meta).

import * as v from 'valibot';
import type { NodeInfo, TreeNode } from '../context/tree.js';
import { count, uri } from './fields.js';
import { defineTool } from './tool.js';

/** A node as ls and tree give it. */
export type NodeBrief = Pick<
  NodeInfo,
  'uri' | 'name' | 'kind' | 'contextType' | 'abstract' | 'size' | 'updatedAt'
>;
export type TreeBrief = NodeBrief & { children?: TreeBrief[] };

function brief({ uri, name, kind, contextType, abstract, size, updatedAt }: NodeInfo): NodeBrief {
  return { uri, name, kind, contextType, abstract, size, updatedAt };
}

function briefTree(node: TreeNode): TreeBrief {
  return node.children === undefined
    ? brief(node)
    : { ...brief(node), children: node.children.map(briefTree) };
}

/** The most nodes one call of ls or tree gives: OpenViking's `node_limit` default. */
export const maxBrowseLimit = 1000;

const limit = v.optional(
  count(1, maxBrowseLimit, `At most this many nodes (default and most ${maxBrowseLimit})`),
);
const cursor = v.optional(
  v.pipe(
    v.string('must be a string'),
    v.description('The cursor a call with hasMore gave, to list the nodes after it'),
    v.minLength(1, 'must not be empty'),
  ),
);

/** The paging fields of ls and tree: OpenViking's `has_more`, and where to go on. */
export interface BrowsePage {
  /** Whether nodes were left out; pass `cursor` back for them. */
  hasMore: boolean;
  cursor?: string;
}

export interface LsOutput extends BrowsePage {
  uri: string;
  nodes: NodeBrief[];
}

export const ls = defineTool({
  name: 'ls',
  title: 'List a directory',
  description:
    'Lists the nodes directly under a viking:// directory, each with its kind and one-line abstract; ' +
    'when hasMore is true, call again with its cursor for the rest.',
  input: v.strictObject({
    uri: uri('The viking:// directory to list, e.g. viking://resources'),
    limit,
    cursor,
  }),
  readOnly: true,
  run: async (longship, input, { maxEntries }): Promise<LsOutput> => {
    const page = await longship.lsPage(input.uri, pageOf(input, maxEntries));
    return { uri: input.uri, nodes: page.nodes.map(brief), ...pageFields(page) };
  },
});

/** The page to ask for: the caller's limit, within the surface's `maxEntries`. */
function pageOf(input: { limit?: number; cursor?: string }, maxEntries: number | undefined) {
  const most = Math.min(input.limit ?? maxBrowseLimit, maxEntries ?? maxBrowseLimit);
  return { limit: most, ...(input.cursor === undefined ? {} : { cursor: input.cursor }) };
}

function pageFields(page: BrowsePage): BrowsePage {
  return { hasMore: page.hasMore, ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
}

export const defaultTreeDepth = 3;

export interface TreeOutput extends BrowsePage {
  uri: string;
  depth: number;
  nodes: TreeBrief[];
}

export const tree = defineTool({
  name: 'tree',
  title: 'Show a subtree',
  description:
    `The nodes under a viking:// directory, nested, down to \`depth\` levels (default ${defaultTreeDepth}); ` +
    'when hasMore is true, call again with its cursor for the rest.',
  input: v.strictObject({
    uri: uri('The viking:// directory to show, e.g. viking://resources'),
    depth: v.optional(count(1, 16, `How many levels down (default ${defaultTreeDepth})`), defaultTreeDepth),
    limit,
    cursor,
  }),
  readOnly: true,
  run: async (longship, input, { maxEntries }): Promise<TreeOutput> => {
    const page = await longship.treePage(input.uri, { depth: input.depth, ...pageOf(input, maxEntries) });
    return { uri: input.uri, depth: input.depth, nodes: page.nodes.map(briefTree), ...pageFields(page) };
  },
});

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

export interface LsOutput {
  uri: string;
  nodes: NodeBrief[];
  /** How many more there are past the surface's `maxEntries`. */
  more?: number;
}

export const ls = defineTool({
  name: 'ls',
  title: 'List a directory',
  description:
    'Lists the nodes directly under a viking:// directory, each with its kind and one-line abstract.',
  input: v.strictObject({ uri: uri('The viking:// directory to list, e.g. viking://resources') }),
  readOnly: true,
  run: async (longship, input, { maxEntries }): Promise<LsOutput> => {
    const children = await longship.ls(input.uri);
    const shown = maxEntries === undefined ? children : children.slice(0, maxEntries);
    return {
      uri: input.uri,
      nodes: shown.map(brief),
      ...(shown.length < children.length ? { more: children.length - shown.length } : {}),
    };
  },
});

export const defaultTreeDepth = 3;

export interface TreeOutput {
  uri: string;
  depth: number;
  nodes: TreeBrief[];
}

export const tree = defineTool({
  name: 'tree',
  title: 'Show a subtree',
  description: `The nodes under a viking:// directory, nested, down to \`depth\` levels (default ${defaultTreeDepth}).`,
  input: v.strictObject({
    uri: uri('The viking:// directory to show, e.g. viking://resources'),
    depth: v.optional(count(1, 16, `How many levels down (default ${defaultTreeDepth})`), defaultTreeDepth),
  }),
  readOnly: true,
  run: async (longship, input): Promise<TreeOutput> => ({
    uri: input.uri,
    depth: input.depth,
    nodes: (await longship.tree(input.uri, { depth: input.depth })).map(briefTree),
  }),
});

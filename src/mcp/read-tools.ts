// The tools that only read the store: find, search, context, read (at a layer), ls, tree. (context
// records what a session was given, so that its next call leaves it out; it writes no node.)

import type { NodeInfo, TreeNode } from '../context/tree.js';
import type { FindResult } from '../retrieve/retriever.js';
import { defineTool } from './tool.js';
import { contextInput, findInput, lsInput, readInput, searchInput, treeInput } from './tool-inputs.js';
import { toolResult } from './tool-results.js';

/** The hits, without the trace (a debugging aid, too long for a model's context). */
function hits({ memories, resources, skills, total }: FindResult): Record<string, unknown> {
  return { memories, resources, skills, total };
}

/** What a model needs of a node: no timestamps of creation, no summary bookkeeping. */
function brief(node: NodeInfo): Record<string, unknown> {
  const { uri, name, kind, contextType, abstract, size, updatedAt } = node;
  return { uri, name, kind, contextType, abstract, size, updatedAt };
}

function briefTree(node: TreeNode): Record<string, unknown> {
  return node.children === undefined
    ? brief(node)
    : { ...brief(node), children: node.children.map(briefTree) };
}

export const find = defineTool({
  name: 'find',
  title: 'Find context',
  description:
    'Finds the memories, resources and skills that best match a query (BM25 and vectors fused). Each hit has ' +
    'its viking:// URI, a one-line abstract and a score; read a hit for more.',
  input: findInput,
  readOnly: true,
  run: async (longship, { query, targetUri, limit, mode }) =>
    toolResult(hits(await longship.find(query, { targetUri, limit: limit ?? 10, mode }))),
});

export const search = defineTool({
  name: 'search',
  title: 'Search with a session',
  description:
    "Like find, but shaped by a session's recent messages (and, where Longship has an LLM, its intent " +
    'analysis); says which typed queries it ran.',
  input: searchInput,
  readOnly: true,
  run: async (longship, { query, targetUri, limit, sessionId }) => {
    const session = sessionId === undefined ? undefined : longship.session(sessionId);
    const { query_plan, intent, ...result } = await longship.search(query, { targetUri, limit, session });
    return toolResult({ ...hits(result), query_plan, intent });
  },
});

export const context = defineTool({
  name: 'context',
  title: 'Context for the next prompt',
  description:
    'The memories, resources and skills that best match a query, as one block that fits a token budget: ' +
    'each at the richest layer that fits (L2 whole, else L1 overview, else L0 abstract), each with its ' +
    'viking:// URI to cite. With a sessionId, what earlier calls gave that session is left out unless it changed.',
  input: contextInput,
  readOnly: true,
  run: async (longship, { query, tokens, sessionId, targetUri, maxLayer }) => {
    const result = await longship.context(query, {
      budget: { tokens },
      ...(sessionId === undefined ? {} : { session: sessionId }),
      ...(targetUri === undefined ? {} : { targetUri }),
      ...(maxLayer === undefined ? {} : { maxLayer }),
    });
    const { text, ...rest } = result;
    const summary =
      result.leftOut.length === 0
        ? 'Nothing matched the query.'
        : `No context fits: ${result.leftOut.length} hits left out (${reasons(result)}).`;
    return toolResult({ text, ...rest }, text === '' ? summary : text);
  },
});

/** `3 budget, 1 delivered`: why the hits were left out, counted. */
function reasons({ leftOut }: { leftOut: { reason: string }[] }): string {
  const counts = new Map<string, number>();
  for (const { reason } of leftOut) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason}`).join(', ');
}

const layers = { L0: 'abstract', L1: 'overview', L2: 'read' } as const;

export const read = defineTool({
  name: 'read',
  title: 'Read a node',
  description:
    'Reads a viking:// node at a layer: L0 its one-line abstract, L1 its overview, L2 (default) its whole ' +
    'content. Directories have L0 and L1 only.',
  input: readInput,
  readOnly: true,
  run: async (longship, { uri, layer = 'L2' }) => {
    const text = await longship[layers[layer]](uri);
    return toolResult({ uri, layer, text }, text);
  },
});

export const ls = defineTool({
  name: 'ls',
  title: 'List a directory',
  description: 'Lists the nodes directly under a viking:// directory, each with its abstract.',
  input: lsInput,
  readOnly: true,
  run: async (longship, { uri }) => toolResult({ nodes: (await longship.ls(uri)).map(brief) }),
});

export const tree = defineTool({
  name: 'tree',
  title: 'Show a subtree',
  description: 'The nodes under a viking:// directory, nested, down to `depth` levels (default 3).',
  input: treeInput,
  readOnly: true,
  run: async (longship, { uri, depth }) =>
    toolResult({ nodes: (await longship.tree(uri, { depth: depth ?? 3 })).map(briefTree) }),
});

// viking:// nodes as MCP resources: listed a page at a time, top of the tree first; a file reads as
// its content (L2), a directory as its overview (L1). The template `viking://{+path}` says any
// node can be read by its URI.

import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { NodeInfo } from '../context/tree.js';
import type { Longship } from '../engine.js';
import { LongshipError } from '../errors.js';

export const pageSize = 50;

export const resourceTemplate = {
  uriTemplate: 'viking://{+path}',
  name: 'viking-node',
  title: 'A Longship node',
  description: 'Any viking:// node: a file reads as its content, a directory as its overview.',
} as const;

/** MCP's "resource not found" (the specification's -32002; the SDK names no constant for it). */
const resourceNotFound = -32002;

function mimeType(node: NodeInfo): string {
  if (node.kind !== 'file') return 'text/markdown';
  if (/\.(md|markdown)$/i.test(node.name)) return 'text/markdown';
  if (/\.json$/i.test(node.name)) return 'application/json';
  if (/\.html?$/i.test(node.name)) return 'text/html';
  return 'text/plain';
}

function asResource(node: NodeInfo): Resource {
  return {
    uri: node.uri,
    name: node.name,
    description: node.abstract,
    mimeType: mimeType(node),
    size: node.size,
  };
}

/** One page of every node, breadth first from `viking://`; `nextCursor` while more remain. */
export async function listResources(
  longship: Longship,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isSafeInteger(start) || start < 0) {
    throw new McpError(ErrorCode.InvalidParams, `not a cursor of resources/list: ${JSON.stringify(cursor)}`);
  }
  const nodes: NodeInfo[] = [];
  const directories = ['viking://'];
  // One more than the page, to know whether another page follows.
  while (directories.length > 0 && nodes.length <= start + pageSize) {
    for (const node of await longship.ls(directories.shift()!)) {
      nodes.push(node);
      if (node.kind !== 'file') directories.push(node.uri);
    }
  }
  const page = nodes.slice(start, start + pageSize).map(asResource);
  return nodes.length > start + pageSize
    ? { resources: page, nextCursor: String(start + pageSize) }
    : { resources: page };
}

/** A node's text: a file's content, a directory's overview. NOT_FOUND is MCP's resource-not-found. */
export async function readResource(longship: Longship, uri: string): Promise<ReadResourceResult> {
  try {
    const node = await longship.stat(uri);
    const text = node.kind === 'file' ? await longship.read(uri) : await longship.overview(uri);
    return { contents: [{ uri: node.uri, mimeType: mimeType(node), text }] };
  } catch (error) {
    if (!(error instanceof LongshipError)) throw error;
    const code = error.code === 'NOT_FOUND' ? resourceNotFound : ErrorCode.InvalidParams;
    throw new McpError(code, `${error.code}: ${error.message}`, { code: error.code, uri });
  }
}

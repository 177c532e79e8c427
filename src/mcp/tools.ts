// Every tool the MCP server offers, in the order tools/list gives them.

import { context, find, ls, read, search, tree } from './read-tools.js';
import type { McpTool } from './tool.js';
import { addMemory, addResource, sessionAddMessage, sessionCommit } from './write-tools.js';

export const mcpTools: readonly McpTool[] = [
  find,
  search,
  context,
  read,
  ls,
  tree,
  addResource,
  addMemory,
  sessionAddMessage,
  sessionCommit,
];

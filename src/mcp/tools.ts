// Every tool the MCP server offers, in the order tools/list gives them.

import { find, ls, read, search, tree } from './read-tools.js';
import type { McpTool } from './tool.js';
import { addMemory, addResource, sessionAddMessage, sessionCommit } from './write-tools.js';

export const mcpTools: readonly McpTool[] = [
  find,
  search,
  // The `context` tool belongs here: longship.context() (a prompt-ready block under a token budget,
  // issue 27) is not in the engine yet, and this server offers no tool the engine cannot back.
  read,
  ls,
  tree,
  addResource,
  addMemory,
  sessionAddMessage,
  sessionCommit,
];

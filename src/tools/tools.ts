// Every agent tool, in the order MCP's tools/list gives them (docs/guide/mcp.md, "Tools").

import { addMemory } from './add-memory.js';
import { addResource } from './add-resource.js';
import { ls, tree } from './browse.js';
import { context } from './context.js';
import { find, search } from './find.js';
import { read } from './read.js';
import { sessionAddMessage, sessionCommit } from './session-tools.js';
import type { AgentTool } from './tool.js';

export const agentTools = {
  find,
  search,
  context,
  read,
  ls,
  tree,
  add_resource: addResource,
  add_memory: addMemory,
  session_add_message: sessionAddMessage,
  session_commit: sessionCommit,
} as const;

export type AgentToolName = keyof typeof agentTools;

/** The names of the tools there are, in order. */
export const agentToolNames = Object.keys(agentTools) as AgentToolName[];

/** The tool named `name`, or undefined (a name that is not a tool, `constructor` included). */
export function agentToolNamed(name: string): AgentTool | undefined {
  return Object.hasOwn(agentTools, name)
    ? (agentTools[name as AgentToolName] as unknown as AgentTool)
    : undefined;
}

// `longship/ai`: Longship as tools for the Vercel AI SDK (docs/guide/ai-sdk.md), and the result each
// tool gives (the MCP server's too, docs/guide/mcp.md). It imports `ai`, an optional peer
// dependency: only this entry does.

export {
  type DefaultToolName,
  type LongshipToolName,
  type LongshipToolSet,
  type LongshipToolsOptions,
  longshipToolNames,
  longshipTools,
} from '../ai/tools.js';
export type { AddMemoryOutput } from '../tools/add-memory.js';
export type { AddResourceOutput } from '../tools/add-resource.js';
export type { BrowsePage, LsOutput, NodeBrief, TreeBrief, TreeOutput } from '../tools/browse.js';
export type { ContextOutput } from '../tools/context.js';
export type { SearchHits } from '../tools/find.js';
export type { OpenVikingHits, OpenVikingMatch, OpenVikingTypedQuery } from '../tools/openviking-shape.js';
export type { ReadOutput } from '../tools/read.js';
export type { SessionCommitOutput, SessionMessageOutput } from '../tools/session-tools.js';
export type { ToolSession, ToolsLongship } from '../tools/tools-longship.js';

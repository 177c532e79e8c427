// An agent tool (src/tools/, docs/guide/mcp.md "Tools") as MCP offers it: tools/list's description,
// with the input as JSON Schema derived from the tool's one schema, and its output as a result.

import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchema } from '../tools/json-schema.js';
import { type AgentTool, outputText } from '../tools/tool.js';

/** The tool as tools/list describes it. */
export function describeTool(tool: AgentTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toJsonSchema(tool.input),
    annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
  };
}

/**
 * A tool's output as MCP's result: the text a model reads (the output's JSON, or the text itself
 * for read and context) and the output as `structuredContent`, for programs.
 */
export function toolResult(tool: AgentTool, output: object): CallToolResult {
  return {
    content: [{ type: 'text', text: outputText(tool, output) }],
    structuredContent: output as Record<string, unknown>,
  };
}

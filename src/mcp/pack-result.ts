// The pack tools (src/tools/pack-tools.ts) as the MCP server offers them, when its `packs` option
// asks (docs/guide/ovpack.md, "MCP"): export_pack's pack goes in an embedded resource's `blob`,
// MCP's form for binary content, so that a client keeps it as a file rather than as text for a model.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Longship } from '../engine.js';
import { type ExportPackOutput, exportPack, packTools } from '../tools/pack-tools.js';
import { type AgentTool, outputText, type ToolInputSchema } from '../tools/tool.js';

type PackToolName = keyof typeof packTools;

export const packToolNames = Object.keys(packTools) as PackToolName[];

/** The pack tool named `name`, or undefined. */
export function packToolNamed(name: string): AgentTool<ToolInputSchema, object, Longship> | undefined {
  return Object.hasOwn(packTools, name)
    ? (packTools[name as PackToolName] as unknown as AgentTool<ToolInputSchema, object, Longship>)
    : undefined;
}

/**
 * export_pack's result: a line for the model, the pack as an embedded resource, and the rest as
 * `structuredContent` (the base64 once in the message, not twice). Undefined for any other tool.
 */
export function exportPackResult(tool: AgentTool<ToolInputSchema, object, never>, output: object) {
  if (tool.name !== exportPack.name) return undefined;
  const { pack, ...rest } = output as ExportPackOutput;
  return {
    content: [
      { type: 'text', text: outputText(exportPack, output as ExportPackOutput) },
      { type: 'resource', resource: { uri: rest.uri, mimeType: rest.mimeType, blob: pack } },
    ],
    structuredContent: { ...rest },
  } satisfies CallToolResult;
}

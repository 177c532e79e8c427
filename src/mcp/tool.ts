// One MCP tool: its name, what it tells the model, its input schema, and what it does. Input is
// checked here, once for every tool, so no tool runs on input its schema refuses.

import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { Longship } from '../engine.js';
import { LongshipError } from '../errors.js';

export interface McpTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  /** True for tools that only read: clients may run them without asking. */
  readOnly: boolean;
  run(longship: Longship, input: z.output<Input>): Promise<CallToolResult>;
}

/** Keeps each tool's input type tied to its schema in a list of tools of different inputs. */
export function defineTool<Input extends z.ZodObject>(tool: McpTool<Input>): McpTool {
  return tool as unknown as McpTool;
}

/** The tool as tools/list describes it: its input as JSON Schema. */
export function describeTool(tool: McpTool): Tool {
  const { $schema: _, ...inputSchema } = z.toJSONSchema(tool.input, { io: 'input' });
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema as Tool['inputSchema'],
    annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
  };
}

/** `args` checked against the tool's schema; INVALID_ARGUMENT naming every problem otherwise. */
export function checkInput(tool: McpTool, args: unknown): Record<string, unknown> {
  const parsed = tool.input.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
  );
  throw new LongshipError('INVALID_ARGUMENT', `${tool.name}: ${problems.join('; ')}`);
}

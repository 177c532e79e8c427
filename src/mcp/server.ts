// The MCP server over one Longship (docs/guide/mcp.md). Tools are served by our own handlers rather than
// McpServer.registerTool: the SDK's own input check answers with its message only, and a refused
// call must carry Longship's error code (INVALID_ARGUMENT) like every other failure. Each tool is
// the one definition in src/tools/, which the AI SDK tools and the CLI share.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as v from 'valibot';
import type { Longship } from '../engine.js';
import { LongshipError } from '../errors.js';
import { checkOptions, wholeNumber } from '../options.js';
import { toJsonSchema } from '../tools/json-schema.js';
import { type AgentTool, outputText, type ToolInputSchema } from '../tools/tool.js';
import { checkToolInput } from '../tools/tool-input.js';
import { agentToolNamed, agentToolNames } from '../tools/tools.js';
import { exportPackResult, packToolNamed, packToolNames } from './pack-result.js';
import { listResources, readResource, resourceTemplate } from './resources.js';

export interface McpServerOptions {
  /** What the server calls itself to clients (`serverInfo.name`). Default `longship`. */
  name?: string;
  /** Its version (`serverInfo.version`). Default: this package's. */
  version?: string;
  /**
   * When a session of `session_add_message` commits on its own, in the background: once this many
   * messages, or tokens, are pending (docs/guide/sessions.md, "Auto-commit"). Default `{ messages: 20 }`;
   * `false`: only `session_commit` commits.
   */
  autoCommit?: { messages?: number; tokens?: number } | false;
  /**
   * The most one session may hold uncommitted: past either, `session_add_message` is refused with
   * INPUT_TOO_LARGE until the session is committed. Default `{ messages: 100, bytes: 1048576 }`.
   */
  maxPending?: { messages?: number; bytes?: number };
  /**
   * Offer `export_pack` and `import_pack` (docs/guide/ovpack.md, "MCP"): `true`, or `{ maxBytes }`,
   * the largest pack either carries (default 7 MiB; more is INPUT_TOO_LARGE). Default `false`.
   */
  packs?: boolean | { maxBytes?: number };
}

export const mcpServerOptionsSchema = v.strictObject({
  name: v.optional(v.pipe(v.string(), v.minLength(1))),
  version: v.optional(v.pipe(v.string(), v.minLength(1))),
  autoCommit: v.optional(
    v.union(
      [
        v.literal(false),
        v.strictObject({ messages: v.optional(wholeNumber(1)), tokens: v.optional(wholeNumber(1)) }),
      ],
      'must be false or { messages?, tokens? }',
    ),
  ),
  maxPending: v.optional(
    v.strictObject({ messages: v.optional(wholeNumber(1)), bytes: v.optional(wholeNumber(1)) }),
  ),
  packs: v.optional(
    v.union(
      [v.boolean(), v.strictObject({ maxBytes: v.optional(wholeNumber(1)) })],
      'must be true, false or { maxBytes? }',
    ),
  ),
});

/** This package's version, as `serverInfo` reports it (test/mcp pins it to package.json). */
export const packageVersion = '0.1.0';

const instructions =
  'Longship holds context as a viking:// filesystem: resources (viking://resources), memories ' +
  '(viking://user/default/memories, viking://agent/default/memories) and skills (viking://agent/skills). Use find to get ' +
  'ranked hits with one-line abstracts, then read a hit at L1 (overview) or L2 (content) as needed.';

/**
 * An MCP server (the SDK's `Server`) offering `longship` as tools and resources; connect it to a
 * transport, or use {@link createMcpFetchHandler} / {@link serveMcpStdio}, which do.
 *
 * @example
 * const server = createMcpServer(longship, { autoCommit: { messages: 50 } });
 * await server.connect(transport);
 */
export function createMcpServer(longship: Longship, options: McpServerOptions = {}): Server {
  const checked = checkOptions(mcpServerOptionsSchema, options, 'createMcpServer()');
  const { name = 'longship', version = packageVersion, autoCommit, maxPending, packs = false } = checked;
  const sessions = {
    ...(autoCommit === undefined ? {} : { autoCommit }),
    ...(maxPending === undefined ? {} : { maxPending }),
  };
  const maxPackBytes = typeof packs === 'object' ? packs.maxBytes : undefined;
  const toolNamed = (tool: string): AgentTool<ToolInputSchema, object, Longship> | undefined =>
    agentToolNamed(tool) ?? (packs ? packToolNamed(tool) : undefined);
  const toolNames = packs ? [...agentToolNames, ...packToolNames] : agentToolNames;
  const server = new Server({ name, version }, { capabilities: { tools: {}, resources: {} }, instructions });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolNames.map((tool) => describeTool(toolNamed(tool)!)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }, { signal }) => {
    const tool = toolNamed(params.name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `no tool named ${params.name}`);
    try {
      const input = checkToolInput(tool, params.arguments ?? {});
      const output = await tool.run(longship, input, {
        signal,
        sessions,
        ...(maxPackBytes === undefined ? {} : { maxPackBytes }),
      });
      return exportPackResult(tool, output) ?? toolResult(tool, output);
    } catch (error) {
      return toolError(error);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, ({ params }) =>
    listResources(longship, params?.cursor),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [resourceTemplate],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) => readResource(longship, params.uri));
  return server;
}

// How a failed tool call travels: an error result that names the LongshipError's code.

/**
 * A failed call as an MCP tool error: `isError`, the text `CODE: message`, and
 * `structuredContent.error` = `{ code, message }`. Errors that are not Longship's are INTERNAL.
 */
function toolError(error: unknown): CallToolResult {
  const code = error instanceof LongshipError ? error.code : 'INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  return {
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { error: { code, message } },
    isError: true,
  };
}

// An agent tool (src/tools/, docs/guide/mcp.md "Tools") as MCP offers it: tools/list's description,
// with the input as JSON Schema derived from the tool's one schema, and its output as a result.

/** The tool as tools/list describes it. */
function describeTool(tool: AgentTool): Tool {
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
function toolResult(tool: AgentTool, output: object): CallToolResult {
  return {
    content: [{ type: 'text', text: outputText(tool, output) }],
    structuredContent: output as Record<string, unknown>,
  };
}

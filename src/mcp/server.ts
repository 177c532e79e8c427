// The MCP server over one Longship (docs/mcp.md). Tools are served by our own handlers rather than
// McpServer.registerTool: the SDK's own input check answers with its message only, and a refused
// call must carry Longship's error code (INVALID_ARGUMENT) like every other failure.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
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
import { checkOptions } from '../options.js';
import { listResources, readResource, resourceTemplate } from './resources.js';
import { checkInput, describeTool } from './tool.js';
import { toolError } from './tool-results.js';
import { mcpTools } from './tools.js';

export interface McpServerOptions {
  /** What the server calls itself to clients (`serverInfo.name`). Default `longship`. */
  name?: string;
  /** Its version (`serverInfo.version`). Default: this package's. */
  version?: string;
}

export const mcpServerOptionsSchema = v.strictObject({
  name: v.optional(v.pipe(v.string(), v.minLength(1))),
  version: v.optional(v.pipe(v.string(), v.minLength(1))),
});

/** This package's version, as `serverInfo` reports it (test/mcp pins it to package.json). */
export const packageVersion = '0.1.0';

const instructions =
  'Longship holds context as a viking:// filesystem: resources (viking://resources), memories ' +
  '(viking://user/memories, viking://agent/memories) and skills (viking://agent/skills). Use find to get ' +
  'ranked hits with one-line abstracts, then read a hit at L1 (overview) or L2 (content) as needed.';

/**
 * An MCP server (the SDK's `Server`) offering `longship` as tools and resources; connect it to a
 * transport, or use {@link createMcpFetchHandler} / {@link serveMcpStdio}, which do.
 *
 * @example
 * const server = createMcpServer(longship);
 * await server.connect(transport);
 */
export function createMcpServer(longship: Longship, options: McpServerOptions = {}): Server {
  const { name = 'longship', version = packageVersion } = checkOptions(
    mcpServerOptionsSchema,
    options,
    'createMcpServer()',
  );
  const server = new Server({ name, version }, { capabilities: { tools: {}, resources: {} }, instructions });
  const tools = new Map(mcpTools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = tools.get(params.name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `no tool named ${params.name}`);
    try {
      return await tool.run(longship, checkInput(tool, params.arguments));
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

// Streamable HTTP as a plain fetch handler, in stateless mode: each request gets its own server and
// transport, so the handler keeps nothing between requests but the Longship (a session's messages
// are in its store). Web standards only: it runs in Node, Deno and workerd.

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Longship } from '../engine.js';
import { checkOptions } from '../options.js';
import { createMcpServer, type McpServerOptions, mcpServerOptionsSchema } from './server.js';

/**
 * A `fetch` handler that answers MCP's Streamable HTTP (POST JSON-RPC, JSON responses) for
 * `longship`. Mount it at any path; it does no authentication, so put it behind yours.
 *
 * @example
 * const handle = createMcpFetchHandler(longship);
 * Deno.serve((request) => handle(request)); // or `export default { fetch: handle }` in a Worker
 */
export function createMcpFetchHandler(
  longship: Longship,
  options: McpServerOptions = {},
): (request: Request) => Promise<Response> {
  checkOptions(mcpServerOptionsSchema, options, 'createMcpFetchHandler()');
  return async (request) => {
    const server = createMcpServer(longship, options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}

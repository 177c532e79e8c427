// Streamable HTTP as a plain fetch handler, in stateless mode: each request gets its own server and
// transport, so the handler keeps nothing between requests but the Longship (a session's messages
// are in its store). Web standards only: it runs in Node, Deno and workerd. A request is checked
// (Host, Origin, token, body size) before any server is made, so a refused one runs nothing.

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import * as v from 'valibot';
import type { Longship } from '../engine.js';
import { checkOptions } from '../options.js';
import { createHttpGuard, type McpHttpGuardOptions, mcpHttpGuardEntries } from './http-guard.js';
import { defaultMaxMessageBytes, maxMessageBytesSchema } from './message-limit.js';
import { readRequestBody } from './request-body.js';
import { createMcpServer, type McpServerOptions, mcpServerOptionsSchema } from './server.js';

export interface McpHttpOptions extends McpServerOptions, McpHttpGuardOptions {
  /**
   * The largest request body taken, in bytes; a larger one is answered 413, unread. Default
   * 20 MiB + 64 KiB: room for a document at the ingestion limit (docs/guide/mcp.md, "Limits").
   */
  maxMessageBytes?: number;
}

const mcpHttpOptionsSchema = v.strictObject({
  ...mcpServerOptionsSchema.entries,
  ...mcpHttpGuardEntries,
  maxMessageBytes: maxMessageBytesSchema,
});

/**
 * A `fetch` handler that answers MCP's Streamable HTTP (POST JSON-RPC, JSON responses) for
 * `longship`. Mount it at any path. By default it serves only localhost (Host and Origin, against
 * DNS rebinding); name the hosts and origins of a deployment, and set a `token` to require
 * `Authorization: Bearer <token>` (docs/guide/mcp.md, "Security").
 *
 * @example
 * const handle = createMcpFetchHandler(longship, {
 *   allowedHosts: ['mcp.example.com'],
 *   token: secret, // a long random string the clients are given
 * });
 * Deno.serve((request) => handle(request)); // or `export default { fetch: handle }` in a Worker
 */
export function createMcpFetchHandler(
  longship: Longship,
  options: McpHttpOptions = {},
): (request: Request) => Promise<Response> {
  const {
    allowedHosts,
    allowedOrigins,
    token,
    maxMessageBytes = defaultMaxMessageBytes,
    ...serverOptions
  } = checkOptions(mcpHttpOptionsSchema, options, 'createMcpFetchHandler()');
  const guard = createHttpGuard({ allowedHosts, allowedOrigins, token });
  return async (request) => {
    const refused = await guard(request);
    if (refused !== undefined) return refused;
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const body = await readRequestBody(request, maxMessageBytes);
      if (!body.ok) return body.refusal;
      parsedBody = body.json;
    }
    const server = createMcpServer(longship, serverOptions);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody });
    } finally {
      await server.close();
    }
  };
}

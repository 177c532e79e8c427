// The MCP server on this process's stdin and stdout, for clients that start it as a command
// (Claude Desktop, Cursor, `claude mcp add`). Node only: the SDK's stdio transport is Node's streams.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Longship } from '../engine.js';
import { processStdio } from '../env/stdio.js';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import { createMcpServer, type McpServerOptions, mcpServerOptionsSchema } from './server.js';

/** The SDK's stdio transport, by a name no bundler resolves: it imports node:process. */
const stdioModule = '@modelcontextprotocol/sdk/server/stdio.js';

export interface McpStdio {
  server: Server;
  /** Resolves once the client has hung up (stdin ended) or the server was closed. */
  closed: Promise<void>;
}

/**
 * Serves `longship` over MCP on stdin/stdout until the client hangs up. Nothing else may write to
 * stdout meanwhile (it is the protocol's); log to stderr.
 *
 * @example
 * const { closed } = await serveMcpStdio(longship);
 * await closed;
 * await longship.close();
 */
export async function serveMcpStdio(longship: Longship, options: McpServerOptions = {}): Promise<McpStdio> {
  checkOptions(mcpServerOptionsSchema, options, 'serveMcpStdio()');
  const streams = processStdio();
  if (streams === undefined) {
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      'serveMcpStdio() needs Node (stdin and stdout); use createMcpFetchHandler() here',
    );
  }
  const { StdioServerTransport } = (await import(
    /* webpackIgnore: true */ /* @vite-ignore */ stdioModule
  )) as typeof import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = createMcpServer(longship, options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  streams.stdin.once('end', () => void server.close());
  await server.connect(new StdioServerTransport(streams.stdin, streams.stdout));
  return { server, closed };
}

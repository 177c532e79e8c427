// The MCP server on this process's stdin and stdout, for clients that start it as a command
// (Claude Desktop, Cursor, `claude mcp add`). Node only: it reads Node's streams.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as v from 'valibot';
import type { Longship } from '../engine.js';
import { processStdio } from '../env/stdio.js';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import { defaultMaxMessageBytes, maxMessageBytesSchema } from './message-limit.js';
import { createMcpServer, type McpServerOptions, mcpServerOptionsSchema } from './server.js';
import { StdioTransport } from './stdio-transport.js';

export interface McpStdioOptions extends McpServerOptions {
  /**
   * The largest message (one line) taken, in bytes; a larger one is answered with a JSON-RPC
   * error and the server goes on. Default 20 MiB + 64 KiB: room for a document at the ingestion
   * limit, however its JSON is escaped (docs/guide/mcp.md, "Limits").
   */
  maxMessageBytes?: number;
}

const mcpStdioOptionsSchema = v.strictObject({
  ...mcpServerOptionsSchema.entries,
  maxMessageBytes: maxMessageBytesSchema,
});

export interface McpStdio {
  server: Server;
  /** Resolves once the client has hung up (stdin ended) or the server was closed. */
  closed: Promise<void>;
}

/**
 * Serves `longship` over MCP on stdin/stdout until the client hangs up. Nothing else may write to
 * stdout meanwhile (it is the protocol's); log to stderr, where refused messages are reported too.
 *
 * @example
 * const { closed } = await serveMcpStdio(longship);
 * await closed;
 * await longship.close();
 */
export async function serveMcpStdio(longship: Longship, options: McpStdioOptions = {}): Promise<McpStdio> {
  const { maxMessageBytes = defaultMaxMessageBytes, ...serverOptions } = checkOptions(
    mcpStdioOptionsSchema,
    options,
    'serveMcpStdio()',
  );
  const streams = processStdio();
  if (streams === undefined) {
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      'serveMcpStdio() needs Node (stdin and stdout); use createMcpFetchHandler() here',
    );
  }
  const server = createMcpServer(longship, serverOptions);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  streams.stdin.once('end', () => void server.close());
  const { stdin, stdout, stderr } = streams;
  const log = (line: string) => void stderr.write(`${line}\n`);
  await server.connect(new StdioTransport({ stdin, stdout, maxMessageBytes, log }));
  return { server, closed };
}

// Run by test/edge/deno-mcp.test.ts with `deno run --sloppy-imports`: serves MCP's Streamable HTTP
// with Deno.serve and createMcpFetchHandler() over a Longship in memory, on a free port of
// 127.0.0.1, printed as one JSON line; stops when stdin ends.

import { createMcpFetchHandler } from '../../src/exports/mcp.js';
import { openLongship } from '../../src/index.js';
import { hashEmbedder } from '../context/hash-embedder.js';

declare const Deno: {
  version: { deno: string };
  stdin: { readable: ReadableStream<Uint8Array> };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): { shutdown(): Promise<void> };
};

const longship = await openLongship({ embedder: hashEmbedder });
const handle = createMcpFetchHandler(longship);
const server = Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, port })),
  },
  handle,
);
const reader = Deno.stdin.readable.getReader();
while (!(await reader.read()).done) {
  // Until the test hangs up.
}
await server.shutdown();
await longship.close();

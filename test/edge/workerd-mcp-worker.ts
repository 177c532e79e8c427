// Bundled by test/edge/workerd-mcp.test.ts and run in workerd by Miniflare: a Worker that answers
// MCP's Streamable HTTP with createMcpFetchHandler().
//
// Each request opens its own Longship over one memory store kept by the isolate. One Longship for
// every request fails its second write in workerd today: its close() signal, made by the request
// that opened it, is an I/O object no other request may touch (docs/guide/mcp.md, "workerd").

import { createMcpFetchHandler, serveMcpStdio } from '../../src/exports/mcp.js';
import { LongshipError, openLongship, openMemoryStore } from '../../src/index.js';
import usearch from '../../wasm/dist/usearch.wasm';
import { hashEmbedder } from '../context/hash-embedder.js';

let store: ReturnType<typeof openMemoryStore> | undefined;

/** What serveMcpStdio() says where there is no stdin: a typed error, not a crash. */
async function stdioRefusal(longship: Parameters<typeof serveMcpStdio>[0]): Promise<unknown> {
  try {
    await serveMcpStdio(longship);
    return { served: true };
  } catch (error) {
    return error instanceof LongshipError
      ? { code: error.code, message: error.message }
      : { error: String(error) };
  }
}

export default {
  async fetch(request: Request): Promise<Response> {
    store ??= openMemoryStore();
    const longship = await openLongship({ embedder: hashEmbedder, usearch, store: await store });
    if (new URL(request.url).pathname === '/stdio') return Response.json(await stdioRefusal(longship));
    return createMcpFetchHandler(longship)(request);
  },
};

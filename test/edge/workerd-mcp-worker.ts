// Bundled by test/edge/workerd-mcp.test.ts and run in workerd by Miniflare: a Worker that answers
// MCP's Streamable HTTP with createMcpFetchHandler().
//
// Each request opens its own Longship over one memory store kept by the isolate. One Longship for
// every request fails its second write in workerd today: its close() signal, made by the request
// that opened it, is an I/O object no other request may touch (docs/mcp.md, "workerd").

import { createMcpFetchHandler } from '../../src/exports/mcp.js';
import { openLongship, openMemoryStore } from '../../src/index.js';
import usearch from '../../wasm/dist/usearch.wasm';
import { hashEmbedder } from '../context/hash-embedder.js';

let store: ReturnType<typeof openMemoryStore> | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    store ??= openMemoryStore();
    const longship = await openLongship({ embedder: hashEmbedder, usearch, store: await store });
    return createMcpFetchHandler(longship)(request);
  },
};

// The MCP fetch handler in workerd (Miniflare): the SDK's real Client over Streamable HTTP, its
// fetch dispatched into the Worker, the same calls as in Node (test/mcp/scenario.ts).

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Miniflare } from 'miniflare';
import { expect, it } from 'vitest';
import { addThenFind, badCallsAreRefused, data, memories, resourcesServeIt } from '../mcp/scenario.js';
import { bundleWorker } from './workerd-bundle.js';

const worker = fileURLToPath(new URL('./workerd-mcp-worker.ts', import.meta.url));
const wasm = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

it('serves MCP from a Worker: add, find, context, read, resources, memories, refusals', {
  timeout: 120_000,
}, async () => {
  const miniflare = new Miniflare({
    compatibilityDate: '2026-04-01',
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: await bundleWorker(worker) },
      { type: 'CompiledWasm', path: 'usearch.wasm', contents: await readFile(wasm) },
    ],
  });
  const client = new Client({ name: 'test', version: '1' });
  try {
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: async (url, init) => (await miniflare.dispatchFetch(url, init as never)) as unknown as Response,
    });
    const stdio = await miniflare.dispatchFetch('http://localhost/stdio');
    expect(await stdio.json()).toEqual({
      code: 'UNSUPPORTED_INPUT',
      message: expect.stringMatching(/needs Node.*createMcpFetchHandler/),
    });
    await client.connect(transport);
    await badCallsAreRefused(client);
    const { resources } = await client.listResources();
    expect(resources.filter((resource) => resource.uri.startsWith('viking://resources/'))).toEqual([]);
    const uri = await addThenFind(client);
    // context() in workerd: the o200k_base tokenizer loads and counts inside the Worker.
    const block = await data(client, 'context', {
      query: 'how are uploads retried with backoff',
      tokens: 400,
    });
    expect(block).toMatchObject({ tokenizer: 'o200k_base', budget: { tokens: 400 } });
    expect(block.text).toContain(`<resource uri="${uri}" layer="L2">`);
    expect(block.tokens).toBeLessThanOrEqual(400);
    await resourcesServeIt(client, uri);
    await memories(client);
    // No sessions: each request has its own Longship here (workerd-mcp-worker.ts), and a session's
    // uncommitted messages live in its Longship's memory.
  } finally {
    await client.close();
    await miniflare.dispose();
  }
});

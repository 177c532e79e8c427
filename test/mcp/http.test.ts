// The MCP server over Streamable HTTP: the SDK's real Client and its HTTP transport, its fetch
// answered by createMcpFetchHandler() in process (the same Request/Response a runtime hands it).

import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMcpFetchHandler, createMcpServer, serveMcpStdio } from '../../src/exports/mcp.js';
import { type Longship, openLongship } from '../../src/index.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import {
  addThenFind,
  badCalls,
  badCallsAreRefused,
  contextFits,
  memories,
  resourcesServeIt,
  sessions,
} from './scenario.js';

let longship: Longship;
let client: Client;

beforeEach(async () => {
  longship = await openLongship({ embedder: hashEmbedder });
  const handle = createMcpFetchHandler(longship);
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
    fetch: (url, init) => handle(new Request(url, init)),
  });
  client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
});

afterEach(async () => {
  await client.close();
  await longship.close();
});

it('lists the tools, each with a closed JSON Schema of its input', async () => {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual([
    'find',
    'search',
    'context',
    'read',
    'ls',
    'tree',
    'add_resource',
    'add_memory',
    'session_add_message',
    'session_commit',
  ]);
  for (const tool of tools)
    expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
  expect(tools.find((tool) => tool.name === 'add_resource')?.inputSchema.required).toEqual([
    'content',
    'name',
  ]);
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  expect(client.getServerVersion()).toEqual({ name: 'longship', version: manifest.version });
});

it('adds a document, finds it, reads it at each layer, and serves it as a resource', async () => {
  const uri = await addThenFind(client);
  expect(await longship.read(uri)).toContain('exponential backoff');
  await contextFits(client, uri);
  await resourcesServeIt(client, uri);
  const ls = await client.callTool({ name: 'ls', arguments: { uri: 'viking://resources/docs' } });
  expect(ls.structuredContent).toMatchObject({ nodes: [{ uri, kind: 'file' }] });
  const tree = await client.callTool({ name: 'tree', arguments: { uri: 'viking://resources', depth: 2 } });
  expect(tree.structuredContent).toMatchObject({
    nodes: [{ uri: 'viking://resources/docs', children: [{ uri }] }],
  });
});

it('keeps memories and sessions', async () => {
  await memories(client);
  await sessions(client);
  expect(await longship.read('viking://agent/default/memories/notes/deploys')).toBe(
    'Deploys go out on Tuesdays.',
  );
});

it(`refuses ${badCalls.length} bad calls with their Longship code, and writes nothing`, async () => {
  const before = {
    seq: (await longship.store.meta()).seq,
    resources: await longship.tree('viking://', { depth: 8 }),
  };
  await badCallsAreRefused(client);
  expect((await longship.store.meta()).seq).toBe(before.seq);
  expect(await longship.tree('viking://', { depth: 8 })).toEqual(before.resources);
});

it('answers a tool the server lacks, and a bad cursor, as protocol errors', async () => {
  await expect(client.callTool({ name: 'delete_all', arguments: { query: 'x' } })).rejects.toThrow(
    /no tool named delete_all/,
  );
  await expect(client.listResources({ cursor: 'x' })).rejects.toThrow(/cursor/);
});

it('refuses unknown options of each entry, before serving anything', async () => {
  const invalid = expect.objectContaining({
    code: 'INVALID_ARGUMENT',
    message: expect.stringMatching(/titel/),
  });
  expect(() => createMcpServer(longship, { titel: 'x' } as never)).toThrow(invalid);
  expect(() => createMcpFetchHandler(longship, { titel: 'x' } as never)).toThrow(invalid);
  await expect(serveMcpStdio(longship, { titel: 'x' } as never)).rejects.toEqual(invalid);
  expect(() => createMcpServer(longship, { version: '' })).toThrow(
    expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
  );
});

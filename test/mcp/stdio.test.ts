// The MCP server over stdio: the SDK's real Client starts a Node process serving a file store
// (stdio-server.ts) and talks to it; the store is then reopened here to see what was written.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLongship } from '../../src/index.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import {
  addThenFind,
  badCallsAreRefused,
  contextFits,
  data,
  memories,
  resourcesServeIt,
  sessions,
} from './scenario.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-mcp-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Starts the server process on `path`, runs `talk` with a connected Client, and hangs up. */
async function overStdio(path: string, talk: (client: Client) => Promise<void>): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'test/mcp/stdio-server.ts', path],
    cwd: process.cwd(),
    stderr: 'inherit',
  });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  try {
    await talk(client);
  } finally {
    await client.close();
  }
}

/** The store's last commit, opened here once the server process has let go of it. */
async function seqOf(path: string): Promise<number> {
  const longship = await openLongship({ store: path, embedder: hashEmbedder });
  try {
    return (await longship.store.meta()).seq;
  } finally {
    await longship.close();
  }
}

it('refuses bad calls with their Longship code and writes nothing', { timeout: 60_000 }, async () => {
  const path = join(folder, 'refused');
  await seqOf(path); // created, with its roots
  const before = await seqOf(path);
  await overStdio(path, badCallsAreRefused);
  expect(await seqOf(path)).toBe(before);
});

it('adds, finds, reads and serves resources, memories and sessions', { timeout: 60_000 }, async () => {
  const path = join(folder, 'served');
  let uri = '';
  await overStdio(path, async (client) => {
    uri = await addThenFind(client);
    await contextFits(client, uri);
    await resourcesServeIt(client, uri);
    await memories(client);
    await sessions(client);
  });
  // What the first process wrote, a second one serves.
  await overStdio(path, async (client) => {
    expect((await data(client, 'read', { uri })).text).toContain('exponential backoff');
  });
  const longship = await openLongship({ store: path, embedder: hashEmbedder });
  try {
    expect((await longship.find('uploads retried with backoff')).resources.map((hit) => hit.uri)).toContain(
      uri,
    );
  } finally {
    await longship.close();
  }
});

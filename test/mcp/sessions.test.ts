// The MCP server's sessions (docs/guide/mcp.md, "Sessions"): session_add_message auto-commits by default,
// refuses a session past its cap on pending messages or bytes until it is committed, and both are
// options of the server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/hash-embedder.js';

let longship: Longship;
let client: Client;

async function serve(options?: McpServerOptions): Promise<void> {
  longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(longship, options).connect(serverSide);
  client = new Client({ name: 'sessions', version: '1' });
  await client.connect(clientSide);
}

afterEach(async () => {
  await client.close();
  await longship.close();
});

async function say(content: string, sessionId = 'chat'): Promise<CallToolResult> {
  const args = { sessionId, role: 'user', content };
  return (await client.callTool({ name: 'session_add_message', arguments: args })) as CallToolResult;
}

async function counts(id = 'chat') {
  await longship.session(id).waitCommitted();
  const { pending, archives } = await longship.sessionInfo(id);
  return { pending, archives };
}

describe('session_add_message', () => {
  it('commits on its own every 20 messages by default', async () => {
    await serve();
    for (let i = 1; i <= 19; i++) expect((await say(`Message ${i}.`)).isError).toBeFalsy();
    expect(await counts()).toEqual({ pending: 19, archives: 0 });
    await say('Message 20.');
    expect(await counts()).toEqual({ pending: 0, archives: 1 });
  });

  it('commits by the server option, or never with autoCommit: false', async () => {
    await serve({ autoCommit: { messages: 3 } });
    for (const n of [1, 2, 3, 4]) await say(`Message ${n}.`);
    expect(await counts()).toEqual({ pending: 1, archives: 1 });
    await client.close();
    await longship.close();
    await serve({ autoCommit: false });
    for (let i = 1; i <= 25; i++) await say(`Message ${i}.`);
    expect(await counts()).toEqual({ pending: 25, archives: 0 });
  });

  it('refuses a session past its cap, writing nothing, until it is committed', async () => {
    await serve({ autoCommit: false, maxPending: { messages: 3 } });
    for (const n of [1, 2, 3]) await say(`Message ${n}.`);
    const seq = (await longship.store.meta()).seq;
    const refused = await say('Message 4.');
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      error: {
        code: 'INPUT_TOO_LARGE',
        message:
          'session_add_message: session chat is full (3 messages pending, at most 3); session_commit archives what it holds',
      },
    });
    expect((await longship.store.meta()).seq).toBe(seq);
    // Another session has room of its own.
    expect((await say('Elsewhere.', 'other')).isError).toBeFalsy();
    await client.callTool({ name: 'session_commit', arguments: { sessionId: 'chat' } });
    expect((await say('Message 4.')).isError).toBeFalsy();
    expect(await counts()).toEqual({ pending: 1, archives: 1 });
  });

  it('refuses a message that would take the pending messages past the cap in bytes', async () => {
    await serve({ maxPending: { bytes: 1800 } });
    expect((await say('a'.repeat(900))).isError).toBeFalsy();
    const refused = await say('b'.repeat(900));
    expect(refused.structuredContent).toMatchObject({
      error: { code: 'INPUT_TOO_LARGE', message: expect.stringMatching(/more than 1800 bytes/) },
    });
    expect(await counts()).toEqual({ pending: 1, archives: 0 });
  });
});

describe('the server options', () => {
  it.each([
    [{ autoCommit: true }, /option 'autoCommit' must be false or \{ messages\?, tokens\? \}/],
    [{ autoCommit: { idleMs: 1000 } }, /option 'autoCommit' must be false or/],
    [{ maxPending: { messages: 0 } }, /option 'maxPending\.messages' must be ≥ 1/],
    [{ maxPending: { pending: 5 } }, /unknown option 'maxPending\.pending'/],
  ])('%j is INVALID_ARGUMENT', async (options, message) => {
    longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
    client = new Client({ name: 'unused', version: '1' });
    expect(() => createMcpServer(longship, options as never)).toThrow(message);
  });
});

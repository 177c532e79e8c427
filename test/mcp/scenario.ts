// What both transports must do, through the SDK's real Client: the same calls over Streamable HTTP
// (http.test.ts) and stdio (stdio.test.ts).

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

export const retryDoc = [
  '# Retries',
  '',
  'Uploads are retried with exponential backoff: the first retry after 200 ms, doubling up to 30 seconds.',
  'A request that fails with a 4xx status is never retried.',
].join('\n');

/** Calls a tool; the result as the SDK's client returns it. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured data of a successful call; fails the test, with the error text, otherwise. */
// biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the tool it called
export async function data(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await call(client, name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent;
}

/** Every resource, page by page. */
export async function allResources(client: Client): Promise<{ uri: string; description?: string }[]> {
  const all = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    all.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}

/** add_resource, then find finds it, and read gives each layer. Returns the document's URI. */
export async function addThenFind(client: Client): Promise<string> {
  const added = await data(client, 'add_resource', {
    content: retryDoc,
    name: 'retries.md',
    target: 'viking://resources/docs',
  });
  expect(added.uris).toEqual(['viking://resources/docs/retries.md']);
  const [uri] = added.uris as string[];

  const found = await data(client, 'find', { query: 'how are uploads retried with backoff', limit: 5 });
  expect(found.resources.map((hit: { uri: string }) => hit.uri)).toContain(uri);

  const l2 = await call(client, 'read', { uri, layer: 'L2' });
  expect(l2.content).toEqual([{ type: 'text', text: retryDoc }]);
  expect((await data(client, 'read', { uri })).text).toBe(retryDoc); // L2 is the default
  const l1 = await data(client, 'read', { uri, layer: 'L1' });
  const l0 = await data(client, 'read', { uri, layer: 'L0' });
  expect(l0.text.length).toBeGreaterThan(0);
  expect(l0.text.length).toBeLessThan(retryDoc.length);
  expect(l1.text.length).toBeGreaterThan(0);
  expect([l0.layer, l1.layer]).toEqual(['L0', 'L1']);
  return uri!;
}

/**
 * context: the document in a block within the budget, cited by its URI; asked again for the same
 * session, it is left out as delivered; at maxLayer L0, only abstracts.
 */
export async function contextFits(client: Client, uri: string): Promise<void> {
  const args = { query: 'how are uploads retried with backoff', tokens: 400, sessionId: 'ctx-1' };
  const first = await call(client, 'context', args);
  expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
  const text = (first.content as { text: string }[])[0]!.text;
  expect(text).toContain(`<resource uri="${uri}" layer="L2">`);
  expect(first.structuredContent).toMatchObject({ text, tokenizer: 'o200k_base', budget: { tokens: 400 } });
  expect((first.structuredContent as { tokens: number }).tokens).toBeLessThanOrEqual(400);
  const again = await call(client, 'context', args);
  expect((again.content as { text: string }[])[0]!.text).toMatch(
    /^No context fits: \d+ hits left out \(.*delivered/,
  );
  expect(again.structuredContent).toMatchObject({ text: '', parts: [] });
  const abstracts = await data(client, 'context', { ...args, sessionId: 'ctx-2', maxLayer: 'L0' });
  expect(abstracts.parts.length).toBeGreaterThan(0);
  expect(abstracts.parts.every((part: { layer: string }) => part.layer === 'L0')).toBe(true);
}

/** The document as an MCP resource: listed (with its abstract) and read. */
export async function resourcesServeIt(client: Client, uri: string): Promise<void> {
  const listed = await allResources(client);
  const entry = listed.find((resource) => resource.uri === uri);
  expect(entry?.description).toBe((await data(client, 'read', { uri, layer: 'L0' })).text);
  expect(listed.map((resource) => resource.uri)).toContain('viking://user/default/memories');

  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['viking://{+path}']);

  const read = await client.readResource({ uri });
  expect(read.contents).toEqual([{ uri, mimeType: 'text/markdown', text: retryDoc }]);
  const directory = await client.readResource({ uri: 'viking://resources/docs' });
  expect(directory.contents[0]).toMatchObject({ uri: 'viking://resources/docs', text: expect.any(String) });
  await expect(client.readResource({ uri: 'viking://resources/docs/missing.md' })).rejects.toThrow(
    /NOT_FOUND/,
  );
}

/** Refused calls: each an error result carrying the Longship code. */
export const badCalls: [string, Record<string, unknown>, string][] = [
  ['add_resource', { content: 'A note.' }, 'INVALID_ARGUMENT'], // no name
  ['add_resource', { content: 'A note.', name: 'note.md', path: 'viking://resources' }, 'INVALID_ARGUMENT'],
  ['add_memory', { content: 'Prefers tabs.', category: 'someone' }, 'INVALID_ARGUMENT'],
  ['add_memory', { content: 'Prefers tabs.', extra: true }, 'INVALID_ARGUMENT'],
  ['add_memory', { text: 'Prefers tabs.' }, 'INVALID_ARGUMENT'], // another vocabulary's field
  ['add_memory', { content: '   ' }, 'INVALID_ARGUMENT'],
  ['session_add_message', { sessionId: 's', role: 'user' }, 'INVALID_ARGUMENT'], // no content
  ['read', { uri: 'viking://resources', layer: 'L3' }, 'INVALID_ARGUMENT'],
  ['find', {}, 'INVALID_ARGUMENT'],
  ['context', { query: 'retries', tokens: 0 }, 'INVALID_ARGUMENT'],
  ['context', { query: 'retries', tokens: 100, budget: 100 }, 'INVALID_ARGUMENT'],
  ['add_resource', { content: 'A note.', name: 'note.md', target: 'http://elsewhere/x' }, 'INVALID_URI'],
];

export async function badCallsAreRefused(client: Client): Promise<void> {
  for (const [name, args, code] of badCalls) {
    const result = await call(client, name, args);
    expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code } });
    expect((result.content as { text: string }[])[0]!.text).toMatch(new RegExp(`^${code}: `));
  }
}

/** A memory of the user's and one of the agent's, written where a session commit writes them. */
export async function memories(client: Client): Promise<void> {
  const memory = await data(client, 'add_memory', {
    content: 'The user prefers tabs over spaces in Go code.',
    category: 'preferences',
  });
  expect(memory).toEqual({
    uri: 'viking://user/default/memories/preferences/the-user-prefers-tabs-over-spaces',
    written: true,
  });
  const found = await data(client, 'find', {
    query: 'tabs or spaces',
    targetUri: 'viking://user/default/memories',
  });
  expect(found.memories.map((hit: { uri: string }) => hit.uri)).toContain(memory.uri);
  const agent = await data(client, 'add_memory', { content: 'Deploys go out on Tuesdays.', name: 'deploys' });
  expect(agent).toEqual({ uri: 'viking://agent/default/memories/notes/deploys', written: true });
  const again = await data(client, 'add_memory', { content: 'Deploys go out on Tuesdays.', name: 'deploys' });
  expect(again).toEqual({ uri: agent.uri, written: false });
}

/** A session of two messages that shapes a search, committed to an archive. */
export async function sessions(client: Client): Promise<void> {
  await data(client, 'session_add_message', {
    sessionId: 'chat-1',
    role: 'user',
    content: 'How are uploads retried?',
  });
  const second = await data(client, 'session_add_message', {
    sessionId: 'chat-1',
    role: 'assistant',
    content: 'With backoff.',
  });
  expect(second.messages).toBe(2);
  const searched = await data(client, 'search', { query: 'retry backoff', sessionId: 'chat-1' });
  expect(searched.intent.source).toBe('fallback'); // no LLM
  const committed = await data(client, 'session_commit', { sessionId: 'chat-1' });
  expect(committed.messages).toBe(2);
  expect(committed.archive).toMatch(/^viking:\/\/user\/default\/sessions\/chat-1\//);
}

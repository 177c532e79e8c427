// Every agent tool through every surface (issue 33): the MCP server (the SDK's own Client over an
// in-memory transport), the AI SDK tool's execute(), and the CLI command where there is one, with the
// same arguments on identical stores: the same results, the same nodes written, and bad input
// refused the same way, naming the field, with nothing written.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LongshipToolSet, longshipToolNames, longshipTools } from '../../src/ai/tools.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { FindHits } from '../../src/tools/find.js';
import { longshipHere } from '../cli/run-in-process.js';

const retries = [
  '# Retries',
  '',
  'Uploads are retried with exponential backoff:',
  '',
  '```js',
  'function delay(attempt) {',
  '\treturn 200 * 2 ** attempt; // ms',
  '}',
  '```',
  '',
  'A request that fails with a 4xx status is never retried.',
].join('\n');
const deploys = 'Deploys go out on Tuesdays, after the weekly freeze ends at noon.';
const retriesUri = 'viking://resources/docs/retries.md';
/** Long enough to be kept as a directory of its sections (docs/guide/retrieval.md, "Reading a whole document"). */
const handbook = [
  '# Handbook\n\n',
  ...['Harbour', 'Rigging', 'Weather', 'Provisions', 'Navigation'].map(
    (topic) =>
      `## ${topic}\n\n${Array.from({ length: 30 }, (_, i) => `${topic} rule ${i}: check the ${topic.toLowerCase()} log before day ${i} of the voyage.`).join(' ')}\n\n`,
  ),
].join('');
const handbookUri = 'viking://resources/manuals/handbook.md';
/** Parts of a PDF, as a converter's ingestion leaves them: their pages in meta. */
const revenue = 'Quarterly revenue in the northern region grew twelve percent on ferry tickets.';
const revenueUri = 'viking://resources/report/results';
const fleet = 'The fleet renewal plan retires four ferries and orders two hybrid vessels.';
const fleetUri = 'viking://resources/report/fleet';

let root: string;
let cliStore: string;
let mcpLongship: Longship;
let aiLongship: Longship;
let client: Client;
let tools: LongshipToolSet;

/** The same documents and memory in each store, by the engine's own calls. */
async function seed(longship: Longship): Promise<void> {
  await longship.addResource(retries, { name: 'retries.md', target: 'viking://resources/docs' });
  await longship.addResource(deploys, { name: 'deploys.md', target: 'viking://resources/docs' });
  await longship.write(
    'viking://user/default/memories/preferences/indentation',
    'The user prefers tabs over spaces.',
    {
      parents: true,
    },
  );
  await longship.addResource(handbook, { name: 'handbook.md', target: 'viking://resources/manuals' });
  await longship.write(revenueUri, revenue, { parents: true, meta: { pages: [47, 48] } });
  await longship.write(fleetUri, fleet, { meta: { pages: [12, 12] } });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'longship-surfaces-'));
  cliStore = join(root, 'cli');
  // The CLI opens a folder with the bundled model; the other two get the same.
  const cli = await openLongship({ store: cliStore });
  await seed(cli);
  await cli.close();
  mcpLongship = await openLongship({ store: join(root, 'mcp') });
  aiLongship = await openLongship({ store: join(root, 'ai') });
  await seed(mcpLongship);
  await seed(aiLongship);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(mcpLongship).connect(serverSide);
  client = new Client({ name: 'surfaces', version: '1' });
  await client.connect(clientSide);
  tools = longshipTools(aiLongship, { tools: longshipToolNames });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await mcpLongship?.close();
  await aiLongship?.close();
  await rm(root, { recursive: true, force: true });
});

async function mcpCall(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function aiCall(name: string, args: unknown): Promise<unknown> {
  const tool = tools[name as keyof LongshipToolSet];
  return Promise.resolve(tool.execute!(args as never, { toolCallId: 'call-1', messages: [], context: {} }));
}

/** Times differ between stores written at different moments; nothing else may. */
const stable = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, field) =>
    key === 'updatedAt' || key === 'createdAt' || key === 'at' ? undefined : field,
  );

/** Every node of a store: its URI, kind, abstract and content. */
async function nodes(longship: Longship): Promise<unknown[]> {
  const all: unknown[] = [];
  const visit = async (uri: string) => {
    for (const node of await longship.ls(uri)) {
      const content = node.kind === 'file' ? await longship.read(node.uri) : undefined;
      all.push({ uri: node.uri, kind: node.kind, abstract: node.abstract, content });
      if (node.kind === 'dir') await visit(node.uri);
    }
  };
  await visit('viking://');
  return all;
}

const reads: [string, Record<string, unknown>, string[] | undefined][] = [
  [
    'find',
    { query: 'how are uploads retried', limit: 5 },
    ['find', 'how are uploads retried', '--limit', '5'],
  ],
  [
    'find',
    { query: 'tabs', targetUri: 'viking://user/default/memories' },
    ['find', 'tabs', '--uri', 'viking://user/default/memories'],
  ],
  // BM25 alone, as OpenViking's search_type="keywords".
  [
    'find',
    { query: 'uploads retried', searchType: 'keywords' },
    ['find', 'uploads retried', '--search-type', 'keywords'],
  ],
  ['search', { query: 'retry backoff' }, undefined],
  [
    'context',
    { query: 'how are uploads retried', tokens: 300 },
    ['context', 'how are uploads retried', '--tokens', '300'],
  ],
  ['read', { uri: retriesUri }, ['read', retriesUri]],
  ['read', { uri: retriesUri, layer: 'L1' }, ['read', retriesUri, '--layer', 'l1']],
  [
    'read',
    { uri: 'viking://resources/docs', layer: 'L0' },
    ['read', 'viking://resources/docs', '--layer', 'l0'],
  ],
  ['ls', { uri: 'viking://resources/docs' }, ['ls', 'viking://resources/docs']],
  ['tree', { uri: 'viking://', depth: 2 }, ['tree', 'viking://', '--depth', '2']],
  // A page, with OpenViking's has_more as hasMore and the cursor of the next.
  ['ls', { uri: 'viking://resources/docs', limit: 1 }, ['ls', 'viking://resources/docs', '--limit', '1']],
  ['tree', { uri: 'viking://', depth: 2, limit: 2 }, ['tree', 'viking://', '--depth', '2', '--limit', '2']],
];

describe('the tools that read', () => {
  it.each(reads)('%s %j: one result through MCP, the AI SDK and the CLI', async (name, args, argv) => {
    const viaMcp = await mcpCall(name, args);
    expect(viaMcp.isError, JSON.stringify(viaMcp.content)).toBeFalsy();
    const viaAi = await aiCall(name, args);
    expect(stable(viaAi)).toEqual(stable(viaMcp.structuredContent));
    if (argv === undefined) return;
    const run = await longshipHere([...argv, '--json', '--store', cliStore], root);
    expect(run.code, run.stderr).toBe(0);
    expect(stable(JSON.parse(run.stdout))).toEqual(stable(viaMcp.structuredContent));
  });

  it('read gives the text as stored, code and newlines included, on every surface', async () => {
    const viaMcp = await mcpCall('read', { uri: retriesUri });
    expect(viaMcp.content).toEqual([{ type: 'text', text: retries }]);
    expect(await aiCall('read', { uri: retriesUri })).toEqual({
      uri: retriesUri,
      layer: 'L2',
      text: retries,
    });
    expect((await longshipHere(['read', retriesUri, '--store', cliStore], root)).stdout).toBe(`${retries}\n`);
  });
});

describe('read of a long document, kept as a directory of its sections', () => {
  it('gives its whole text on every surface, the AI SDK cutting it at maxChars', async () => {
    expect((await mcpLongship.stat(handbookUri)).kind).toBe('dir');
    const viaMcp = await mcpCall('read', { uri: handbookUri });
    expect(viaMcp.isError, JSON.stringify(viaMcp.content)).toBeFalsy();
    expect(viaMcp.content).toEqual([{ type: 'text', text: handbook }]);
    expect(viaMcp.structuredContent).toEqual({ uri: handbookUri, layer: 'L2', text: handbook });
    const cut = (await aiCall('read', { uri: handbookUri })) as { text: string; truncated?: true };
    expect(cut.truncated).toBe(true);
    expect(handbook.startsWith(cut.text)).toBe(true);
    const whole = longshipTools(aiLongship, { tools: ['read'], maxChars: 100_000 }).read;
    expect(
      await whole.execute!({ uri: handbookUri }, { toolCallId: 'c', messages: [], context: {} }),
    ).toEqual({
      uri: handbookUri,
      layer: 'L2',
      text: handbook,
    });
    const run = await longshipHere(['read', handbookUri, '--store', cliStore], root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(handbook);
    const json = await longshipHere(['read', handbookUri, '--json', '--store', cliStore], root);
    expect(JSON.parse(json.stdout)).toEqual({ uri: handbookUri, layer: 'L2', text: handbook });
  });

  it('is IS_A_DIRECTORY for a folder on every surface, pointing to tree and ls', async () => {
    const folder = 'viking://resources/manuals';
    const viaMcp = await mcpCall('read', { uri: folder });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^IS_A_DIRECTORY: .*list it with tree\(\) or ls\(\)/) },
    ]);
    const viaAi = await aiCall('read', { uri: folder }).catch((error: unknown) => error);
    expect(viaAi).toBeInstanceOf(LongshipError);
    expect(viaAi).toMatchObject({ code: 'IS_A_DIRECTORY' });
    const run = await longshipHere(['read', folder, '--store', cliStore], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^longship: IS_A_DIRECTORY: .*list it with tree\(\) or ls\(\)/);
  });
});

describe('the pages of a part of a PDF', () => {
  const query = 'northern region quarterly revenue ferry tickets';

  it('come with each hit: as pages in the JSON for agents, as "pp. 47–48" for people', async () => {
    const viaMcp = await mcpCall('find', { query });
    expect(viaMcp.isError, JSON.stringify(viaMcp.content)).toBeFalsy();
    const text = (viaMcp.content as { text: string }[])[0]!.text;
    const hit = (JSON.parse(text) as FindHits).resources.find((r) => r.uri === revenueUri);
    expect(hit?.pages).toEqual({ first: 47, last: 48 });
    const single = (await mcpCall('find', { query: 'fleet renewal hybrid ferries' }))
      .structuredContent as unknown as FindHits;
    expect(single.resources.find((r) => r.uri === fleetUri)?.pages).toEqual({ first: 12, last: 12 });
    // Nodes without pages have none.
    expect(single.resources.find((r) => r.uri === retriesUri)?.pages).toBeUndefined();
    const searched = (await mcpCall('search', { query })).structuredContent as unknown as FindHits;
    expect(searched.resources.find((r) => r.uri === revenueUri)?.pages).toEqual({ first: 47, last: 48 });
    const viaAi = (await aiCall('find', { query })) as FindHits;
    expect(viaAi.resources.find((r) => r.uri === revenueUri)?.pages).toEqual({ first: 47, last: 48 });

    const run = await longshipHere(['find', query, '--store', cliStore], root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}\d\.\d\d {2}viking:\/\/resources\/report\/results \(pp\. 47–48\) {2}results — /m,
    );
    expect(run.stdout).toMatch(
      /^ {2}\d\.\d\d {2}viking:\/\/resources\/report\/fleet \(p\. 12\) {2}fleet — /m,
    );
    expect(run.stdout).toMatch(/^ {2}\d\.\d\d {2}viking:\/\/resources\/docs\/deploys\.md {2}Deploys/m);
  });

  it('are cited in the context block on every surface', async () => {
    const element = `<resource uri="${revenueUri}" layer="L2" pages="pp. 47–48">\n${revenue}\n</resource>`;
    const viaMcp = await mcpCall('context', { query, tokens: 2000 });
    expect((viaMcp.content as { text: string }[])[0]!.text).toContain(element);
    const parts = (viaMcp.structuredContent as { parts: { uri: string; pages?: unknown }[] }).parts;
    expect(parts.find((p) => p.uri === revenueUri)?.pages).toEqual({ first: 47, last: 48 });
    // A part of a document without pages has none (the others here are no good match, left out).
    const plain = (
      (await mcpCall('context', { query: 'when do deploys go out?', tokens: 2000 })).structuredContent as {
        parts: { uri: string; pages?: unknown }[];
      }
    ).parts;
    expect(plain.map((p) => p.uri)).toContain('viking://resources/docs/deploys.md');
    for (const part of plain.filter((p) => p.uri !== revenueUri && p.uri !== fleetUri))
      expect(part).not.toHaveProperty('pages');
    expect(((await aiCall('context', { query, tokens: 2000 })) as { text: string }).text).toContain(element);
    const run = await longshipHere(['context', query, '--store', cliStore], root);
    expect(run.stdout).toContain(element);
  });
});

describe('the tools that write', () => {
  const writes: [string, Record<string, unknown>][] = [
    [
      'add_resource',
      { content: 'Backups run at 02:00 UTC.\n\nThey are kept for 30 days.', name: 'backups.md' },
    ],
    ['add_memory', { content: 'The user prefers dark mode.', category: 'preferences', name: 'theme' }],
    [
      'add_memory',
      { content: 'The user prefers tabs over spaces.', category: 'preferences', name: 'Indentation' },
    ],
    ['add_memory', { content: 'Staging is rebuilt every night.' }],
    ['add_memory', { content: 'Ana leads the Q3 plan.', category: 'profile' }],
    ['session_add_message', { sessionId: 'chat-1', role: 'user', content: 'How are uploads retried?' }],
    ['session_add_message', { sessionId: 'chat-1', role: 'assistant', content: 'With exponential backoff.' }],
    ['search', { query: 'retry backoff', sessionId: 'chat-1' }],
    ['context', { query: 'retry backoff', tokens: 300, sessionId: 'chat-1' }],
    ['context', { query: 'retry backoff', tokens: 300, sessionId: 'chat-1' }],
    ['session_commit', { sessionId: 'chat-1' }],
  ];

  it('write the same nodes through MCP and the AI SDK, and answer the same', async () => {
    for (const [name, args] of writes) {
      const viaMcp = await mcpCall(name, args);
      expect(viaMcp.isError, `${name}: ${JSON.stringify(viaMcp.content)}`).toBeFalsy();
      expect(stable(await aiCall(name, args)), name).toEqual(stable(viaMcp.structuredContent));
    }
    const written = await nodes(mcpLongship);
    expect(written).toEqual(await nodes(aiLongship));
    // The vocabulary of a session commit's memories: the same name lands on the seeded memory, once.
    expect(written).toContainEqual(
      expect.objectContaining({
        uri: 'viking://user/default/memories/preferences/indentation',
        content: 'The user prefers tabs over spaces.',
      }),
    );
    expect(written).toContainEqual(
      expect.objectContaining({
        uri: 'viking://agent/default/memories/notes/staging-is-rebuilt-every-night',
        content: 'Staging is rebuilt every night.',
      }),
    );
    expect(written).toContainEqual(
      expect.objectContaining({ uri: 'viking://user/default/memories/profile' }),
    );
  });
});

/** Bad input: the words every surface must use, and the command line that gives it, if any. */
const refusals: [string, unknown, string, string[]?, string?][] = [
  [
    'add_memory',
    { text: 'Likes tea.', category: 'agent' },
    'add_memory: content is required; text is not a field (the fields are content, category, name)',
  ],
  [
    'add_memory',
    { content: 'Likes tea.', category: 'secrets' },
    'add_memory: category must be one of preferences, entities, events, profile, identity, soul, cases, trajectories, experiences, tools, skills, agent, not "secrets"',
  ],
  [
    'find',
    { query: 'tea', limit: 500 },
    'find: limit must be at most 100, not 500',
    ['find', 'tea', '--limit', '500'],
    'longship find: --limit must be at most 100, not 500',
  ],
  [
    'find',
    { query: '  ' },
    'find: query must not be empty',
    ['find', '  '],
    'longship find: <query> must not be empty',
  ],
  [
    'context',
    { query: 'tea', tokens: 2_000_000 },
    'context: tokens must be at most 1000000, not 2000000',
    ['context', 'tea', '--tokens', '2000000'],
    'longship context: --tokens must be at most 1000000, not 2000000',
  ],
  [
    'tree',
    { uri: 'viking://', depth: 17 },
    'tree: depth must be at most 16, not 17',
    ['tree', 'viking://', '--depth', '17'],
    'longship tree: --depth must be at most 16, not 17',
  ],
  [
    'find',
    { query: 'tea', searchType: 'bm25' },
    'find: searchType must be hybrid, keywords or vector, not "bm25"',
    ['find', 'tea', '--search-type', 'bm25'],
    'longship find: --search-type must be hybrid, keywords or vector, not "bm25"',
  ],
  [
    'ls',
    { uri: 'viking://resources', limit: 0 },
    'ls: limit must be at least 1, not 0',
    ['ls', 'viking://resources', '--limit', '0'],
    'longship ls: --limit takes a whole number of at least 1, not "0"',
  ],
  ['read', { uri: retriesUri, layer: 'L3' }, 'read: layer must be L0, L1 or L2, not "L3"'],
  ['ls', {}, 'ls: uri is required'],
  [
    'session_add_message',
    { sessionId: 's', role: 'robot', content: 'Hi.' },
    'session_add_message: role must be user, assistant, system or tool, not "robot"',
  ],
  ['session_commit', { sessionId: '' }, 'session_commit: sessionId must not be empty'],
  [
    'add_resource',
    { content: 'A note.', name: 'note.md', path: 'viking://resources' },
    'add_resource: path is not a field (the fields are content, name, target, reason)',
  ],
];

describe('bad input', () => {
  it.each(refusals)(
    '%s %j: INVALID_ARGUMENT naming the field, everywhere, nothing written',
    async (name, args, message, argv, usage) => {
      const before = [(await mcpLongship.store.meta()).seq, (await aiLongship.store.meta()).seq];
      const viaMcp = await mcpCall(name, args as Record<string, unknown>);
      expect(viaMcp).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: `INVALID_ARGUMENT: ${message}` }],
        structuredContent: { error: { code: 'INVALID_ARGUMENT', message } },
      });
      const refused = await aiCall(name, args).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LongshipError);
      expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', message });
      expect([(await mcpLongship.store.meta()).seq, (await aiLongship.store.meta()).seq]).toEqual(before);
      if (argv === undefined) return;
      const run = await longshipHere([...argv, '--store', cliStore], root);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')[0]).toBe(usage);
    },
  );

  it("execute() refuses what is not an input object, as Longship's error", async () => {
    for (const input of [undefined, 'find me', null, ['a']]) {
      await expect(aiCall('find', input)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^find: the input must be an object of fields, not /),
      });
    }
  });
});

// `longship mcp`: the SDK's real Client starts the command and talks to it over stdio; what it
// wrote is then there for the other commands, once the client has hung up and the lock is let go.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultMaxMessageBytes } from '../../src/mcp/message-limit.js';
import { cliArgs, longship, startLongship } from './run-cli.js';

let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-cli-mcp-'));
});

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

it('serves the store over stdio: add_resource and find there, then ls and read here', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cliArgs, 'mcp', '--store', 'context'],
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'cli-test', version: '1' });
  await client.connect(transport);
  try {
    expect(client.getServerVersion()?.name).toBe('longship');
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    const added = await call('add_resource', {
      content: 'Water the tomatoes every morning before the sun is high.',
      name: 'garden.md',
    });
    expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
    const found = await call('find', { query: 'when to water the plants', limit: 1 });
    expect(found.structuredContent).toMatchObject({ resources: [{ uri: 'viking://resources/garden.md' }] });
    const refused = await call('read', { uri: 'viking://resources/garden.md', extra: true });
    expect(refused.isError).toBe(true);
  } finally {
    await client.close();
  }
  expect(stderr).toMatch(/^longship: serving .*context over MCP on stdio$/m);
  // The server let go of the store when the client hung up.
  const read = await longship(['read', 'viking://resources/garden.md', '--store', 'context'], cwd);
  expect(read).toEqual({
    code: 0,
    stdout: 'Water the tomatoes every morning before the sun is high.\n',
    stderr: '',
  });
}, 120_000);

it('answers a message over the limit with an error, and goes on serving', async () => {
  const child = startLongship(['mcp', '--store', 'limited'], cwd);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin.write(
    `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(defaultMaxMessageBytes)}"}}\n`,
  );
  child.stdin.end('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
  expect(await exited).toBe(0);
  expect(
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  ).toEqual([
    { jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: -32600, data: expect.anything() }) },
    { jsonrpc: '2.0', id: 2, result: {} },
  ]);
  expect(stderr).toMatch(/^longship: refused a message: message too large: \d+ bytes; the limit is/m);
}, 120_000);

it('says what to install when the MCP SDK is missing, and makes no store', async () => {
  const loader = new URL('./without-mcp-sdk.mjs', import.meta.url).href;
  const run = await longship(['mcp', '--store', 'unserved'], cwd, {}, ['--import', loader]);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe(
    'longship: UNSUPPORTED_INPUT: longship mcp needs @modelcontextprotocol/sdk and zod (optional peer ' +
      'dependencies; @modelcontextprotocol/sdk is missing): npm install @modelcontextprotocol/sdk zod, ' +
      'or npx -p longship -p @modelcontextprotocol/sdk -p zod longship mcp\n',
  );
  expect(existsSync(join(cwd, 'unserved'))).toBe(false);
});

it('offers export_pack and import_pack with --packs, and only then', async () => {
  const names = async (flags: string[]) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgs, 'mcp', '--store', 'packs', ...flags],
      cwd,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1' });
    await client.connect(transport);
    try {
      return (await client.listTools()).tools.map((tool) => tool.name);
    } finally {
      await client.close();
    }
  };
  expect(await names([])).not.toContain('export_pack');
  expect((await names(['--packs'])).slice(-2)).toEqual(['export_pack', 'import_pack']);
}, 120_000);

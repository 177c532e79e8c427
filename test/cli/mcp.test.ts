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
import { cliArgs, longship } from './run-cli.js';

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

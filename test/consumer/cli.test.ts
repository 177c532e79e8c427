// The `longship` command as a user runs it: `npx longship` in a project that installed the packed
// package, with the bundled model; and `longship mcp` started by the MCP SDK's client over stdio.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, expect, inject, it } from 'vitest';

const fixture = join(inject('consumerRoot'), 'cli');

/** `npx longship ...args` in the fixture: its exit code and output, whatever the code. */
function npxLongship(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('npx', ['longship', ...args], { cwd: fixture }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      if (typeof code !== 'number') reject(error);
      else resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  await mkdir(join(fixture, 'notes'), { recursive: true });
  await writeFile(join(fixture, 'notes/cat.md'), 'The cat sleeps on the warm windowsill every afternoon.\n');
  await writeFile(join(fixture, 'notes/bread.md'), 'Knead the dough for ten minutes, then let it rise.\n');
});

it('adds a folder, finds, lists and reads it, as text and as JSON', async () => {
  const added = await npxLongship(['add', 'notes']);
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toBe('notes → viking://resources/notes  3 added, 0 changed, 0 unchanged\n');
  const found = await npxLongship(['find', 'Where does the cat nap?', '--limit', '1', '--json']);
  expect(found.code, found.stderr).toBe(0);
  expect(JSON.parse(found.stdout).resources[0].uri).toBe('viking://resources/notes/cat.md');
  const listed = await npxLongship(['ls', 'viking://resources/notes']);
  expect(listed.stdout).toMatch(/^viking:\/\/resources\/notes\/bread\.md {2}.*dough/m);
  const read = await npxLongship(['read', 'viking://resources/notes/cat.md']);
  expect(read).toMatchObject({ code: 0, stdout: 'The cat sleeps on the warm windowsill every afternoon.\n' });
}, 180_000);

it('fails a missing path with exit 1, its code, and no stack', async () => {
  const run = await npxLongship(['add', 'notes/dog.md', '--json']);
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error.code).toBe('NOT_FOUND');
  expect(run.stderr).toMatch(/^longship: NOT_FOUND: notes\/dog\.md: no such file or folder$/m);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}, 60_000);

it('serves the store to the MCP SDK client as `longship mcp`', async () => {
  const client = new Client({ name: 'consumer-cli', version: '1' });
  await client.connect(new StdioClientTransport({ command: 'npx', args: ['longship', 'mcp'], cwd: fixture }));
  try {
    const found = (await client.callTool({
      name: 'find',
      arguments: { query: 'how long to knead bread', limit: 1 },
    })) as CallToolResult;
    expect(found.structuredContent).toMatchObject({
      resources: [{ uri: 'viking://resources/notes/bread.md' }],
    });
    const read = (await client.callTool({
      name: 'read',
      arguments: { uri: 'viking://resources/notes/bread.md' },
    })) as CallToolResult;
    expect(read.structuredContent).toMatchObject({ text: expect.stringContaining('Knead the dough') });
  } finally {
    await client.close();
  }
}, 180_000);

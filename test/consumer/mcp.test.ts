// The MCP stdio example (examples/mcp/longship-mcp.mjs) as a user runs it, from the packed package
// with the bundled model: the SDK's Client starts it as a command, as Claude Desktop or Cursor do.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, inject, it } from 'vitest';

const example = fileURLToPath(new URL('../../examples/mcp/longship-mcp.mjs', import.meta.url));

it('serves a folder over stdio: add_resource, then find by meaning and read', async () => {
  const fixture = join(inject('consumerRoot'), 'mcp-stdio');
  await mkdir(fixture, { recursive: true });
  await copyFile(example, join(fixture, 'longship-mcp.mjs'));
  const client = new Client({ name: 'consumer-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['longship-mcp.mjs', './context'],
      cwd: fixture,
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as Record<string, unknown>;
  };
  try {
    const notes = {
      'cat.md': 'The cat sleeps on the warm windowsill every afternoon.',
      'bread.md': 'Knead the dough for ten minutes, then let it rise for an hour.',
    };
    for (const [name, content] of Object.entries(notes)) await call('add_resource', { content, name });
    const found = await call('find', { query: 'Where does the cat nap?', limit: 2 });
    const [best] = found.resources as { uri: string }[];
    expect(best?.uri).toBe('viking://resources/cat.md');
    expect(await call('read', { uri: best!.uri })).toMatchObject({ text: notes['cat.md'] });
    const refused = (await client.callTool({
      name: 'add_resource',
      arguments: { content: 'x' },
    })) as CallToolResult;
    expect(refused.structuredContent).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  } finally {
    await client.close();
  }
}, 300_000);

// A pack near the default limit of export_pack (docs/guide/ovpack.md, "MCP") through the SDK's own
// stdio client, whose transport buffers at most 10 MiB of one message: the limit's base64 fits it,
// so the client gets the pack whole instead of closing.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLongship } from '../../src/index.js';
import { defaultMaxPackBytes } from '../../src/tools/pack-tools.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import { membersOf } from '../ovpack/fixtures.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-mcp-packs-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

it('gives a pack of nearly 7 MiB whole over stdio', { timeout: 120_000 }, async () => {
  // Random bytes as base64 text deflate to about 78%: two files of 4.5 MB make a pack of about 7 MB.
  const text = () =>
    randomBytes(3_375_000)
      .toString('base64')
      .replace(/(.{76})/g, '$1\n');
  const seeded = await openLongship({ store: folder, embedder: hashEmbedder });
  await seeded.write('viking://resources/big/a.md', text(), { parents: true });
  await seeded.write('viking://resources/big/b.md', text());
  await seeded.close();

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'test/mcp/stdio-server.ts', folder, '--packs'],
    cwd: process.cwd(),
    stderr: 'inherit',
  });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  try {
    const result = (await client.callTool({
      name: 'export_pack',
      arguments: { uri: 'viking://resources/big' },
    })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const { byteLength } = result.structuredContent as { byteLength: number };
    expect(byteLength).toBeGreaterThan(6.5 * 1024 * 1024);
    expect(byteLength).toBeLessThanOrEqual(defaultMaxPackBytes);
    const { blob } = (result.content[1] as EmbeddedResource).resource as { blob: string };
    const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0));
    expect(bytes.length).toBe(byteLength);
    expect(membersOf(bytes).map(([name]) => name)).toContain('big/files/b.md');
  } finally {
    await client.close();
  }
});

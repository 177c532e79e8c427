// The stdio transport's message limit (docs/guide/mcp.md, "Limits"), against a real server process
// (stdio-server.ts): a line over the limit is answered with a JSON-RPC error and the server goes
// on; a document at the ingestion limit, however its JSON is escaped, fits in one message.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultMaxBytes } from '../../src/context/text-checks.js';
import { defaultMaxMessageBytes } from '../../src/mcp/message-limit.js';
import { data } from './scenario.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-mcp-limit-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const serverArgs = (path: string) => ['--import', 'tsx', 'test/mcp/stdio-server.ts', path];

/** The server process, with what it has written to stdout (as lines) and to stderr. */
function startServer(path: string): {
  child: ChildProcess;
  lines: () => Promise<unknown[]>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, serverArgs(path), { cwd: process.cwd() });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    lines: async () => {
      await exited;
      return stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line));
    },
    stderr: () => stderr,
  };
}

it('answers a line over the limit with an error (id null), and the next request', {
  timeout: 60_000,
}, async () => {
  const server = startServer(join(folder, 'raw'));
  const stdin = server.child.stdin;
  if (stdin === null) throw new Error('no stdin');
  stdin.on('error', () => {}); // EPIPE, should the server die: the lines below then say so
  // Written in pieces, as a pipe delivers it: the limit holds across chunks.
  const piece = 'x'.repeat(1024 * 1024);
  for (let sent = 0; sent <= defaultMaxMessageBytes; sent += piece.length) stdin.write(piece);
  stdin.write('\n');
  stdin.write('{not json}\n');
  stdin.end('{"jsonrpc":"2.0","id":7,"method":"ping"}\n');
  expect(await server.lines()).toEqual([
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringMatching(`limit is ${defaultMaxMessageBytes} bytes`),
        data: { code: 'INPUT_TOO_LARGE', maxBytes: defaultMaxMessageBytes },
      },
    },
    { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
    { jsonrpc: '2.0', id: 7, result: {} },
  ]);
  expect(server.stderr()).toMatch(/^longship: refused a message: message too large: \d+ bytes; the limit/m);
  expect(server.stderr()).toMatch(/^longship: refused a message: Parse error/m);
});

/** Starts the server under the SDK's client, runs `talk`, and returns what the server logged. */
async function withClient(path: string, talk: (client: Client) => Promise<void>): Promise<string> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(path),
    cwd: process.cwd(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  try {
    await talk(client);
  } finally {
    await client.close();
  }
  return stderr;
}

it('refuses an oversized tool call by its id, then serves the next call', { timeout: 60_000 }, async () => {
  const stderr = await withClient(join(folder, 'sdk'), async (client) => {
    const content = 'a'.repeat(defaultMaxMessageBytes);
    const refused = client.callTool({ name: 'add_resource', arguments: { content, name: 'big.md' } });
    await expect(refused).rejects.toThrow(McpError);
    await expect(refused).rejects.toMatchObject({
      code: -32600,
      message: expect.stringMatching(/message too large: \d+ bytes; the limit is \d+ bytes/),
    });
    expect(await data(client, 'ls', { uri: 'viking://resources' })).toMatchObject({ nodes: [] });
  });
  expect(stderr).toMatch(/^longship: refused a message: message too large/m);
});

it('takes a document exactly at the document limit, escapes and all', { timeout: 120_000 }, async () => {
  // Quotes, newlines and backslashes double in JSON; "é" is two bytes: the line is well over 10 MiB.
  const bytes = (text: string) => new TextEncoder().encode(text).byteLength;
  const unit = '"retry" \\ "é"\n';
  const unitBytes = bytes(unit);
  const content =
    unit.repeat(Math.floor(defaultMaxBytes / unitBytes)) + 'z'.repeat(defaultMaxBytes % unitBytes);
  expect(bytes(content)).toBe(defaultMaxBytes);
  expect(bytes(JSON.stringify(content))).toBeGreaterThan(defaultMaxBytes * 1.3);
  await withClient(join(folder, 'at-limit'), async (client) => {
    const added = await data(client, 'add_resource', { content, name: 'at-limit.md' });
    expect(added.uris).toContain('viking://resources/at-limit.md');
    // One byte more is the ingestion limit's refusal, as a tool error, not the transport's.
    const over = await client.callTool({
      name: 'add_resource',
      arguments: { content: `${content}!`, name: 'b.md' },
    });
    expect(over).toMatchObject({ isError: true, structuredContent: { error: { code: 'INPUT_TOO_LARGE' } } });
  });
});

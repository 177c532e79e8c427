// The MCP fetch handler in Deno: Deno.serve() answers with createMcpFetchHandler() (deno-mcp-main.ts),
// and the SDK's real Client talks to it over HTTP on 127.0.0.1 from here.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, it } from 'vitest';
import {
  addThenFind,
  badCallsAreRefused,
  contextFits,
  memories,
  resourcesServeIt,
  sessions,
} from '../mcp/scenario.js';

const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const root = fileURLToPath(new URL('../..', import.meta.url));

it('serves MCP from Deno.serve: add, find, context, read, resources, memories, sessions, refusals', {
  timeout: 90_000,
}, async () => {
  const child = spawn(
    process.execPath,
    [
      denoLauncher,
      'run',
      '--sloppy-imports',
      '--no-prompt',
      '--allow-read',
      '--allow-net=127.0.0.1',
      'test/edge/deno-mcp-main.ts',
    ],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (text: string) => {
        out += text;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.on('exit', (code) => reject(new Error(`deno exited with ${code} before listening`)));
    });
    const { runtime, port } = JSON.parse(line) as { runtime: string; port: number };
    expect(runtime).toMatch(/^deno 2\./);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    try {
      await badCallsAreRefused(client);
      const uri = await addThenFind(client);
      await contextFits(client, uri);
      await resourcesServeIt(client, uri);
      await memories(client);
      await sessions(client);
    } finally {
      await client.close();
    }
  } finally {
    child.stdin!.end();
  }
  expect(await exited).toBe(0);
});

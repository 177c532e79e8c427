// export_pack and import_pack through MCP (docs/guide/ovpack.md, "MCP"), with the SDK's own Client: a
// directory exported from one server and imported into another comes back node for node; a pack
// over the limit, a hostile pack or one that is not base64 is refused with its code and nothing is
// written; and the tools are there only when the server is started with `packs`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { CallToolResult, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Longship } from '../../src/engine.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';
import { defaultMaxPackBytes } from '../../src/tools/pack-tools.js';
import { expectCode } from '../context/fixtures.js';
import { everything, membersOf, nodesBelow, open, utf8, zipOf } from '../ovpack/fixtures.js';

const P = 'viking://resources/project';
const opened: { longship: Longship; client: Client }[] = [];

async function serve(options?: McpServerOptions, longship?: Longship) {
  const served = longship ?? (await open());
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(served, options).connect(serverSide);
  const client = new Client({ name: 'packs', version: '1' });
  await client.connect(clientSide);
  opened.push({ longship: served, client });
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { longship: served, client, call };
}

afterEach(async () => {
  const served = opened.splice(0);
  for (const { client } of served) await client.close();
  for (const longship of new Set(served.map((s) => s.longship))) await longship.close();
});

async function project(): Promise<Longship> {
  const longship = await open();
  await longship.mkdir(P, { abstract: 'The project', overview: 'Notes of the project.' });
  await longship.write(`${P}/notes/today.md`, 'Met Ana about the Q3 plan. Sails arrive Monday.', {
    parents: true,
    meta: { tags: ['q3'] },
  });
  await longship.addResource('# Rigging\n\n## Halyards\n\nHalyards raise sails.\n', {
    name: 'rigging.md',
    target: `${P}/docs`,
  });
  await longship.waitProcessed();
  return longship;
}

/** The embedded resource of an export_pack result. */
function blobOf(result: CallToolResult): { uri: string; mimeType?: string; blob: string } {
  expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
  const resource = result.content.find((block): block is EmbeddedResource => block.type === 'resource');
  expect(resource).toBeDefined();
  return resource!.resource as { uri: string; mimeType?: string; blob: string };
}

const codeOf = (result: CallToolResult) =>
  (result.structuredContent as { error?: { code: string } })?.error?.code;

describe('export_pack and import_pack', () => {
  it('are offered only when the server is started with packs', async () => {
    const plain = await serve();
    const names = (await plain.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('export_pack');
    expect(names).not.toContain('import_pack');
    await expect(plain.call('export_pack', { uri: P })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });

    const { client } = await serve({ packs: true });
    const { tools } = await client.listTools();
    expect(tools.slice(-2).map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
      ['export_pack', true],
      ['import_pack', false],
    ]);
    expect(tools.at(-1)?.inputSchema).toMatchObject({
      required: ['pack', 'parentUri'],
      additionalProperties: false,
    });
  });

  it('move a directory from one server to another, node for node', async () => {
    const source = await serve({ packs: true }, await project());
    const exported = await source.call('export_pack', { uri: P, includeVectors: true });
    const blob = blobOf(exported);
    expect(blob).toMatchObject({ uri: P, mimeType: 'application/zip' });
    const bytes = Uint8Array.from(atob(blob.blob), (c) => c.charCodeAt(0));
    // The base64 is in the message once: the structured part says what the blob is.
    expect(exported.structuredContent).toEqual({
      uri: P,
      name: 'project.ovpack',
      mimeType: 'application/zip',
      byteLength: bytes.length,
    });
    expect(membersOf(bytes).map(([name]) => name)).toContain('project/_ovpack/manifest.json');
    expect((exported.content[0] as { text: string }).text).not.toContain(blob.blob.slice(0, 40));

    const target = await serve({ packs: true });
    const imported = await target.call('import_pack', {
      pack: blob.blob,
      parentUri: 'viking://resources',
      vectors: 'require',
    });
    const before = await nodesBelow(source.longship, P);
    expect(imported.structuredContent).toEqual({
      uri: P,
      skipped: false,
      nodes: before.length,
      vectors: 'restored',
    });
    expect(await nodesBelow(target.longship, P)).toEqual(before);

    // Again: the directory is there, so the import's own onConflict decides.
    const again = await target.call('import_pack', { pack: blob.blob, parentUri: 'viking://resources' });
    expect(codeOf(again)).toBe('ALREADY_EXISTS');
    const skipped = await target.call('import_pack', {
      pack: blob.blob,
      parentUri: 'viking://resources',
      onConflict: 'skip',
    });
    expect(skipped.structuredContent).toMatchObject({ skipped: true, vectors: 'none' });
  });

  it('refuse a pack over maxBytes with INPUT_TOO_LARGE, writing nothing', async () => {
    const source = await project();
    const roomy = await serve({ packs: true }, source);
    const blob = blobOf(await roomy.call('export_pack', { uri: P })).blob;
    const byteLength = atob(blob).length;

    const tight = await serve({ packs: { maxBytes: byteLength - 1 } }, source);
    const refused = await tight.call('export_pack', { uri: P });
    expect(refused.isError).toBe(true);
    expect(codeOf(refused)).toBe('INPUT_TOO_LARGE');

    const target = await serve({ packs: { maxBytes: byteLength - 1 } });
    const before = await everything(target.longship);
    const tooLarge = await target.call('import_pack', { pack: blob, parentUri: 'viking://resources' });
    expect(codeOf(tooLarge)).toBe('INPUT_TOO_LARGE');
    expect(await everything(target.longship)).toEqual(before);

    // At the limit exactly, both pass.
    const exact = await serve({ packs: { maxBytes: byteLength } }, source);
    expect(blobOf(await exact.call('export_pack', { uri: P })).blob).toBe(blob);
    const fits = await exact.call('import_pack', { pack: blob, parentUri: 'viking://resources/copy' });
    expect(fits.structuredContent).toMatchObject({ uri: 'viking://resources/copy/project' });
  });

  it('refuse a hostile pack, or one that is not base64, writing nothing', async () => {
    const source = await serve({ packs: true }, await project());
    const good = Uint8Array.from(atob(blobOf(await source.call('export_pack', { uri: P })).blob), (c) =>
      c.charCodeAt(0),
    );
    const climbing = zipOf([...membersOf(good), ['project/files/../../evil.md', utf8('x')]]);
    const target = await serve({ packs: true });
    await target.longship.write('viking://resources/kept.md', 'Kept as it was.');
    const before = await everything(target.longship);
    const hostile = await target.call('import_pack', {
      pack: btoa(String.fromCharCode(...climbing)),
      parentUri: 'viking://resources',
      onConflict: 'overwrite',
    });
    expect(codeOf(hostile)).toBe('CORRUPT_INPUT');
    const notBase64 = await target.call('import_pack', {
      pack: 'not base64!',
      parentUri: 'viking://resources',
    });
    expect(codeOf(notBase64)).toBe('INVALID_ARGUMENT');
    const unknown = await target.call('import_pack', { pack: 'AAAA', parentUri: P, path: '/etc' });
    expect((unknown.content[0] as { text: string }).text).toMatch(/^INVALID_ARGUMENT: .*path is not a field/);
    expect(await everything(target.longship)).toEqual(before);
  });

  it('take packs: true or { maxBytes } and nothing else', async () => {
    const longship = await open();
    for (const packs of ['yes', { maxBytes: 0 }, { limit: 5 }]) {
      await expectCode(
        Promise.resolve().then(() => createMcpServer(longship, { packs } as McpServerOptions)),
        'INVALID_ARGUMENT',
      );
    }
    await longship.close();
  });

  it('keep the default limit within what the SDK stdio transport reads of one message', () => {
    const base64Bytes = Math.ceil(defaultMaxPackBytes / 3) * 4;
    // The envelope: JSON-RPC, the result's text and structured parts; far less than this.
    expect(base64Bytes + 64 * 1024).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE);
  });
});

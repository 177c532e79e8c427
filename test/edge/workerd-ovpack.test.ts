// OVPack export and import, and namespaces, in workerd (Miniflare) (docs/guide/ovpack.md): the
// scenario of ovpack-scenario.ts in a Worker bundled as wrangler would bundle it, and a pack
// downloaded from a Worker and uploaded to one.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { unzipSync, zipSync } from 'fflate';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import { expectOvpackRoundTrip } from './ovpack-expect.js';
import { contentBelow, FOLDER, type OvpackResult, TAMPERED_FILE, writeFolder } from './ovpack-scenario.js';
import { bundleWorker } from './workerd-bundle.js';

const worker = fileURLToPath(new URL('./workerd-ovpack-worker.ts', import.meta.url));
const wasm = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

let miniflare: Miniflare;

beforeAll(async () => {
  miniflare = new Miniflare({
    compatibilityDate: '2026-04-01',
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: await bundleWorker(worker) },
      { type: 'CompiledWasm', path: 'usearch.wasm', contents: await readFile(wasm) },
    ],
  });
});

afterAll(() => miniflare?.dispose());

it('exports a folder with its vectors, imports it into another Longship, refuses tampered packs', async () => {
  const response = await miniflare.dispatchFetch('http://localhost/');
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const result = JSON.parse(text) as OvpackResult;
  expect(result.persistent).toEqual([false, false]);
  await expectOvpackRoundTrip(result);
}, 90_000);

it('serves a pack as a response body that Node imports, and imports a request body', async () => {
  const download = await miniflare.dispatchFetch('http://localhost/download');
  expect(download.status).toBe(200);
  const pack = new Uint8Array(await download.arrayBuffer());
  const node = await openLongship({ user: 'alice', embedder: hashEmbedder, store: 'memory' });
  const mine = await openLongship({ user: 'alice', embedder: hashEmbedder, store: 'memory' });
  await writeFolder(mine);
  expect(await node.import(pack, 'viking://resources', { vectors: 'require' })).toMatchObject({
    vectors: 'restored',
  });
  const expected = await contentBelow(mine, FOLDER);
  expect(expected).toHaveLength(6);
  expect(await contentBelow(node, FOLDER)).toEqual(expected);

  const upload = (body: Uint8Array) =>
    miniflare.dispatchFetch('http://localhost/upload', { method: 'POST', body }).then((r) => r.json());
  expect(await upload(pack)).toEqual({
    result: { uri: FOLDER, skipped: false, nodes: 6, vectors: 'restored' },
    content: expected,
  });
  const members = unzipSync(pack);
  members[TAMPERED_FILE]![0]! ^= 0x20;
  expect(await upload(zipSync(members))).toMatchObject({ code: 'CORRUPT_INPUT' });
  await Promise.all([node.close(), mine.close()]);
}, 90_000);

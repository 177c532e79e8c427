// OVPack export and import, and namespaces, in workerd (Miniflare) (docs/guide/ovpack.md): the
// scenario of ovpack-scenario.ts in a Worker bundled as wrangler would bundle it.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { expect, it } from 'vitest';
import { expectOvpackRoundTrip } from './ovpack-expect.js';
import type { OvpackResult } from './ovpack-scenario.js';
import { bundleWorker } from './workerd-bundle.js';

const worker = fileURLToPath(new URL('./workerd-ovpack-worker.ts', import.meta.url));
const wasm = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

it('exports a folder with its vectors, imports it into another Longship, refuses tampered packs', async () => {
  const miniflare = new Miniflare({
    compatibilityDate: '2026-04-01',
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: await bundleWorker(worker) },
      { type: 'CompiledWasm', path: 'usearch.wasm', contents: await readFile(wasm) },
    ],
  });
  try {
    const response = await miniflare.dispatchFetch('http://localhost/');
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const result = JSON.parse(text) as OvpackResult;
    expect(result.persistent).toEqual([false, false]);
    await expectOvpackRoundTrip(result);
  } finally {
    await miniflare.dispose();
  }
}, 90_000);

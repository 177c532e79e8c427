import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { describe, expect, it } from 'vitest';
import { loadUsearch } from '../../src/exports/vector.js';
import { runScenario, type ScenarioResult } from './scenario.js';
import { bundleWorker } from './workerd-bundle.js';

const worker = fileURLToPath(new URL('./workerd-worker.ts', import.meta.url));
const wasm = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

describe('workerd (Cloudflare Workers, via Miniflare)', () => {
  // 2025-01-01 predates enable_weak_ref: no FinalizationRegistry, which once failed the import.
  it.each(['2025-01-01', '2026-04-01'])(
    'compatibility date %s: loads the module passed as a WebAssembly.Module and gets Node’s answers',
    async (compatibilityDate) => {
      const miniflare = new Miniflare({
        compatibilityDate,
        modules: [
          { type: 'ESModule', path: 'worker.mjs', contents: await bundleWorker(worker) },
          { type: 'CompiledWasm', path: 'usearch.wasm', contents: await readFile(wasm) },
        ],
      });
      try {
        const response = await miniflare.dispatchFetch('http://localhost/');
        const text = await response.text();
        expect(response.status, text).toBe(200);
        const body = JSON.parse(text) as { isModule: boolean; result: ScenarioResult; fromBytes: string };
        expect(body.isModule).toBe(true);
        expect(body.result.nearest).toBe(30);
        expect(body.result.selfHits).toEqual([5, 123, 400]);
        expect([...body.result.filtered].sort((a, b) => a - b)).toEqual([25, 45, 65]);
        expect(body.result.viewMatches).toBe(true);
        expect(body.result).toEqual(runScenario(await loadUsearch()));
        // Compiling from bytes is refused by workerd; loadUsearch reports it as WASM_LOAD.
        expect(body.fromBytes).toMatch(/^WASM_LOAD: /);
      } finally {
        await miniflare.dispose();
      }
    },
  );
});

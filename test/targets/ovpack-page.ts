// Bundled for Chromium by test/targets/chromium-ovpack.test.ts: the OVPack scenario
// (../edge/ovpack-scenario.ts) on a page's main thread, between two IndexedDB databases.
import { runOvpackScenario } from '../edge/ovpack-scenario.js';

(globalThis as { ovpackPage?: unknown }).ovpackPage = {
  run: (databases: [string, string], wasm: string) =>
    runOvpackScenario({
      stores: [{ indexedDB: databases[0] }, { indexedDB: databases[1] }],
      usearch: new URL(wasm),
    }),
};

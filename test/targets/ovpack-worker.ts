// A module Worker for test/targets/chromium-ovpack.test.ts: the OVPack scenario
// (../edge/ovpack-scenario.ts) between two IndexedDB databases; the message names them and the
// .wasm's URL, the answer is the scenario's result or the error.
import { LongshipError } from '../../src/index.js';
import { runOvpackScenario } from '../edge/ovpack-scenario.js';

// The DOM typings describe a Window; a worker's global scope has these two members.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<{ databases: [string, string]; wasm: string }>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async ({ data }) => {
  try {
    const [source, target] = data.databases;
    const result = await runOvpackScenario({
      stores: [{ indexedDB: source }, { indexedDB: target }],
      usearch: new URL(data.wasm),
    });
    scope.postMessage({ result, isWorker: typeof document === 'undefined' });
  } catch (error) {
    scope.postMessage({
      error: error instanceof LongshipError ? `${error.code}: ${error.message}` : String(error),
    });
  }
};

// A module Worker: each message is a .wasm URL; the answer is the scenario's result or an error.
import { LongshipError } from '../../src/index.js';
import { run } from './browser-main.js';

// The DOM typings describe a Window; a worker's global scope has these two members.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<string>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  try {
    scope.postMessage({ result: await run(event.data), isWorker: typeof document === 'undefined' });
  } catch (error) {
    scope.postMessage({
      error: error instanceof LongshipError ? `${error.code}: ${error.message}` : String(error),
    });
  }
};

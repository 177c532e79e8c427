// The page side of chromium-longship.test.ts: what a page imports to use Longship in a worker. The
// test drives it through `globalThis.longshipPage`.
import { openLongshipInWorker } from '../../src/client/open-longship-in-worker.js';
import { bundledModel } from '../../src/embed/bundled-model.js';
import { LongshipError } from '../../src/errors.js';

(globalThis as Record<string, unknown>).longshipPage = { openLongshipInWorker, bundledModel, LongshipError };

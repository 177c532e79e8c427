// The demo's worker with the bundled model: Longship as openLongshipInWorker() would start it, with the
// page's options.
import { exposeLongship } from '../../src/worker/expose.js';

exposeLongship();

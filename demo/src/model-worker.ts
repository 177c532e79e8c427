// The demo's worker with the bundled model: Longship as createLongship() would start it, with the
// page's options (the model and WASM files the demo serves under /local/).
import { exposeLongship } from '../../src/worker/expose.js';

exposeLongship();

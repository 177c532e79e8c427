// The offscreen document: the one long-lived context that hosts the engine. It starts Longship's
// worker from the extension's own copy of the package's files and answers the protocol's 'engine'
// requests (docs/guide/extension.md says why here and not in the service worker).
import { openLongshipInWorker } from 'longship/client';
import { engineOps } from './engine-ops.js';
import { serve } from './protocol.js';

const opening = openLongshipInWorker({ assets: chrome.runtime.getURL('longship/') });
opening.catch((error) => console.error('Longship did not open:', error)); // each request reports it too

// Registered at once, so that a request sent as soon as the document exists finds it.
serve(
  'engine',
  engineOps(() => opening),
);

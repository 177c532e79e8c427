// The offscreen document: the one long-lived context that hosts the engine. It starts Longship's
// worker from the extension's own copy of the package's files, answers the protocol's 'engine'
// requests, and hands the service worker a port of its own to the same engine when it asks
// (docs/guide/extension.md says why here and not in the service worker).
import { openLongshipInWorker } from 'longship/client';
import { shareLongshipWithServiceWorker } from 'longship/extension';
import { engineOps } from './engine-ops.js';
import { serve } from './protocol.js';

const assets = chrome.runtime.getURL('longship/');
// A SharedWorker is found again by its script and name: each call is a new port to the one engine.
const engineWorker = () =>
  new SharedWorker(`${assets}dist/worker/entry.js`, { type: 'module', name: 'longship' });

const opening = openLongshipInWorker({ assets, worker: engineWorker() });
opening.catch((error) => console.error('Longship did not open:', error)); // each request reports it too

// Registered at once, so that a request sent as soon as the document exists finds it.
serve(
  'engine',
  engineOps(() => opening),
);
shareLongshipWithServiceWorker(() => engineWorker().port);

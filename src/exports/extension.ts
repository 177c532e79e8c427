// `longship/extension`: a service worker's port to the Longship an extension page hosts
// (docs/guide/extension.md): the page's side and the service worker's, and nothing of the engine.

export {
  type ClientsLike,
  type ConnectLongshipFromPageOptions,
  connectLongshipFromPage,
  type ServiceWorkerContainerLike,
  type SharedLongship,
  shareLongshipWithServiceWorker,
} from '../worker/service-worker-port.js';

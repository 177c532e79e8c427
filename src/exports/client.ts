// `longship/client`: the page's side of a Longship in a worker, and nothing of the engine, so that
// a page loads only this and comlink (docs/guide/package.md, docs/internals/layers.md).

export { filesFromDrop } from '../client/files-from-drop.js';
export { type OpenLongshipInWorkerOptions, openLongshipInWorker } from '../client/open-longship-in-worker.js';
export type { MessageEndpoint } from '../web-types.js';
export {
  type ConnectOptions,
  connectLongship,
  type RemoteJob,
  type RemoteLongship,
  type RemoteResult,
  type RemoteSession,
  transfer,
} from '../worker/connect.js';
export type { WorkerOptions } from '../worker/worker-options.js';

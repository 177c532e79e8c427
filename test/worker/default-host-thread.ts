// A worker_threads script for failures.test.ts: the default host (the engine opened from the
// page's options, as the package's worker does), with IndexedDB's globals from fake-indexeddb. With
// `newerDatabase`, a database named so already exists at a version this code does not know.
import 'fake-indexeddb/auto';
import { type MessagePort, workerData } from 'node:worker_threads';
import { createLongshipHost } from '../../src/worker/expose.js';

const { port, newerDatabase } = workerData as { port: MessagePort; newerDatabase?: string };

if (newerDatabase) {
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.open(newerDatabase, 10_000);
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}
createLongshipHost({ locks: null }).connect(port as unknown as globalThis.MessagePort);

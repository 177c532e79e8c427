// A worker_threads script for worker-thread.test.ts: a Longship host on the port it is handed.
import { type MessagePort, workerData } from 'node:worker_threads';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { createLongshipHost } from '../../src/worker/expose.js';
import { embedderInfo, hashEmbedder } from '../context/fixtures.js';

const { port } = workerData as { port: MessagePort };

createLongshipHost({
  locks: null,
  open: async (options) =>
    openLongship({
      store: await openMemoryStore({ embedder: embedderInfo }),
      embedder: hashEmbedder,
      usearch: new URL(String(options.usearch)),
    }),
}).connect(port as unknown as globalThis.MessagePort);

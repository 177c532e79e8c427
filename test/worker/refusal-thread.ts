// A worker_threads script for remote-api.test.ts: an engine with methods the table leaves out, each
// of which would write if it ran (`wipe`, a session's `drop`), served on the port it is handed.
import { type MessagePort, workerData } from 'node:worker_threads';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { createLongshipHost } from '../../src/worker/expose.js';
import { embedderInfo, hashEmbedder } from '../context/fixtures.js';

const { port } = workerData as { port: MessagePort };

createLongshipHost({
  locks: null,
  open: async (options) => {
    const engine = await openLongship({
      store: await openMemoryStore({ embedder: embedderInfo }),
      embedder: hashEmbedder,
      usearch: new URL(String(options.usearch)),
    });
    const written = (uri: string) => engine.write(uri, 'written by a method the page may not call');
    const session = engine.session;
    return Object.assign(engine, {
      wipe: () => written('viking://resources/wiped.md'),
      session: (id?: string) =>
        Object.assign(session(id), { drop: () => written('viking://resources/dropped.md') }),
    });
  },
}).connect(port as unknown as globalThis.MessagePort);

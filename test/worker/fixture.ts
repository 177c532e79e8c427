// A Longship for worker-protocol tests: a memory store and a word-hashing embedder, so that a test
// runs in milliseconds; and an embedder that waits at a gate, for cancellation.

import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import { embedderInfo, hashEmbedder } from '../context/fixtures.js';

let usearch: Promise<UsearchModule> | undefined;

export async function openTestLongship() {
  usearch ??= loadUsearch();
  const store = await openMemoryStore({ embedder: embedderInfo });
  return openLongship({ store, embedder: hashEmbedder, usearch: await usearch });
}

/**
 * The hashing embedder, held at a gate while it is shut (as it starts): each call waits until
 * `open()` or its signal fires. `waiting` counts the calls held.
 */
export function gatedEmbedder() {
  let closed = true;
  let release: (() => void)[] = [];
  const gate = {
    waiting: 0,
    shut() {
      closed = true;
    },
    open() {
      closed = false;
      for (const go of release) go();
      release = [];
    },
    embedder: functionEmbedder({
      id: hashEmbedder.id,
      dimensions: hashEmbedder.dimensions,
      embed: async (texts, signal) => {
        if (closed) {
          gate.waiting++;
          await new Promise<void>((resolve, reject) => {
            release.push(resolve);
            signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          });
        }
        return hashEmbedder.embed(texts);
      },
    }),
  };
  return gate;
}

export async function openGatedLongship(embedder: ReturnType<typeof gatedEmbedder>['embedder']) {
  usearch ??= loadUsearch();
  const store = await openMemoryStore({ embedder: embedderInfo });
  return openLongship({ store, embedder, usearch: await usearch });
}

// The store contract and the change log contract, run against DurableObjectStore where it lives: in
// a SQLite-backed Durable Object under Miniflare (workerd), each test in an object of its own.

import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll } from 'vitest';
import { changeLogContract } from '../../src/testing/change-log-contract.js';
import { storeContract } from '../../src/testing/store-contract.js';
import { startStoreObjects } from './durable-object-miniflare.js';
import { openRemoteStore, remoteTamper, sender } from './durable-object-remote.js';

let miniflare: Miniflare | undefined;
beforeAll(async () => {
  miniflare = await startStoreObjects();
});
afterAll(async () => {
  await miniflare?.dispose();
});

const harness = () => {
  const send = sender(() => miniflare!, crypto.randomUUID());
  return { open: (options?: object) => openRemoteStore(send, options), tamper: remoteTamper(send) };
};

storeContract('DurableObjectStore', harness);
changeLogContract('DurableObjectStore', harness);

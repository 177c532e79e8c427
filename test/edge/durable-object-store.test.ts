// The store contract and the change log contract, run against DurableObjectStore where it lives: in
// a SQLite-backed Durable Object under Miniflare (workerd), each test in an object of its own.

import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDurableObjectStore } from '../../src/store/durable-object/open-durable-object-store.js';
import { changeLogContract } from '../../src/testing/change-log-contract.js';
import { opened } from '../../src/testing/harness.js';
import { codeOf, EMBEDDER, merge, node, withContent } from '../../src/testing/records.js';
import { observe, R, seed } from '../../src/testing/sample-tree.js';
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

describe('DurableObjectStore in its object', () => {
  const fresh = () => {
    const send = sender(() => miniflare!, crypto.randomUUID());
    return { send, open: (options?: object) => openRemoteStore(send, options) };
  };

  it('refuses an unknown option, and tables a newer Longship wrote', async () => {
    const h = fresh();
    expect(await codeOf(h.open({ embeder: EMBEDDER }))).toBe('INVALID_ARGUMENT');
    await (await h.open()).close();
    await h.send('sql', 'UPDATE longship_meta SET version = 99');
    const refused = await h.open().catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SCHEMA_MISMATCH' });
    expect((refused as Error).message).toContain('version 99');
  });

  it('refuses storage without SQL: none at all, or a Durable Object class without SQLite', async () => {
    expect(await codeOf(openDurableObjectStore({} as never))).toBe('INVALID_ARGUMENT');
    const kv = sender(() => miniflare!, crypto.randomUUID(), 'kv');
    const refused = await openRemoteStore(kv).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'STORE_ERROR' });
  });

  it('fails a commit past the 2 MB a row may hold with STORE_ERROR, and writes none of it', async () => {
    const { store } = await opened(fresh(), { embedder: EMBEDDER });
    const k = await seed(store);
    const before = await observe(store);
    const big = merge(
      withContent(node(`${R}/small`, k.free)),
      withContent(node(`${R}/big`, k.free + 1, { l2: 'x'.repeat(3 * 1024 * 1024) })),
    );
    expect(await codeOf(store.commit(big))).toBe('STORE_ERROR');
    expect(await observe(store)).toEqual(before);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('hands a snapshot to its reader whole, never its rows for later: they would be held twice', async () => {
    const h = fresh();
    const store = await h.open();
    await store.putSnapshot({ name: 'bm25', seq: 0, bytes: new Uint8Array(3 * 1024 * 1024).fill(7) });
    // Inside the object: the sink is told it cannot read ranges later, so it keeps every byte.
    const handle = (await h.send('open')) as number;
    const got = (await h.send('snapshotInto', handle, 'bm25')) as { ranged: boolean; byteLength: number };
    expect(got).toMatchObject({ ranged: false, byteLength: 3 * 1024 * 1024 });
    await store.close();
  });

  it('gets more records at once than a statement may bind values', async () => {
    const { raw, store } = await opened(fresh(), { embedder: EMBEDDER });
    const k = await seed(store);
    const asked = Array.from({ length: 300 }, (_, i) => `${R}/none${i}`);
    asked[150] = `${R}/a/x`;
    const got = await raw.get('nodes', asked);
    expect(got.length).toBe(300);
    expect(got.filter(Boolean).map((n) => n?.key)).toEqual([k.x]);
    expect(got[150]?.uri).toBe(`${R}/a/x`);
  });
});

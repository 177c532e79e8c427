import { describe, expect, it } from 'vitest';
import { MemoryData } from '../../src/store/memory/memory-data.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/store.js';
import { changeLogContract } from '../../src/testing/change-log-contract.js';
import { dir, EMBEDDER, merge, node, withContent } from '../../src/testing/records.js';
import { storeContract } from '../../src/testing/store-contract.js';
import { memoryHarness } from './harness.js';

storeContract('MemoryStore', memoryHarness);
changeLogContract('MemoryStore', memoryHarness);

describe('MemoryStore', () => {
  it('reports the store schema version', async () => {
    const store = await openMemoryStore();
    expect((await store.meta()).schemaVersion).toBe(STORE_SCHEMA_VERSION);
  });

  it('runs concurrent commits one after another, each against the state the previous one left', async () => {
    const data = new MemoryData();
    const store = await openMemoryStore({ data, embedder: EMBEDDER });
    const k = await store.allocateKeys(10);
    const root = store.commit(withContent(dir('viking://resources', k)));
    const child = store.commit(withContent(node('viking://resources/a', k + 1), [k + 2]));
    const clash = store.commit(withContent(node('viking://resources/b', k + 1)));
    const outcomes = await Promise.allSettled([root, child, clash]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(await Promise.all([root, child])).toEqual([1, 2]);
    expect((await store.verify()).ok).toBe(true);
  });

  it('shares its tables with a store reopened on the same data', async () => {
    const data = new MemoryData();
    const first = await openMemoryStore({ data, embedder: EMBEDDER });
    const k = await first.allocateKeys(1);
    await first.commit(merge(withContent(dir('viking://memories', k))));
    const second = await openMemoryStore({ data });
    expect((await second.node('viking://memories'))?.key).toBe(k);
  });
});

// fullStore(): our stores are used as they are, every call their own; a store of nine methods gets
// the rest derived, and one that keeps a change log of its own (without its own commit) has its log
// written through write() and read back as the engine's.

import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import type { ChangeLog } from '../../src/store/change-log.js';
import { fullStore, keepsChangeLog } from '../../src/store/full-store.js';
import { MemoryData } from '../../src/store/memory/memory-data.js';
import { MemoryLog } from '../../src/store/memory/memory-log.js';
import type { Store } from '../../src/store/store.js';
import { changeLogContract } from '../../src/testing/change-log-contract.js';
import { EMBEDDER } from '../../src/testing/records.js';
import { storeContract } from '../../src/testing/store-contract.js';
import { idbHarness, memoryHarness, memoryTamper } from './harness.js';
import { mapTables, openMapStore } from './map-store.js';

describe('fullStore', () => {
  it('hands back a store that offers every operation and a log, and wraps one that does not', async () => {
    for (const harness of [memoryHarness(), idbHarness()]) {
      const store = await harness.open({ embedder: EMBEDDER });
      expect(fullStore(store)).toBe(store);
      expect(keepsChangeLog(store)).toBe(true);
    }
    const bare = openMapStore(mapTables());
    const full = fullStore(bare);
    expect(full).not.toBe(bare);
    expect(fullStore(full)).toBe(full);
    expect(keepsChangeLog(full)).toBe(false);
    expect(keepsChangeLog(fullStore(loggedMapStore(mapTables(), new MemoryData())))).toBe(true);
  });
});

/**
 * A Map store that keeps a change log and snapshots of its own, in memory beside its tables: its
 * write() logs the change with the records, and it commits nothing itself.
 */
function loggedMapStore(tables: ReturnType<typeof mapTables>, data: MemoryData): Store & ChangeLog {
  const store = openMapStore(tables);
  let closed = false;
  const log = new MemoryLog(() => {
    if (closed) throw new LongshipError('STORE_CLOSED', 'the map store is closed');
    return data;
  });
  return {
    ...store,
    async write(writes) {
      if (!(await store.write(writes))) return false;
      data.changes.set(writes.change.seq, structuredClone(writes.change));
      data.state.seq = writes.change.seq;
      return true;
    },
    async close() {
      closed = true;
      await store.close();
    },
    async destroy() {
      data.clear();
      await store.destroy();
    },
    changesSince: (seq) => log.changesSince(seq),
    pruneChanges: (seq) => log.pruneChanges(seq),
    putSnapshot: (input, signal) => log.putSnapshot(input, signal),
    snapshot: (name) => log.snapshot(name),
    snapshotInto: (name, open) => log.snapshotInto(name, open),
    deleteSnapshot: (name) => log.deleteSnapshot(name),
  };
}

const logged = () => {
  const [tables, data] = [mapTables(), new MemoryData()];
  return { open: async () => loggedMapStore(tables, data), tamper: memoryTamper(data) };
};
storeContract('a Map store with a change log of its own', logged);
changeLogContract('a Map store with a change log of its own', logged);

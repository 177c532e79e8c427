// openIdbStore's snapshotFiles option in Node: no OPFS here, so snapshots stay in IndexedDB either way
// (the files themselves are tested in Chromium: test/targets/chromium-opfs-snapshots.test.ts).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openIdbStore } from '../../../src/store/idb/idb-open.js';
import { codeOf } from '../../../src/testing/records.js';

describe("openIdbStore's snapshotFiles", () => {
  it("refuses anything but 'auto' or false, with a typed error", async () => {
    const indexedDB = new IDBFactory();
    for (const snapshotFiles of ['yes', true, 0]) {
      const opened = openIdbStore('files-bad', { indexedDB, snapshotFiles: snapshotFiles as 'auto' });
      expect(await codeOf(opened)).toBe('INVALID_ARGUMENT');
    }
  });

  it('keeps snapshots in IndexedDB where there is no OPFS, with either setting', async () => {
    const bytes = new Uint8Array(5 * 1024 * 1024 + 3).map((_, i) => (i * 31) & 255);
    for (const snapshotFiles of ['auto', false] as const) {
      const indexedDB = new IDBFactory();
      const store = await openIdbStore('files-none', { indexedDB, snapshotFiles });
      await store.putSnapshot({ name: 'hnsw', seq: 0, bytes });
      const read = await store.snapshot('hnsw');
      expect(read && Buffer.from(read.bytes).equals(Buffer.from(bytes))).toBe(true);
      expect(await store.verify()).toEqual({ ok: true, problems: [] });
      await store.close();
    }
  });
});

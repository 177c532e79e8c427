// The file store's harness: each store in a folder of its own under one temporary root, removed
// when the test file is done. Snapshots are tampered with in their files.

import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { loadNodeFiles } from '../../src/env/node-files.js';
import { LongshipError } from '../../src/errors.js';
import { SNAPSHOT_CHUNK_BYTES } from '../../src/store/change-log.js';
import { type FileStoreOptions, openFileStore } from '../../src/store/file/file-open.js';
import { listSnapshots, readSnapshotHeader, snapshotFile } from '../../src/store/file/file-snapshots.js';
import type { FileStore } from '../../src/store/file/file-store.js';
import type { StoreHarness } from './harness.js';

let root: string | undefined;
const opened: FileStore[] = [];

// The contract's tests leave their stores open: close them, rather than leave their files to the GC.
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** A fresh temporary folder, removed after the test file. */
export function tempFolder(): string {
  if (!root) {
    root = mkdtempSync(join(tmpdir(), 'longship-file-store-'));
    const made = root;
    afterAll(() => rmSync(made, { recursive: true, force: true }));
  }
  return mkdtempSync(join(root, 'case-'));
}

export function fileHarness(dir = join(tempFolder(), 'store'), extra: FileStoreOptions = {}): StoreHarness {
  return {
    async open(options) {
      const store = await openFileStore(dir, { ...options, ...extra });
      opened.push(store);
      return store;
    },
    tamper: {
      async corruptSnapshot(name, how, index = 0) {
        const files = await loadNodeFiles();
        const file = snapshotFile(files, dir, name);
        const handle = await open(file, 'r+');
        try {
          const header = (await readSnapshotHeader(handle))!;
          const start = header.dataOffset + index * SNAPSHOT_CHUNK_BYTES;
          if (how === 'drop-chunk') {
            truncateSync(file, start);
            return;
          }
          const length = Math.min(SNAPSHOT_CHUNK_BYTES, header.byteLength - index * SNAPSHOT_CHUNK_BYTES);
          const at = start + (length >> 1);
          const byte = new Uint8Array(1);
          await handle.read(byte, 0, 1, at);
          byte[0] = byte[0]! ^ 0xff;
          await handle.write(byte, 0, 1, at);
        } finally {
          await handle.close();
        }
      },
      async chunkIds() {
        const files = await loadNodeFiles();
        const ids = (await listSnapshots(files, dir)).chunkIds;
        // A temporary file left behind counts too: a failed write must not leave its bytes.
        const folder = join(dir, 'snapshots');
        for (const name of readdirSync(folder).filter((n) => n.endsWith('.tmp'))) {
          const chunks = Math.max(1, Math.ceil(statSync(join(folder, name)).size / SNAPSHOT_CHUNK_BYTES));
          for (let i = 0; i < chunks; i++) ids.push([name, 'temporary', i]);
        }
        return ids;
      },
    },
  };
}

/** The typed error `promise` rejects with; a fulfilment or an untyped error fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

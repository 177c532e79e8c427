// A crash at every write the file store makes, one run each: the process stops there (the writes
// before it are kept, as a killed process's are), and a reopen passes verify(), holds every commit
// that had resolved, and holds a whole snapshot or none. Covers opening a new store, commits,
// compactions (checkpoint, new log, rename, old log removed), snapshots and pruning.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { NodeFiles } from '../../src/env/node-files.js';
import { loadNodeFiles } from '../../src/env/node-files.js';
import { openFileStore, openFileStoreWith } from '../../src/store/file/file-open.js';
import {
  dir as dirNode,
  EMBEDDER,
  node,
  patternBytes,
  sameBytes,
  withContent,
} from '../../src/testing/records.js';
import { type CrashingFiles, crashingFiles } from './crashing-files.js';
import { tempFolder } from './file-harness.js';

const R = 'viking://resources';

interface Outcome {
  /** URIs whose commit resolved. */
  acknowledged: string[];
  /** Every snapshot putSnapshot was given. */
  snapshots: Uint8Array[];
}

function causes(error: unknown): string[] {
  const messages: string[] = [];
  for (let e = error; e instanceof Error; e = e.cause) messages.push(e.message);
  return messages;
}

async function scenario(files: NodeFiles, dir: string, outcome: Outcome): Promise<void> {
  const store = await openFileStoreWith(files, dir, { embedder: EMBEDDER, checkpointAfterBytes: 2048 });
  const root = await store.allocateKeys(1);
  await store.commit(withContent(dirNode(R, root)));
  outcome.acknowledged.push(R);
  for (let i = 0; i < 16; i++) {
    const key = await store.allocateKeys(2);
    const uri = `${R}/d${i}`;
    await store.commit(withContent(node(uri, key, { l2: `text ${i} `.repeat(30) }), [key + 1]));
    outcome.acknowledged.push(uri);
    if (i % 5 === 4) {
      const bytes = patternBytes(3000 + i, i);
      outcome.snapshots.push(bytes);
      await store.putSnapshot({ name: 'hnsw', seq: (await store.meta()).seq, bytes });
    }
    if (i === 9) await store.pruneChanges(4);
  }
  await store.close();
}

it('survives a crash at every write it makes', async () => {
  const real = await loadNodeFiles();
  const counting = crashingFiles(real);
  await scenario(counting.files, join(tempFolder(), 'store'), { acknowledged: [], snapshots: [] });
  const total = counting.writes();
  expect(total).toBeGreaterThan(100);
  console.log(`file store crash test: ${total} crash points`);

  for (let crashAt = 1; crashAt <= total; crashAt++) {
    const dir = join(tempFolder(), 'store');
    const outcome: Outcome = { acknowledged: [], snapshots: [] };
    const crashing: CrashingFiles = crashingFiles(real, crashAt);
    const error = await scenario(crashing.files, dir, outcome).catch((e: unknown) => e);
    expect(crashing.crashed(), `crash at write ${crashAt}`).toBe(true);
    // The crash itself, or the store's error wrapping it.
    expect(causes(error), `crash at write ${crashAt}`).toContain('crashed');
    // The process is gone: so is its lock.
    rmSync(join(dir, 'lock'), { force: true });
    const store = await openFileStore(dir).catch((e: unknown) => {
      throw new Error(`crash at write ${crashAt}: reopen failed: ${String(e)}`);
    });
    try {
      expect(await store.verify(), `crash at write ${crashAt}`).toEqual({ ok: true, problems: [] });
      const found = await store.nodes(outcome.acknowledged);
      expect(
        outcome.acknowledged.filter((_, i) => !found[i]),
        `crash at write ${crashAt}`,
      ).toEqual([]);
      const snapshot = await store.snapshot('hnsw');
      if (snapshot) expect(outcome.snapshots.some((bytes) => sameBytes(snapshot.bytes, bytes))).toBe(true);
      // It goes on from there.
      const key = await store.allocateKeys(1);
      if (found[0]) await store.commit(withContent(node(`${R}/after`, key)));
    } finally {
      await store.close();
    }
  }
}, 120_000);

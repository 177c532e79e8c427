// Snapshots of the formats before this one (vector owners as bare pairs, BM25 terms without their
// hash table) read as damaged: the reopen reports them, rebuilds those indexes from the store, and
// answers as before.

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeAll, expect, it } from 'vitest';
import { snapshotNames } from '../../src/derived/derived-indexes.js';
import type { LongshipError } from '../../src/errors.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import { embedderInfo, hashEmbedder, openParts } from '../context/fixtures.js';
import { idbHarness } from '../store/harness.js';

const OWNERS = 'hnsw-owners';
const R = 'viking://resources';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

it('rebuilds from snapshots of the previous owners and BM25 formats, and answers as before', async () => {
  const harness = idbHarness(new IDBFactory());
  const { store, tree, indexes } = await openParts(await harness.open({ embedder: embedderInfo }), usearch);
  const words = ['river', 'forest', 'ocean', 'desert', 'glacier', 'island'];
  for (let i = 0; i < 24; i++) {
    await tree.write(`${R}/set${i % 3}/doc${i}.md`, `${words[i % 6]} ${words[(i * 5) % 6]} note ${i}.`, {
      parents: true,
    });
  }
  const [query] = await hashEmbedder.embed(['river ocean']);
  const answers = () => ({
    vector: indexes.vectors
      .search(query!, 5, { exact: true })
      .map((hit) => [hit.key, indexes.nodeOfVector(hit.key)]),
    lexical: indexes.lexical.search('river ocean', { limit: 10 }).map((hit) => hit.key),
  });
  const before = answers();
  await indexes.close();

  // The same contents in the formats before: owners as [vectorKey, nodeKey] float64 pairs, BM25
  // with format version 1 (the first word it checks after its magic).
  const owners = (await store.snapshot(OWNERS))!;
  const count = new Uint32Array(owners.bytes.slice(0, 16).buffer)[2]!;
  const columns = new Float64Array(owners.bytes.slice(16).buffer);
  const pairs = new Float64Array(2 * count);
  for (let i = 0; i < count; i++) {
    pairs[2 * i] = columns[i]!;
    pairs[2 * i + 1] = columns[count + i]!;
  }
  await store.putSnapshot({ name: OWNERS, seq: owners.seq, bytes: new Uint8Array(pairs.buffer) });
  const lexical = (await store.snapshot(snapshotNames.lexical))!;
  const bytes = lexical.bytes.slice();
  new DataView(bytes.buffer).setUint32(8, 1, true);
  await store.putSnapshot({ name: snapshotNames.lexical, seq: lexical.seq, bytes });
  await store.close();

  const errors: unknown[] = [];
  const second = await openParts(await harness.open({ embedder: embedderInfo }), usearch, {
    onError: (error: unknown) => errors.push(error),
  });
  expect(second.indexes.openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'snapshot' });
  expect(errors.map((error) => (error as LongshipError).code)).toEqual(['CORRUPT_INDEX', 'CORRUPT_INDEX']);
  expect(errors.map((error) => (error as LongshipError).message).join('\n')).toMatch(
    /not a format 2 snapshot/,
  );
  expect(errors.map((error) => (error as LongshipError).message).join('\n')).toMatch(/format version 1/);
  expect(
    second.indexes.vectors
      .search(query!, 5, { exact: true })
      .map((hit) => [hit.key, second.indexes.nodeOfVector(hit.key)]),
  ).toEqual(before.vector);
  expect(second.indexes.lexical.search('river ocean', { limit: 10 }).map((hit) => hit.key)).toEqual(
    before.lexical,
  );
  expect((await second.indexes.verify()).problems).toEqual([]);
  await second.indexes.close();
  await second.store.close();
});

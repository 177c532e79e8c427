// A small consistent tree to start tests from, and a dump of everything a Store shows.

import type { FullStore } from '../store/full-store.js';
import type { StoreTables } from '../store/store.js';
import { dir, merge, node, relation, withContent } from './records.js';

export const R = 'viking://resources';

/** A small tree: resources/{a/{x, y}, ab}, with vectors on x (2 chunks), y and ab. */
export async function seed(store: FullStore) {
  const k = await store.allocateKeys(40);
  // Keys from `free` on are allocated but unused: for the tests' own nodes and vectors.
  const keys = {
    root: k,
    a: k + 1,
    x: k + 2,
    y: k + 3,
    ab: k + 4,
    free: k + 20,
    vx: [k + 10, k + 11],
    vy: k + 12,
  };
  await store.commit(merge(withContent(dir(R, keys.root)), withContent(dir(`${R}/a`, keys.a))));
  await store.commit(
    merge(
      withContent(node(`${R}/a/x`, keys.x), keys.vx),
      withContent(node(`${R}/a/y`, keys.y), [keys.vy]),
      withContent(node(`${R}/ab`, keys.ab), [k + 13]),
      { putRelations: [relation(`${R}/a/x`, `${R}/ab`), relation(`${R}/ab`, `${R}/a/y`)] },
    ),
  );
  return keys;
}

/**
 * Everything observable, to compare a store before and after a refused or aborted write; without the
 * change log when `changes` is false (a log in memory starts empty at every open).
 */
export async function observe(store: FullStore, changes = true) {
  const tables: Record<string, unknown[]> = {};
  const names: (keyof StoreTables)[] = ['nodes', 'vectors', 'postings', 'relations'];
  if (changes) names.push('changes');
  for (const table of names) {
    tables[table] = [];
    for await (const rows of store.scan(table, 7)) tables[table]!.push(...rows);
  }
  const { seq } = await store.meta();
  return { seq, tables };
}

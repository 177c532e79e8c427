// Which vector each change of the log put in, for a replay in the live order (docs/internals/reliability-core.md).
import { describe, expect, it } from 'vitest';
import { vectorsAdded } from '../../src/derived/change-replay.js';
import type { ChangeRecord, VectorRecord } from '../../src/store/store.js';

const v = (key: number, value: number): VectorRecord => ({
  key,
  nodeKey: 100 + key,
  chunk: 0,
  vector: new Float32Array([value, 0]),
});
const change = (seq: number, added: number[], removed: VectorRecord[] | number[]): ChangeRecord => {
  const records = removed.filter((r): r is VectorRecord => typeof r !== 'number');
  return {
    seq,
    addedNodeKeys: [],
    removedNodeKeys: [],
    addedVectorKeys: added,
    removedVectorKeys: removed.map((r) => (typeof r === 'number' ? r : r.key)),
    ...(records.length > 0 ? { removedVectors: records } : {}),
    addedPostingKeys: [],
    removedPostingKeys: [],
  };
};
const values = (maps: Array<Map<number, VectorRecord>>) =>
  maps.map((m) => Object.fromEntries([...m].map(([key, r]) => [key, r.vector[0]])));

describe('vectorsAdded', () => {
  it('finds a vector added, replaced in place and removed since in the changes that logged it', () => {
    const changes = [
      change(1, [1, 2], []),
      change(2, [1], [v(1, 10)]), // key 1 given a new vector in place
      change(3, [], [v(1, 11), v(2, 20)]), // both gone
      change(4, [3], []),
    ];
    const current = new Map([[3, v(3, 30)]]);
    expect(values(vectorsAdded(changes, current))).toEqual([{ 1: 10, 2: 20 }, { 1: 11 }, {}, { 3: 30 }]);
  });

  it('leaves out what an older log did not keep, rather than replay the wrong vector', () => {
    // Key 1 removed by a change logged without its vector, and given a new one later.
    const changes = [change(1, [1], []), change(2, [], [1]), change(3, [1], [])];
    const current = new Map([[1, v(1, 12)]]);
    expect(values(vectorsAdded(changes, current))).toEqual([{}, {}, { 1: 12 }]);
  });
});

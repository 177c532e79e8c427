import fc from 'fast-check';
import { expect, it } from 'vitest';
import { NodesByKey } from '../../src/retrieve/nodes-by-key.js';
import type { NodeRecord } from '../../src/store/store.js';

const node = (key: number, useCount = 0) =>
  ({ key, uri: `viking://resources/n${key}`, useCount }) as NodeRecord;

it('finds what a Map keyed by node key finds, keeping the first of a key given twice', () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(2 ** 40), { maxLength: 200 }),
      fc.array(fc.nat(2 ** 40), { maxLength: 20 }),
      (keys, probes) => {
        const nodes = keys.map((key, i) => node(key, i));
        const model = new Map<number, NodeRecord>();
        for (const n of nodes) if (!model.has(n.key)) model.set(n.key, n);
        const { byKey, nodes: kept } = NodesByKey.of(nodes);
        expect(kept).toEqual([...model.values()]);
        expect(byKey.size).toBe(model.size);
        for (const key of [...keys, ...probes]) {
          expect(byKey.has(key)).toBe(model.has(key));
          expect(byKey.get(key)).toBe(model.get(key));
        }
      },
    ),
  );
});

it('swaps in replaced nodes whose keys it holds, leaving itself and other keys as they were', () => {
  const { byKey } = NodesByKey.of([node(1), node(2), node(3)]);
  const first = byKey.withReplaced([node(2, 5), node(9, 1)]);
  const second = first.withReplaced([node(3, 7)]);
  expect(byKey.get(2)!.useCount).toBe(0);
  expect(first.get(2)!.useCount).toBe(5);
  expect(first.get(3)!.useCount).toBe(0);
  expect([second.get(2)!.useCount, second.get(3)!.useCount]).toEqual([5, 7]);
  expect(second.has(9)).toBe(false);
  expect(second.get(9)).toBeUndefined();
  expect(second.size).toBe(3);
});

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { VectorOwners } from '../../src/context/vector-owners.js';
import { LongshipError } from '../../src/errors.js';

const key = fc.integer({ min: 1, max: 2 ** 40 });
const op = fc.oneof(
  fc.record({ set: fc.tuple(key, fc.integer({ min: 1, max: 20 })) }),
  fc.record({ delete: key }),
);

it('agrees with a model map through sets and deletes, and survives serialize/load', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const owners = new VectorOwners();
      const model = new Map<number, number>();
      for (const o of ops) {
        if ('set' in o) {
          owners.set(...o.set);
          model.set(...o.set);
        } else {
          owners.delete(o.delete);
          model.delete(o.delete);
        }
      }
      for (const copy of [owners, VectorOwners.load(owners.serialize())]) {
        expect(copy.size).toBe(model.size);
        for (const [vectorKey, nodeKey] of model) {
          expect(copy.nodeOf(vectorKey)).toBe(nodeKey);
          expect(copy.keysOf(nodeKey)).toContain(vectorKey);
        }
        for (const nodeKey of new Set(model.values())) {
          const expected = [...model].filter(([, n]) => n === nodeKey).map(([v]) => v);
          expect([...copy.keysOf(nodeKey)].sort()).toEqual(expected.sort());
        }
      }
    }),
  );
});

it('refuses bytes it cannot have written', () => {
  const owners = new VectorOwners();
  owners.set(7, 1);
  const bytes = owners.serialize();
  expect(() => VectorOwners.load(bytes.subarray(0, 12))).toThrow(LongshipError);
  const twice = new Uint8Array([...bytes, ...bytes]);
  expect(() => VectorOwners.load(twice)).toThrow(/unique/);
  const fraction = new Float64Array([1.5, 2]);
  expect(() => VectorOwners.load(new Uint8Array(fraction.buffer))).toThrow(/valid/);
});

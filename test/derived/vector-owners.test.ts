import fc from 'fast-check';
import { expect, it } from 'vitest';
import { KeyIndex } from '../../src/derived/key-index.js';
import { VectorOwners } from '../../src/derived/vector-owners.js';
import { LongshipError } from '../../src/errors.js';

// Small key ranges, so that sets, moves and deletes of the same keys happen often; large ones too.
const key = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }));
const op = fc.oneof(
  fc.record({ set: fc.tuple(key, fc.integer({ min: 1, max: 20 })) }),
  fc.record({ delete: key }),
);

/** The model: a map of vector key → node key, and each node's keys in the order they were added. */
class Model {
  readonly nodeOf = new Map<number, number>();
  readonly keysOf = new Map<number, number[]>();
  set(vectorKey: number, nodeKey: number): void {
    if (this.nodeOf.get(vectorKey) === nodeKey) return;
    this.delete(vectorKey);
    this.nodeOf.set(vectorKey, nodeKey);
    this.keysOf.set(nodeKey, [...(this.keysOf.get(nodeKey) ?? []), vectorKey]);
  }
  delete(vectorKey: number): void {
    const nodeKey = this.nodeOf.get(vectorKey);
    if (nodeKey === undefined) return;
    this.nodeOf.delete(vectorKey);
    const rest = this.keysOf.get(nodeKey)!.filter((k) => k !== vectorKey);
    if (rest.length === 0) this.keysOf.delete(nodeKey);
    else this.keysOf.set(nodeKey, rest);
  }
}

function apply(
  ops: readonly ({ set: [number, number] } | { delete: number })[],
  owners: VectorOwners,
  model: Model,
) {
  for (const o of ops) {
    if ('set' in o) {
      owners.set(...o.set);
      model.set(...o.set);
    } else {
      owners.delete(o.delete);
      model.delete(o.delete);
    }
  }
}

function expectAgrees(owners: VectorOwners, model: Model, probes: readonly number[]): void {
  expect(owners.size).toBe(model.nodeOf.size);
  for (const [vectorKey, nodeKey] of model.nodeOf) expect(owners.nodeOf(vectorKey)).toBe(nodeKey);
  for (const [nodeKey, keys] of model.keysOf) {
    expect(owners.keysOf(nodeKey)).toEqual(keys);
    expect(owners.countOf(nodeKey)).toBe(keys.length);
  }
  for (const probe of probes) {
    expect(owners.nodeOf(probe)).toBe(model.nodeOf.get(probe));
    expect(owners.keysOf(probe)).toEqual(model.keysOf.get(probe) ?? []);
    expect(owners.countOf(probe)).toBe(model.keysOf.get(probe)?.length ?? 0);
  }
}

it('agrees with a model through sets and deletes, before and after serialize/load, and changes on a loaded one', () => {
  fc.assert(
    fc.property(
      fc.array(op, { maxLength: 60 }),
      fc.array(op, { maxLength: 60 }),
      fc.array(key, { maxLength: 10 }),
      (before, after, probes) => {
        const owners = new VectorOwners();
        const model = new Model();
        apply(before, owners, model);
        expectAgrees(owners, model, probes);
        const loaded = VectorOwners.load(owners.serialize());
        expectAgrees(loaded, model, probes);
        // Changes over a loaded snapshot go to its overlay; they survive a second round trip.
        apply(after, loaded, model);
        expectAgrees(loaded, model, probes);
        expectAgrees(VectorOwners.load(loaded.serialize()), model, probes);
      },
    ),
  );
});

it('reads its snapshot in place when aligned, and copies a misaligned one', () => {
  const owners = new VectorOwners();
  owners.set(7, 1);
  owners.set(9, 1);
  owners.set(2 ** 50 + 3, 2);
  const bytes = owners.serialize();
  const shifted = new Uint8Array(bytes.length + 4);
  shifted.set(bytes, 4);
  for (const input of [bytes, shifted.subarray(4)]) {
    const loaded = VectorOwners.load(input);
    expect(loaded.keysOf(1)).toEqual([7, 9]);
    expect(loaded.nodeOf(2 ** 50 + 3)).toBe(2);
  }
});

it('refuses bytes it cannot have written, the format before this one included', () => {
  const owners = new VectorOwners();
  owners.set(7, 1);
  owners.set(8, 2);
  const bytes = owners.serialize();
  const refused = (input: Uint8Array, message: RegExp) => {
    expect(() => VectorOwners.load(input)).toThrow(LongshipError);
    expect(() => VectorOwners.load(input)).toThrow(message);
    try {
      VectorOwners.load(input);
    } catch (error) {
      expect((error as LongshipError).code).toBe('CORRUPT_INDEX');
    }
  };
  refused(bytes.subarray(0, 12), /too short/);
  refused(bytes.subarray(0, bytes.length - 8), /do not hold/);
  // Format 1: bare [vectorKey, nodeKey] float64 pairs.
  refused(new Uint8Array(new Float64Array([7, 1, 8, 2]).buffer), /not a format 2/);
  const edit = (at: number, value: number) => {
    const copy = bytes.slice();
    new Float64Array(copy.buffer, 16)[at] = value;
    return copy;
  };
  refused(edit(0, 1.5), /valid/); // a vector key that is not an integer
  refused(edit(3, -0.5), /valid/); // a node key that is not an integer
  refused(edit(1, 7), /unique/); // vector key 7 twice
  // Node 1's keys split around node 2's.
  const split = new VectorOwners();
  for (const [v, n] of [
    [1, 1],
    [2, 2],
    [3, 3],
  ]) {
    split.set(v!, n!);
  }
  const splitBytes = split.serialize();
  new Float64Array(splitBytes.buffer, 16)[5] = 1;
  refused(splitBytes, /unique/);
});

it('KeyIndex finds every position it was given, and reports a key given twice', () => {
  fc.assert(
    fc.property(fc.array(key, { maxLength: 200 }), fc.array(key, { maxLength: 20 }), (list, probes) => {
      const keys = Float64Array.from(list);
      const index = new KeyIndex(keys);
      const model = new Map<number, number>();
      list.forEach((k, i) => {
        expect(index.add(i)).toBe(model.get(k) ?? -1);
        if (!model.has(k)) model.set(k, i);
      });
      for (const k of [...list, ...probes]) expect(index.find(k)).toBe(model.get(k) ?? -1);
    }),
  );
});

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { NodeCatalogue } from '../../src/derived/node-catalogue.js';
import { LongshipError } from '../../src/errors.js';
import type { NodeRecord } from '../../src/store/store.js';

function record(key: number, uri: string, extra: Partial<NodeRecord> = {}): NodeRecord {
  return {
    uri,
    parent: uri.slice(0, uri.lastIndexOf('/')),
    name: uri.slice(uri.lastIndexOf('/') + 1),
    kind: 'file',
    contextType: 'resource',
    key,
    l0: `abstract of ${uri}`,
    l1: 'an overview',
    l2: 'the content',
    hash: 'h',
    summaryKind: 'extractive',
    meta: {},
    createdAt: 1,
    updatedAt: 2,
    useCount: 0,
    ...extra,
  };
}

/**
 * A node as plain data: a loaded catalogue's nodes read their fields from the snapshot (getters),
 * which equality does not see.
 */
const plain = <T>(node: T): T => JSON.parse(JSON.stringify(node));

// Names with '-', '.', '0' and '/' neighbours: sorting by URI is not walking the tree.
// U+E000 and an astral character sort one way in UTF-8 and the other in UTF-16, as URIs are sorted.
const name = fc.constantFrom('a', 'a-b', 'a.b', 'a0', 'b', 'ab', 'é', '\u{e000}', '😀');
const uri = fc
  .array(name, { minLength: 1, maxLength: 3 })
  .map((parts) => `viking://resources/${parts.join('/')}`);
const op = fc.oneof(
  fc.record({ set: fc.tuple(fc.integer({ min: 1, max: 30 }), uri, fc.nat(5)) }),
  fc.record({ delete: fc.integer({ min: 1, max: 30 }) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** Applies a change to the catalogue and its model; the URI a set touched. */
function apply(catalogue: NodeCatalogue, model: Map<number, NodeRecord>, o: Op): string | undefined {
  if (!('set' in o)) {
    model.delete(o.delete);
    catalogue.delete(o.delete);
    return undefined;
  }
  const [key, at, uses] = o.set;
  // The store never lets two nodes share a URI: the model drops the one there.
  for (const [k, n] of model)
    if (n.uri === at && k !== key) {
      model.delete(k);
      catalogue.delete(k);
    }
  const node = record(key, at, { useCount: uses });
  model.set(key, node);
  catalogue.set(node);
  return at;
}

it('agrees with a model through sets, moves and deletes: below() is a prefix range by URI, as the store lists it', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), fc.array(uri, { maxLength: 5 }), (ops, probes) => {
      const catalogue = new NodeCatalogue();
      const model = new Map<number, NodeRecord>();
      for (const o of ops) {
        apply(catalogue, model, o);
        // Interleave reads, so the lazy sort is exercised between changes too.
        if (probes.length > 0) catalogue.below(probes[0]!);
      }
      const byUri = (a: { uri: string }, b: { uri: string }) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0);
      const expected = [...model.values()].sort(byUri).map(({ l1, l2, hash, ...rest }) => rest);
      const { catalogue: copy, readBack } = NodeCatalogue.load(catalogue.serialize());
      expect(readBack).toEqual([]);
      for (const c of [catalogue, copy]) {
        expect(c.size).toBe(model.size);
        expect(c.all().map(plain)).toEqual(expected);
        for (const probe of ['viking://resources', ...probes]) {
          expect(c.below(probe).map(plain)).toEqual(expected.filter((n) => n.uri.startsWith(`${probe}/`)));
        }
        for (const node of expected) expect(plain(c.node(node.uri))).toEqual(node);
      }
    }),
  );
});

// A URI is looked up among the nodes set since the last sort, then in the sorted list less what went
// stale: between sorts, a loaded node moved, replaced or deleted must not be found at its old URI.
it('finds by URI and by key as a model does after every change, loaded or not, sorted or not', () => {
  const change = fc.record({ op, sort: fc.boolean() });
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), uri), { maxLength: 20 }),
      fc.array(change, { maxLength: 40 }),
      fc.boolean(),
      (initial, changes, loaded) => {
        const model = new Map<number, NodeRecord>();
        const start = new NodeCatalogue();
        for (const [key, at] of initial) {
          if (model.has(key) || [...model.values()].some((n) => n.uri === at)) continue;
          model.set(key, record(key, at));
          start.set(model.get(key)!);
        }
        const catalogue = loaded ? NodeCatalogue.load(start.serialize()).catalogue : start;
        const probes = new Set<string>([...model.values()].map((n) => n.uri));
        const check = () => {
          expect(catalogue.size).toBe(model.size);
          for (const probe of probes) {
            const want = [...model.values()].find((n) => n.uri === probe);
            const got = catalogue.node(probe);
            expect(got && plain(got).key).toBe(want?.key);
            expect(got && plain(got).useCount).toBe(want?.useCount);
          }
          for (let key = 1; key <= 30; key++) expect(catalogue.nodeByKey(key)?.uri).toBe(model.get(key)?.uri);
        };
        for (const { op: o, sort } of changes) {
          const touched = apply(catalogue, model, o);
          if (touched !== undefined) probes.add(touched);
          if (sort) catalogue.all();
          check();
        }
      },
    ),
  );
});

// A loaded node is written back as its snapshot holds it, not decoded and encoded again: the bytes
// must be those of the catalogue it was loaded from, after the same changes to both.
it('writes a loaded catalogue, changed or not, byte for byte as the catalogue it was loaded from', () => {
  const extra = fc.constantFrom<Partial<NodeRecord>>(
    {},
    { meta: { tag: 'é', n: 1, nested: { ok: [1, null] } } },
    { meta: { at: new Date(3) } }, // read back from the store, as the derived indexes do
    { summaryKind: 'llm', lastUsedAt: 5, parent: null },
    { name: 'another name', kind: 'dir', contextType: 'skill' },
  );
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), uri, extra), { maxLength: 20 }),
      fc.array(op, { maxLength: 20 }),
      (initial, ops) => {
        const built = new NodeCatalogue();
        const model = new Map<number, NodeRecord>();
        for (const [key, at, fields] of initial) {
          if (model.has(key) || [...model.values()].some((n) => n.uri === at)) continue;
          model.set(key, record(key, at, fields));
          built.set(model.get(key)!);
        }
        const { catalogue: loaded, readBack } = NodeCatalogue.load(built.serialize());
        for (const key of readBack) loaded.set(model.get(key)!);
        expect(loaded.serialize()).toEqual(built.serialize());
        const second = new Map(model);
        for (const o of ops) {
          apply(loaded, model, o);
          apply(built, second, o);
        }
        expect(loaded.serialize()).toEqual(built.serialize());
      },
    ),
  );
});

it('keeps no L1, L2 or hash, and moves its version on every change', () => {
  const catalogue = new NodeCatalogue();
  const before = catalogue.version;
  catalogue.set(record(1, 'viking://resources/a'));
  expect(catalogue.version).toBeGreaterThan(before);
  const held = catalogue.nodeByKey(1)!;
  expect('l1' in held || 'l2' in held || 'hash' in held).toBe(false);
  const afterSet = catalogue.version;
  catalogue.set(record(1, 'viking://resources/b', { useCount: 3, lastUsedAt: 9 }));
  expect(catalogue.version).toBeGreaterThan(afterSet);
  expect(catalogue.node('viking://resources/a')).toBeUndefined();
  expect(catalogue.node('viking://resources/b')).toMatchObject({ useCount: 3, lastUsedAt: 9 });
  const afterMove = catalogue.version;
  catalogue.delete(42);
  expect(catalogue.version).toBe(afterMove);
});

it('lists nodes whose metadata JSON cannot carry for reading back, and carries the rest exactly', () => {
  const catalogue = new NodeCatalogue();
  catalogue.set(
    record(1, 'viking://resources/plain', { meta: { tags: ['x', 1, null], deep: { ok: true } } }),
  );
  catalogue.set(record(2, 'viking://resources/dated', { meta: { at: new Date(5) } }));
  catalogue.set(record(3, 'viking://resources/undefined', { meta: { gone: undefined } }));
  catalogue.set(record(4, 'viking://resources/used', { lastUsedAt: 7 }));
  const { catalogue: copy, readBack } = NodeCatalogue.load(catalogue.serialize());
  expect(readBack.sort()).toEqual([2, 3]);
  expect(copy.size).toBe(2);
  expect(plain(copy.nodeByKey(1))).toEqual(catalogue.nodeByKey(1));
  expect(plain(copy.nodeByKey(4))).toEqual(catalogue.nodeByKey(4));
  expect(copy.nodeByKey(1)!.lastUsedAt).toBeUndefined();
  expect(copy.nodeByKey(1)!.meta).toEqual({ tags: ['x', 1, null], deep: { ok: true } });
});

it('refuses bytes it cannot have written with CORRUPT_INDEX', () => {
  const good = new NodeCatalogue();
  good.set(record(1, 'viking://resources/a', { meta: { tag: 'x' } }));
  good.set(record(2, 'viking://resources/b'));
  const bytes = good.serialize();
  const changed = (at: number, value: number) => {
    const copy = bytes.slice();
    copy[at] = value;
    return copy;
  };
  const text = new TextDecoder().decode(bytes);
  const swapped = new TextEncoder().encode(text.replace('resources/a', 'resources/c'));
  // The strings come last, after one byte of flags a node: this is node b's.
  const strings = [
    'resources/a',
    'abstract of viking://resources/a',
    '{"tag":"x"}',
    'resources/b',
    'abstract of viking://resources/b',
  ];
  const flagsAt = bytes.length - strings.join('').length - 2 * 'viking://'.length - 1;
  const bad = {
    empty: new Uint8Array(0),
    'another magic': changed(0, 0),
    'another format': changed(4, 9),
    truncated: bytes.subarray(0, bytes.length - 1),
    'URIs out of order': swapped,
    'an unknown context type': changed(flagsAt, bytes[flagsAt]! | 6),
    'metadata that is not an object': new TextEncoder().encode(text.replace('{"tag":"x"}', '["tag","x"]')),
  };
  for (const [what, input] of Object.entries(bad)) {
    const error = (() => {
      try {
        NodeCatalogue.load(input);
      } catch (e) {
        return e;
      }
    })();
    expect(error, what).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code, what).toBe('CORRUPT_INDEX');
  }
  // Metadata is parsed when first read: JSON that is not JSON fails then, with the same code.
  const unparsable = bytes.slice();
  unparsable.set(new TextEncoder().encode('{"tag":xxx}'), Buffer.from(bytes).indexOf('{"tag":"x"}'));
  const { catalogue: broken } = NodeCatalogue.load(unparsable);
  expect(() => broken.node('viking://resources/a')!.meta).toThrow(
    expect.objectContaining({ code: 'CORRUPT_INDEX' }),
  );
});

it('says what was replaced in place since a version, and nothing once anything else changed', () => {
  const catalogue = new NodeCatalogue();
  catalogue.set(record(1, 'viking://resources/a'));
  catalogue.set(record(2, 'viking://resources/b'));
  const start = catalogue.version;
  expect(catalogue.replacedSince(start)).toEqual([]);
  catalogue.set(record(1, 'viking://resources/a', { useCount: 1, lastUsedAt: 5 }));
  catalogue.set(record(2, 'viking://resources/b', { meta: { pinned: true } }));
  catalogue.set(record(1, 'viking://resources/a', { useCount: 2, lastUsedAt: 6 }));
  const replaced = catalogue.replacedSince(start)!;
  expect(replaced.map(({ old, node }) => [old.key, old.useCount, node.useCount])).toEqual([
    [1, 0, 1],
    [2, 0, 0],
    [1, 1, 2],
  ]);
  expect(catalogue.replacedSince(start + 2)!.map(({ node }) => node.useCount)).toEqual([2]);
  const beforeMove = catalogue.version;
  catalogue.set(record(2, 'viking://resources/c'));
  expect(catalogue.replacedSince(start)).toBeUndefined();
  expect(catalogue.replacedSince(beforeMove)).toBeUndefined();
  const afterMove = catalogue.version;
  catalogue.set(record(3, 'viking://resources/d'));
  expect(catalogue.replacedSince(afterMove)).toBeUndefined();
  const afterAdd = catalogue.version;
  catalogue.delete(3);
  expect(catalogue.replacedSince(afterAdd)).toBeUndefined();
  // A long run of replacements outgrows what is remembered.
  const longAgo = catalogue.version;
  for (let i = 0; i < 2000; i++) catalogue.set(record(1, 'viking://resources/a', { useCount: i }));
  expect(catalogue.replacedSince(longAgo)).toBeUndefined();
  expect(catalogue.replacedSince(catalogue.version - 10)).toHaveLength(10);
});

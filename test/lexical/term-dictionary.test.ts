import fc from 'fast-check';
import { expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import {
  checkPackedTerms,
  type PackedTerms,
  TermDictionary,
  tableLength,
} from '../../src/lexical/term-dictionary.js';

// Terms as the analyzer makes them: non-empty, no NUL; few letters, so lookups hit and collide, and
// some beyond ASCII, astral ones included.
const term = fc.string({
  unit: fc.constantFrom('a', 'b', 'é', 'ß', '東', '京', '𝔘', '1'),
  minLength: 1,
  maxLength: 6,
});

function corruptMessage(packed: PackedTerms): string | undefined {
  try {
    checkPackedTerms(packed);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('CORRUPT_INDEX');
    return (error as LongshipError).message;
  }
}

it('looks terms up as a Map does, made of strings, packed and loaded, and with terms added after the load', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(term, { maxLength: 60 }),
      fc.array(term, { maxLength: 30 }),
      fc.array(term, { maxLength: 30 }),
      (initial, later, probes) => {
        const model = new Map<string, number>();
        const built = TermDictionary.of();
        for (const t of initial) {
          expect(built.add(t)).toBe(model.size);
          model.set(t, model.size);
        }
        const packed = built.pack();
        expect(corruptMessage(packed)).toBeUndefined();
        const loaded = TermDictionary.packed(packed);
        // A loaded dictionary with nothing added packs to what it was loaded from.
        expect(loaded.pack()).toBe(packed);
        for (const t of later) {
          if (loaded.id(t) !== undefined) continue;
          expect(loaded.add(t)).toBe(model.size);
          model.set(t, model.size);
        }
        expect(loaded.size).toBe(model.size);
        for (const t of [...initial, ...later, ...probes]) expect(loaded.id(t)).toBe(model.get(t));
        expect(loaded.all()).toEqual([...model.keys()]);
        // Added after its terms were decoded, and packed again.
        const extra = `${probes.join('')}zz`;
        if (loaded.id(extra) === undefined) {
          expect(loaded.add(extra)).toBe(model.size);
          model.set(extra, model.size);
        }
        expect(loaded.all()).toEqual([...model.keys()]);
        const again = TermDictionary.packed(loaded.pack());
        for (const [t, id] of model) expect(again.id(t)).toBe(id);
        expect(again.all()).toEqual([...model.keys()]);
      },
    ),
  );
});

// A loaded dictionary packs its snapshot's bytes as they are, with the added terms after them: the
// result must be what a dictionary made of the same terms, in the same order, packs to.
it('packs a loaded dictionary with terms added, decoded or not, as one made of the same terms', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(term, { maxLength: 60 }),
      fc.uniqueArray(term, { maxLength: 30 }),
      fc.boolean(),
      (initial, later, decoded) => {
        const loaded = TermDictionary.packed(TermDictionary.of(initial).pack());
        if (decoded) loaded.all();
        for (const t of later) if (loaded.id(t) === undefined) loaded.add(t);
        const packed = loaded.pack();
        expect(packed).toEqual(TermDictionary.of([...new Set([...initial, ...later])]).pack());
        expect(corruptMessage(packed)).toBeUndefined();
      },
    ),
  );
});

it('finds a term listed twice wherever the table puts the two', () => {
  const { bytes, starts } = TermDictionary.of(['ab', 'cd']).pack();
  bytes.set(new TextEncoder().encode('ab'), starts[1]!);
  const messages = new Set<string>();
  const length = tableLength(2);
  for (let i = 0; i < length; i++) {
    for (let j = 0; j < length; j++) {
      if (i === j) continue;
      const table = new Uint32Array(length);
      table[i] = 1;
      table[j] = 2;
      const message = corruptMessage({ bytes, starts, table });
      expect(message).toMatch(/listed twice|not where the table puts it/);
      messages.add(message!.replace(/.*: /, ''));
    }
  }
  expect(messages).toContain('term 1 is listed twice.');
});

it('reads bytes that are not UTF-8 as CORRUPT_INDEX when it decodes them', () => {
  const packed = TermDictionary.of(['ab']).pack();
  packed.bytes[0] = 0xff;
  const loaded = TermDictionary.packed(packed);
  expect(() => loaded.all()).toThrow(/unreadable terms/);
});

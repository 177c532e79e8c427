import { describe, expect, it } from 'vitest';
import { parseTagged, stringifyTagged } from '../../../src/store/durable-object/tagged-json.js';

const roundTrip = <T>(value: T): T => parseTagged<T>(stringifyTagged(value));

describe('tagged JSON (node meta in a Durable Object store)', () => {
  it('keeps what structured clone keeps and JSON would lose', () => {
    const meta = {
      at: new Date(1234),
      tags: new Set(['a', 'b']),
      counts: new Map<unknown, unknown>([
        ['x', 1],
        [2, { deep: [undefined, Number.NaN] }],
      ]),
      pattern: /ab+c/gi,
      floats: new Float32Array([0.1, -2.5]),
      bytes: new Uint8Array([0, 255, 7]),
      buffer: new Uint8Array([9, 8]).buffer,
      big: 12345678901234567890n,
      edges: [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, null, 'text'],
      missing: undefined,
    };
    const back = roundTrip(meta);
    expect(back).toEqual(meta);
    expect(back.at).toBeInstanceOf(Date);
    expect(back.floats).toBeInstanceOf(Float32Array);
    expect(Object.is(back.edges[2], -0)).toBe(true);
    expect('missing' in back).toBe(true);
  });

  it('reads back a plain object that uses the tag key as the object it was', () => {
    const meta = { '\u0000': ['Date', 5], other: { '\u0000': 1 } };
    expect(roundTrip(meta)).toEqual(meta);
  });

  it('stores a view as its own bytes, and a subclass of Uint8Array as a Uint8Array', () => {
    const heap = new Float32Array([1, 2, 3, 4]);
    const back = roundTrip({ view: heap.subarray(1, 3), buffer: Buffer.from([1, 2]) });
    expect([...back.view]).toEqual([2, 3]);
    expect(back.view.buffer.byteLength).toBe(8);
    expect(back.buffer).toEqual(new Uint8Array([1, 2]));
  });
});

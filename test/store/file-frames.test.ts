import { describe, expect, it } from 'vitest';
import {
  FRAME_HEADER_BYTES,
  frames,
  intactFrameAfter,
  readFrames,
} from '../../src/store/file/file-frames.js';

const payloads = [1, 2, 3, 4, 5, 13, 100, 1027].map((length, i) =>
  new Uint8Array(length).map((_, j) => (i * 131 + j * 7) & 0xff),
);
const bytes = frames(payloads);
const ends: number[] = [];
for (let at = 0, i = 0; i < payloads.length; i++) {
  at += FRAME_HEADER_BYTES + Math.ceil(payloads[i]!.length / 4) * 4;
  ends.push(at);
}

describe('file frames', () => {
  it('read back what was written, in order', () => {
    expect(ends.at(-1)).toBe(bytes.length);
    const read = readFrames(bytes);
    expect(read.end).toBe(bytes.length);
    expect(read.payloads).toEqual(payloads);
  });

  it('cut anywhere, give the whole frames before the cut and nothing of the torn one', () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const whole = ends.filter((end) => end <= cut).length;
      const read = readFrames(bytes.subarray(0, cut));
      expect(read.payloads, `cut at ${cut}`).toEqual(payloads.slice(0, whole));
      expect(read.end).toBe(whole === 0 ? 0 : ends[whole - 1]);
    }
  });

  it('with any byte of a frame changed, end before that frame', () => {
    for (let at = 0; at < bytes.length; at++) {
      const frame = ends.findIndex((end) => at < end);
      const start = frame === 0 ? 0 : ends[frame - 1]!;
      // The padding after a payload is not summed: a change there changes nothing read.
      if (at >= start + FRAME_HEADER_BYTES + payloads[frame]!.length) continue;
      const damaged = bytes.slice();
      damaged[at] = damaged[at]! ^ 0x10;
      const read = readFrames(damaged);
      expect(read.payloads, `byte ${at}`).toEqual(payloads.slice(0, frame));
      expect(read.end).toBe(start);
    }
  });

  it('never take zeros for a frame, nor write an empty one', () => {
    expect(readFrames(new Uint8Array(64))).toEqual({ payloads: [], end: 0 });
    const withZeros = new Uint8Array(bytes.length + 64);
    withZeros.set(bytes);
    expect(readFrames(withZeros).end).toBe(bytes.length);
    expect(() => frames([new Uint8Array(0)])).toThrow(RangeError);
  });

  it('tell damage (a whole frame after the bad one) from a torn tail (none)', () => {
    for (let at = 0; at < bytes.length; at++) {
      const frame = ends.findIndex((end) => at < end);
      const start = frame === 0 ? 0 : ends[frame - 1]!;
      if (at >= start + FRAME_HEADER_BYTES + payloads[frame]!.length) continue;
      const damaged = bytes.slice();
      damaged[at] = damaged[at]! ^ 0x10;
      const { end } = readFrames(damaged);
      const next = frame + 1 < ends.length ? ends[frame] : undefined;
      expect(intactFrameAfter(damaged, end), `byte ${at}`).toBe(next);
    }
    const withZeros = new Uint8Array(bytes.length + 64);
    withZeros.set(bytes);
    expect(intactFrameAfter(withZeros, bytes.length)).toBeUndefined();
  });
});

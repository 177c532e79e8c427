// How a store call and its answer cross from Node to the Durable Object under test and back: JSON
// for the shape, and each Float32Array and Uint8Array as its exact bytes after it, so vectors and
// snapshots arrive bit for bit. `undefined` is kept (get() answers it where there is no record).

const F32 = '$f32';
const U8 = '$u8';
const UNDEFINED = '$undefined';

/** `value` as one frame: [JSON length][JSON][for each binary part: its length, its bytes]. */
export function encodeWire(value: unknown): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (v === undefined) return { [UNDEFINED]: 1 };
    if (v instanceof Float32Array || v instanceof Uint8Array) {
      parts.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      return { [v instanceof Float32Array ? F32 : U8]: parts.length - 1 };
    }
    return v;
  });
  const text = new TextEncoder().encode(json);
  const size = 4 + text.length + parts.reduce((sum, part) => sum + 4 + part.length, 0);
  const frame = new Uint8Array(size);
  const view = new DataView(frame.buffer);
  view.setUint32(0, text.length);
  frame.set(text, 4);
  let at = 4 + text.length;
  for (const part of parts) {
    view.setUint32(at, part.length);
    frame.set(part, at + 4);
    at += 4 + part.length;
  }
  return frame;
}

/** The value {@link encodeWire} framed; every typed array gets a buffer of its own. */
export function decodeWire<T>(frame: Uint8Array): T {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const length = view.getUint32(0);
  const json = new TextDecoder().decode(frame.subarray(4, 4 + length));
  const parts: Uint8Array[] = [];
  for (let at = 4 + length; at < frame.length; ) {
    const size = view.getUint32(at);
    parts.push(frame.slice(at + 4, at + 4 + size));
    at += 4 + size;
  }
  const revive = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map(revive);
    const record = value as Record<string, unknown>;
    if (UNDEFINED in record) return undefined;
    if (F32 in record) return new Float32Array(parts[record[F32] as number]!.buffer);
    if (U8 in record) return parts[record[U8] as number];
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, revive(v)]));
  };
  return revive(JSON.parse(json)) as T;
}

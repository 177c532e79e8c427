// Node meta is "anything structured-clonable" (store.ts), and SQL keeps text: JSON with a tag for
// each value JSON would lose (undefined, NaN, ±Infinity, -0, bigint, Date, RegExp, Map, Set, typed
// arrays, ArrayBuffer), so a node reads back as IndexedDB's structured clone would give it. A
// plain object that happens to use the tag key is itself tagged, so no stored value is misread.

import { LongshipError } from '../../errors.js';

const TAG = '\u0000';

type Tagged = { [TAG]: [string, unknown] };

const VIEWS = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
  DataView,
} as const;

function bytesToBase64(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(text);
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const tag = (type: string, payload: unknown = null): Tagged => ({ [TAG]: [type, payload] });

function encodeValue(value: unknown): unknown {
  if (value === undefined) return tag('undefined');
  if (typeof value === 'number') {
    if (Number.isNaN(value) || !Number.isFinite(value)) return tag('number', String(value));
    return Object.is(value, -0) ? tag('number', '-0') : value;
  }
  if (typeof value === 'bigint') return tag('bigint', value.toString());
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value instanceof Date) return tag('Date', value.getTime());
  if (value instanceof RegExp) return tag('RegExp', [value.source, value.flags]);
  if (value instanceof Map)
    return tag(
      'Map',
      [...value].map(([k, v]) => [encodeValue(k), encodeValue(v)]),
    );
  if (value instanceof Set) return tag('Set', [...value].map(encodeValue));
  if (value instanceof ArrayBuffer) return tag('ArrayBuffer', bytesToBase64(new Uint8Array(value)));
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    // A subclass (Node's Buffer) is stored as the view it extends, as structured clone does.
    const type = Object.entries(VIEWS).find(([, View]) => value instanceof View)?.[0] ?? 'Uint8Array';
    return tag(type, bytesToBase64(bytes));
  }
  const entries = Object.entries(value).map(([k, v]) => [k, encodeValue(v)] as const);
  if (Object.hasOwn(value, TAG)) return tag('Object', entries);
  return Object.fromEntries(entries);
}

function decodeTagged(type: string, payload: unknown): unknown {
  switch (type) {
    case 'undefined':
      return undefined;
    case 'number':
      return Number(payload);
    case 'bigint':
      return BigInt(payload as string);
    case 'Date':
      return new Date(payload as number);
    case 'RegExp': {
      const [source, flags] = payload as [string, string];
      return new RegExp(source, flags);
    }
    case 'Map':
      return new Map((payload as [unknown, unknown][]).map(([k, v]) => [decodeValue(k), decodeValue(v)]));
    case 'Set':
      return new Set((payload as unknown[]).map(decodeValue));
    case 'ArrayBuffer':
      return base64ToBytes(payload as string).buffer;
    case 'Object':
      return Object.fromEntries((payload as [string, unknown][]).map(([k, v]) => [k, decodeValue(v)]));
  }
  const View = VIEWS[type as keyof typeof VIEWS];
  if (!View) throw new LongshipError('STORE_ERROR', `a stored value has an unknown type ${type}`);
  const { buffer } = base64ToBytes(payload as string);
  if (View === DataView) return new DataView(buffer);
  return new (View as Float64ArrayConstructor)(buffer);
}

function decodeValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(decodeValue);
  if (Object.hasOwn(value, TAG)) {
    const [type, payload] = (value as Tagged)[TAG];
    return decodeTagged(type, payload);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeValue(v)]));
}

/**
 * `value` as JSON text that {@link parseTagged} turns back into an equal structured clone.
 *
 * @example
 * parseTagged(stringifyTagged({ at: new Date(0), tags: new Set(['a']) })); // the same, not strings
 */
export function stringifyTagged(value: unknown): string {
  return JSON.stringify(encodeValue(value));
}

/** The value {@link stringifyTagged} wrote. */
export function parseTagged<T>(text: string): T {
  return decodeValue(JSON.parse(text)) as T;
}

// What structured clone would damage between a page and its worker, and how it travels instead:
// an error keeps its class, code and cause, a URL its href; a function, an AbortSignal or an object
// left in the worker becomes a MessagePort that comlink serves (docs/guide/worker.md).

import * as Comlink from 'comlink';
import { type ErrorCode, LongshipError } from '../errors.js';
import type { Movable, Port } from '../web-types.js';
import type { RemoteName } from './remote-api.js';

/** The key that marks a value in wire form: structured clone keeps string keys, not symbols. */
export const MARK = '__longship';

/**
 * What travels as a port: a function; an AbortSignal, as a function that resolves with its reason
 * once it aborts; an object left in the worker, with the table's methods for its kind and its data.
 */
export type Served =
  | { [MARK]: 'fn'; port: Port }
  | { [MARK]: 'signal'; port: Port; aborted: boolean; reason: unknown }
  | ServedObject;

export type ServedObject = { [MARK]: RemoteName; port: Port; data: Record<string, unknown> };

interface WireError {
  [MARK]: 'error';
  name: string;
  message: string;
  stack: string | undefined;
  code: ErrorCode | undefined;
  cause: unknown;
}

/** Plain objects and arrays are walked; anything else is a leaf for structured clone. */
function isPlain(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

function walk(value: object, step: (item: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map(step);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, step(item)]));
}

/** `value` in wire form; `leaf` writes each other object and function in it (or keeps it). */
export function encode(value: unknown, leaf: (value: object) => unknown = (v) => v, depth = 0): unknown {
  if (value instanceof Error) return wireError(value, depth);
  if (value instanceof URL) return { [MARK]: 'url', href: value.href };
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value;
  const written = leaf(value);
  if (written !== value || depth >= 32 || !isPlain(value)) return written;
  return walk(value, (item) => encode(item, leaf, depth + 1));
}

/** The inverse of {@link encode}; `leaf` revives what travels as a port. */
export function decode(
  value: unknown,
  leaf: (served: Served) => unknown = () => undefined,
  depth = 0,
): unknown {
  if (!isPlain(value) || depth >= 32) return value;
  if (!(MARK in value)) return walk(value, (item) => decode(item, leaf, depth + 1));
  const marked = value as { [MARK]: string; href: string };
  if (marked[MARK] === 'error') return reviveError(marked as unknown as WireError);
  return marked[MARK] === 'url' ? new URL(marked.href) : leaf(value as Served);
}

const transferMarks = new WeakMap<object, Movable[]>();

/**
 * Marks `value` (an argument, or an object or array inside one) so that `transferables` move to
 * the worker instead of being copied. They are unusable in this thread afterwards.
 *
 * @example
 * const bytes = new Uint8Array(await file.arrayBuffer());
 * await longship.addResource(transfer(bytes, [bytes.buffer]), { name: file.name });
 */
export function transfer<T extends object>(value: T, transferables: Movable[]): T {
  transferMarks.set(value, transferables);
  return value;
}

/** What `value` asked to move with {@link transfer}. */
export function marksOf(value: object): Movable[] {
  return transferMarks.get(value) ?? [];
}

function wireError(error: Error, depth: number): WireError {
  const { name, message, stack, cause } = error;
  const code = error instanceof LongshipError ? error.code : undefined;
  const wired = depth < 4 ? cloned(encode(cause, undefined, depth + 1)) : undefined;
  return { [MARK]: 'error', name, message, stack, code, cause: wired };
}

/** A cause can be anything (a Response, a WASM status); what cannot be cloned travels as text. */
function cloned(cause: unknown): unknown {
  try {
    return structuredClone(cause);
  } catch {
    return String(cause);
  }
}

const errorClasses: Record<string, ErrorConstructor> = { TypeError, RangeError, SyntaxError, ReferenceError };

function reviveError({ name, message, stack, code, cause }: WireError): Error {
  const options = cause === undefined ? undefined : { cause: decode(cause) };
  const error =
    code !== undefined
      ? new LongshipError(code, message, options)
      : Object.assign(new (errorClasses[name] ?? Error)(message, options), { name });
  // The worker's stack says where it failed; the page's would only say where the reply arrived.
  if (stack !== undefined) error.stack = stack;
  return error;
}

/**
 * Installs comlink's handler for thrown values, for the realm (so both ends share it). Comlink's own
 * keeps only `message`, `name` and `stack`; this one keeps what {@link encode} keeps, so a
 * LongshipError arrives with its code and cause.
 */
export function registerThrowHandler(): void {
  Comlink.transferHandlers.set('throw', {
    canHandle: (value): value is { value: unknown } =>
      value instanceof Object &&
      Object.getOwnPropertySymbols(value).some((s) => s.description === 'Comlink.thrown'),
    serialize: ({ value }: { value: unknown }) => [encode(value), []],
    deserialize: (wire) => {
      throw decode(wire);
    },
  });
}

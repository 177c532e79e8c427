// What structured clone would damage between a page and its worker, and how it travels instead:
// an error keeps its class, code and cause, a URL its href; a function, an AbortSignal or an
// object left in the worker becomes a MessagePort that comlink serves (docs/guide/worker.md).

import * as Comlink from 'comlink';
import { type ErrorCode, LongshipError } from '../errors.js';
import type { Movable, Port } from '../web-types.js';
import type { RemoteName } from './remote-api.js';

/** The key that marks a value in wire form: structured clone keeps string keys, not symbols. */
export const MARK = '__longship';

/** What travels as a port that comlink serves. */
export type Served =
  /** A function: a page's callback, or one a worker's method returned. */
  | { [MARK]: 'fn'; port: Port }
  /** An AbortSignal: `port` serves a function that resolves with the reason once it aborts. */
  | { [MARK]: 'signal'; port: Port; aborted: boolean; reason?: unknown }
  /** An object left in the worker: the table's methods for its kind, and its data as it was. */
  | ServedObject;

export type ServedObject = { [MARK]: RemoteName; port: Port; data: Record<string, unknown> };

type Marked = { [MARK]: 'error'; error: WireError } | { [MARK]: 'url'; href: string } | Served;

export interface WireError {
  name: string;
  message: string;
  stack?: string;
  code?: ErrorCode;
  cause?: unknown;
}

/** Plain objects and arrays are walked; anything else is a leaf for structured clone. */
function isPlain(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

function walk(value: unknown, step: (item: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map(step);
  return Object.fromEntries(Object.entries(value as object).map(([key, item]) => [key, step(item)]));
}

/** Copies `value` in wire form; `leaf` writes every other object and function it meets (or keeps it). */
export function encode(value: unknown, leaf: (value: object) => unknown = (v) => v, depth = 0): unknown {
  if (value instanceof Error) return { [MARK]: 'error', error: wireError(value) };
  if (value instanceof URL) return { [MARK]: 'url', href: value.href };
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value;
  const written = leaf(value);
  if (written !== value || depth >= 32 || !isPlain(value)) return written;
  return walk(value, (item) => encode(item, leaf, depth + 1));
}

/** The inverse of {@link encode}; `leaf` revives the marks it does not know (functions, signals, objects). */
export function decode(
  value: unknown,
  leaf: (marked: Served) => unknown = () => undefined,
  depth = 0,
): unknown {
  if (isPlain(value) && MARK in value) {
    const marked = value as Marked;
    if (marked[MARK] === 'error') return reviveError(marked.error);
    return marked[MARK] === 'url' ? new URL(marked.href) : leaf(marked);
  }
  return depth < 32 && isPlain(value) ? walk(value, (item) => decode(item, leaf, depth + 1)) : value;
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

/** `wire`, told to comlink with what moves rather than copies. */
export function moving<T>(wire: T, moves: Set<Movable>): T {
  return moves.size > 0 ? Comlink.transfer(wire, [...moves] as Transferable[]) : wire;
}

function wireError(error: Error, depth = 0): WireError {
  const wire: WireError = { name: error.name, message: error.message };
  if (error.stack !== undefined) wire.stack = error.stack;
  if (error instanceof LongshipError) wire.code = error.code;
  if (error.cause !== undefined)
    wire.cause = depth < 4 ? wireCause(error.cause, depth + 1) : String(error.cause);
  return wire;
}

function wireCause(cause: unknown, depth: number): unknown {
  if (cause instanceof Error) return { [MARK]: 'error', error: wireError(cause, depth) };
  // A cause can be anything (a Response, a WASM status); what cannot be cloned is kept as text.
  try {
    return structuredClone(cause);
  } catch {
    return String(cause);
  }
}

const errorClasses: Record<string, ErrorConstructor> = { TypeError, RangeError, SyntaxError, ReferenceError };

function reviveError(wire: WireError): Error {
  const options = wire.cause === undefined ? undefined : { cause: decode(wire.cause) };
  const error =
    wire.code !== undefined
      ? new LongshipError(wire.code, wire.message, options)
      : Object.assign(new (errorClasses[wire.name] ?? Error)(wire.message, options), { name: wire.name });
  // The worker's stack says where it failed; the page's would only say where the reply arrived.
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}

/**
 * @internal Comlink's handler for thrown values keeps only `message`, `name` and `stack`; this one
 * keeps what {@link encode} keeps, so a LongshipError arrives with its code and cause. Not in the
 * package's declarations, which name no comlink type (docs/guide/package.md).
 */
export const throwHandler: Comlink.TransferHandler<{ value: unknown }, unknown> = {
  canHandle: (value): value is { value: unknown } =>
    typeof value === 'object' &&
    value !== null &&
    Object.getOwnPropertySymbols(value).some((symbol) => symbol.description === 'Comlink.thrown'),
  serialize: ({ value }) => [encode(value), []],
  deserialize: (wire) => {
    throw decode(wire);
  },
};

/** Installs {@link throwHandler} in comlink's registry (one for the realm, so both ends share it). */
export function registerThrowHandler(): void {
  Comlink.transferHandlers.set('throw', throwHandler as Comlink.TransferHandler<unknown, unknown>);
}

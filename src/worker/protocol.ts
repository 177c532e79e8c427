// What crosses between a page and the worker that hosts its Longship, besides comlink's own
// messages: the options a page sends, the shape of calls and replies, and how values that
// structured clone would damage are written on the wire. Both sides import this file; it imports
// no comlink at runtime, so the error handler below is registered by expose.ts and connect.ts.

import type { TransferHandler } from 'comlink';
import type { TransformersEmbedderOptions } from '../embed/transformers-embedder.js';
import { type ErrorCode, LongshipError } from '../errors.js';
import type { WasmModule } from '../web-types.js';
import type { RemoteName } from './remote-api.js';

/**
 * What a page tells the worker to open: plain data, since nothing else crosses a thread. Every URL
 * (a string or a `URL`, relative to the page or absolute) travels as an absolute string (see
 * `urlsForWorker`). An embedder that is not a transformers.js model, or a store of your own,
 * is chosen in a worker script of your own: see `exposeLongship` (`longship/worker`).
 */
export interface WorkerOptions {
  /** The IndexedDB database, and the name the tabs of an origin share it by. Default `'longship'`. */
  name?: string;
  /** Where the USearch `.wasm` is (a URL), or its bytes or compiled module. Default: next to the worker's module. */
  usearch?: string | URL | ArrayBuffer | ArrayBufferView | WasmModule;
  /** The on-device model the worker loads. Default: the bundled USE-lite, found next to the worker's module. */
  transformers?: TransformersEmbedderOptions;
}

/**
 * `options` with every URL in it as an absolute string. A `URL` object does not survive structured
 * clone, and a relative URL would be resolved in the worker against the worker's script, which a
 * bundler moves (to /assets/): so both are resolved here, against `base` (the page's address). Hub
 * model ids (`'Xenova/all-MiniLM-L6-v2'`) are not URLs and stay as they are.
 */
export function urlsForWorker(options: WorkerOptions, base?: string): WorkerOptions {
  const absolute = (url: string | URL): string => {
    if (url instanceof URL) return url.href;
    return base === undefined ? url : new URL(url, base).href;
  };
  const wire: WorkerOptions = { ...options };
  if (typeof wire.usearch === 'string' || wire.usearch instanceof URL) wire.usearch = absolute(wire.usearch);
  const transformers = options.transformers;
  if (transformers === undefined || typeof transformers !== 'object') return wire;
  const embedder: TransformersEmbedderOptions = { ...transformers };
  const { model, localModelPath, wasmPaths } = transformers;
  if (model instanceof URL || (typeof model === 'string' && /^\.{0,2}\//.test(model))) {
    embedder.model = absolute(model);
  } else if (model !== undefined && typeof model === 'object') {
    const folder = { ...model };
    if (folder.directory !== undefined) folder.directory = absolute(folder.directory);
    if (folder.files !== undefined && typeof folder.files === 'object') {
      folder.files = Object.fromEntries(
        Object.entries(folder.files).map(([name, file]) => [
          name,
          typeof file === 'string' || file instanceof URL ? absolute(file) : file,
        ]),
      );
    }
    embedder.model = folder;
  }
  if (localModelPath !== undefined) embedder.localModelPath = absolute(localModelPath);
  if (typeof wasmPaths === 'string' || wasmPaths instanceof URL) embedder.wasmPaths = absolute(wasmPaths);
  else if (wasmPaths !== undefined && typeof wasmPaths === 'object') {
    const { mjs, wasm } = wasmPaths;
    embedder.wasmPaths = {
      ...(mjs === undefined ? {} : { mjs: absolute(mjs) }),
      wasm: wasm instanceof WebAssembly.Module ? wasm : absolute(wasm),
    };
  }
  wire.transformers = embedder;
  return wire;
}

/** What the worker answers once it holds the store. */
export interface OpenedInfo {
  embedder: { id: string; dimensions: number };
  /** Whether the worker's store outlives it (IndexedDB, files), or lives in memory. */
  persistent: boolean;
}

/**
 * One method call. `target` 0 is the engine; another number is an object or function the worker
 * returned. `method` must be in the table (remote-api.ts) for the target's kind.
 */
export interface CallRequest {
  id: number;
  target: number;
  /** Undefined to call the target itself (a function handle). */
  method?: string;
  args: unknown[];
}

export type Reply =
  /**
   * A plain value, with its errors and URLs in wire form. A call on an object handle also brings
   * the object's data properties as they are now (a session's `messages`).
   */
  | { value: unknown; data?: Record<string, unknown> }
  /** A queued job (a promise with an id): its result comes from `job(id)`. */
  | { job: number }
  /** A function the method returned (an unsubscribe): call it through `call`, target `handle`. */
  | { handle: number; callable: true }
  /** An object the method returned (a session): its methods, those the table gives `object`, go through `call`. */
  | { handle: number; object: RemoteName; data: Record<string, unknown> };

/** The worker's side of a connection, as comlink exposes it. */
export interface HostApi {
  open(options: WorkerOptions, onWait?: () => void): Promise<OpenedInfo>;
  call(request: CallRequest, ...callbacks: Array<(...args: unknown[]) => unknown>): Promise<Reply>;
  job(id: number): Promise<unknown>;
  abort(callId: number, slot: number, reason: unknown): void;
  close(): Promise<void>;
}

/** The key that marks a wire-encoded value; structured clone keeps string keys, not symbols. */
export const MARK = '__longship';

export type Marked =
  | { [MARK]: 'fn'; slot: number }
  | { [MARK]: 'signal'; slot: number; aborted: boolean; reason?: unknown }
  | { [MARK]: 'url'; href: string }
  | { [MARK]: 'error'; error: WireError };

export interface WireError {
  name: string;
  message: string;
  stack?: string;
  code?: ErrorCode;
  cause?: unknown;
}

export function isMarked(value: unknown): value is Marked {
  return typeof value === 'object' && value !== null && MARK in value;
}

/** Plain objects and arrays are walked; anything else is a leaf for structured clone. */
export function isPlain(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const MAX_DEPTH = 32;

/**
 * Copies `value`, turning what structured clone would break into wire form: errors keep their
 * class and code, URLs their href; `leaf` may replace anything else (functions, signals).
 */
export function encode(value: unknown, leaf: (value: unknown) => unknown = (v) => v, depth = 0): unknown {
  if (value instanceof Error) return { [MARK]: 'error', error: wireError(value) };
  if (value instanceof URL) return { [MARK]: 'url', href: value.href };
  if (depth < MAX_DEPTH && isPlain(value)) {
    if (Array.isArray(value)) return value.map((item) => encode(item, leaf, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = encode(item, leaf, depth + 1);
    return copy;
  }
  return leaf(value);
}

/** The inverse of {@link encode}; `leaf` revives the marks it does not know (functions, signals). */
export function decode(
  value: unknown,
  leaf: (marked: Marked) => unknown = () => undefined,
  depth = 0,
): unknown {
  if (isMarked(value)) {
    if (value[MARK] === 'error') return reviveError(value.error);
    if (value[MARK] === 'url') return new URL(value.href);
    return leaf(value);
  }
  if (depth < MAX_DEPTH && isPlain(value)) {
    if (Array.isArray(value)) return value.map((item) => decode(item, leaf, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = decode(item, leaf, depth + 1);
    return copy;
  }
  return value;
}

/**
 * The buffers of the typed arrays and ArrayBuffers in a (wire-encoded) value that can move rather
 * than be copied: a view that spans its whole ArrayBuffer. A view into a larger buffer shares it
 * with whatever else lives there, so that buffer is copied instead.
 */
export function movableBuffers(value: unknown, found = new Set<ArrayBuffer>(), depth = 0): ArrayBuffer[] {
  if (value instanceof ArrayBuffer) found.add(value);
  else if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer;
    if (buffer instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === buffer.byteLength) {
      found.add(buffer);
    }
  } else if (depth < MAX_DEPTH && isPlain(value)) {
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
      movableBuffers(item, found, depth + 1);
    }
  }
  return [...found];
}

export function wireError(error: unknown, depth = 0): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
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
  if (cause === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof cause)) return cause;
  try {
    return structuredClone(cause);
  } catch {
    return String(cause);
  }
}

const errorClasses: Record<string, ErrorConstructor> = {
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
};

export function reviveError(wire: WireError): Error {
  const cause =
    isMarked(wire.cause) && wire.cause[MARK] === 'error' ? reviveError(wire.cause.error) : wire.cause;
  const options = wire.cause === undefined ? undefined : { cause };
  const error =
    wire.code !== undefined
      ? new LongshipError(wire.code, wire.message, options)
      : Object.assign(new (errorClasses[wire.name] ?? Error)(wire.message, options), {
          name: wire.name,
        });
  // The worker's stack says where it failed; the page's would only say where the reply arrived.
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}

/**
 * Replaces comlink's handler for thrown values, which keeps only `message`, `name` and `stack`:
 * a LongshipError arrives as a LongshipError with its code and cause.
 */
/** @internal Not in the package's declarations, which name no comlink type (docs/guide/package.md). */
export const throwHandler: TransferHandler<{ value: unknown }, { isError: boolean; value: unknown }> = {
  canHandle: (value): value is { value: unknown } =>
    typeof value === 'object' && value !== null && Object.getOwnPropertySymbols(value).some(isThrowMarker),
  serialize: ({ value }) => [
    value instanceof Error ? { isError: true, value: wireError(value) } : { isError: false, value },
    [],
  ],
  deserialize: (serialized) => {
    throw serialized.isError ? reviveError(serialized.value as WireError) : serialized.value;
  },
};

function isThrowMarker(symbol: symbol): boolean {
  return symbol.description === 'Comlink.thrown';
}

/** @internal Installs {@link throwHandler} in comlink's registry (shared by every connection in this realm). */
export function registerThrowHandler(handlers: Map<string, TransferHandler<unknown, unknown>>): void {
  if (handlers.get('throw') !== throwHandler) {
    handlers.set('throw', throwHandler as TransferHandler<unknown, unknown>);
  }
}

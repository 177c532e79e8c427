// The page's side: a proxy with the engine's methods, built from the list the worker sends, so a
// method added to Longship comes through without a change here. Its types are derived from
// Longship the same way.

import * as Comlink from 'comlink';
import type { Longship } from '../engine.js';
import { pageLocation } from '../env/runtime.js';
import { LongshipError } from '../errors.js';
import type { MessageEndpoint, Movable } from '../web-types.js';
import {
  type CallRequest,
  decode,
  encode,
  type HostApi,
  isPlain,
  MARK,
  type Reply,
  registerThrowHandler,
  urlsForWorker,
  type WorkerOptions,
} from './protocol.js';

// biome-ignore lint/suspicious/noExplicitAny: a method of any signature
type AnyFunction = (...args: any[]) => any;

type MethodKeys<T> = { [K in keyof T]-?: T[K] extends AnyFunction ? K : never }[keyof T] & string;

/** A queued job seen from the page: its result, and its queue id once the worker has queued it. */
export type RemoteJob<T> = Promise<T> & { readonly id: Promise<number> };

/** What a method's result becomes across the boundary. */
export type RemoteResult<R> = R extends PromiseLike<infer V> & { readonly id: number }
  ? RemoteJob<V>
  : R extends (...args: infer A) => infer B
    ? Promise<(...args: A) => Promise<Awaited<B>>>
    : Awaited<R> extends readonly unknown[]
      ? Promise<Awaited<R>>
      : Awaited<R> extends object
        ? [MethodKeys<Awaited<R>>] extends [never]
          ? Promise<Awaited<R>>
          : Promise<Remote<Awaited<R>>>
        : Promise<Awaited<R>>;

/**
 * An object in the worker: its methods, each returning a promise (or a {@link RemoteJob}), and its
 * data properties as of the last call on it.
 */
export type Remote<T> = {
  [K in MethodKeys<T>]: T[K] extends (...args: infer A) => infer R ? (...args: A) => RemoteResult<R> : never;
} & { readonly [K in Exclude<keyof T, MethodKeys<T>>]: T[K] };

/**
 * A Longship in a worker: every method of {@link Longship}, asynchronous, with `embedder`
 * describing the worker's model. `store` and `indexes` stay in the worker.
 */
export type RemoteLongship = Omit<
  Remote<Longship>,
  'close' | 'store' | 'indexes' | 'embedder' | 'persistent'
> & {
  readonly embedder: { readonly id: string; readonly dimensions: number };
  /** Whether the worker's store outlives it (IndexedDB, files), or lives in memory. */
  readonly persistent: boolean;
  /** Closes this page's connection; the engine closes with the last one, and a worker this page started ends. */
  close(): Promise<void>;
};

export interface ConnectOptions extends WorkerOptions {
  /** Another tab's worker holds the store; this one waits until it lets go. */
  onWait?: () => void;
  /** Gives up opening (waiting for another tab, loading the model): rejects with `ABORTED`. */
  signal?: AbortSignal;
  /** Rejects when the worker is gone (failed to load, terminated): everything pending fails with it. */
  lost?: Promise<never>;
  /** Runs after close() (or a failed open): ends the worker or closes the port. */
  dispose?: () => void;
}

const transferMarks = new WeakMap<object, Transferable[]>();

/**
 * Marks `value` (an argument, or an object or array inside one) so that `transferables` move to
 * the worker instead of being copied. They are unusable in this thread afterwards.
 *
 * @example
 * const bytes = new Uint8Array(await file.arrayBuffer());
 * await longship.addResource(transfer(bytes, [bytes.buffer]), { name: file.name });
 */
export function transfer<T extends object>(value: T, transferables: Movable[]): T {
  transferMarks.set(value, transferables as Transferable[]);
  return value;
}

/**
 * Connects to a worker that runs `exposeLongship` (`longship/worker`) over `endpoint` and opens its engine.
 * {@link createLongship} starts the worker and calls this; call it yourself for a transport of your own.
 *
 * @example
 * const { port1, port2 } = new MessageChannel();
 * createLongshipHost({ open }).connect(port1);
 * const longship = await connectLongship(port2);
 */
export async function connectLongship(
  endpoint: MessageEndpoint,
  options: ConnectOptions = {},
): Promise<RemoteLongship> {
  registerThrowHandler(Comlink.transferHandlers);
  const { onWait, lost, dispose, signal, ...workerOptions } = options;
  const host = Comlink.wrap<HostApi>(endpoint as Comlink.Endpoint);
  lost?.catch(() => {});
  // After close() no reply can arrive (the port is let go): what is still pending fails then.
  let hangUp: (error: LongshipError) => void = () => {};
  const hungUp = new Promise<never>((_, reject) => {
    hangUp = reject;
  });
  hungUp.catch(() => {});
  const race = <T>(promise: Promise<T>): Promise<T> =>
    Promise.race([promise, hungUp, ...(lost ? [lost] : [])]);
  let closed = false;
  let nextCall = 1;

  const invoke = (target: number, method: string | undefined, args: unknown[]): Promise<unknown> => {
    if (closed) return Promise.reject(new LongshipError('STORE_CLOSED', 'this Longship was closed'));
    const id = nextCall++;
    const callbacks: AnyFunction[] = [];
    const signals: AbortSignal[] = [];
    const wire = encode(args, (leaf) => {
      if (typeof leaf === 'function') {
        const proxied = async (...a: unknown[]) => encode(await leaf(...a.map((x) => decode(x))));
        const slot = callbacks.push(Comlink.proxy(proxied)) - 1;
        return { [MARK]: 'fn', slot };
      }
      if (typeof AbortSignal !== 'undefined' && leaf instanceof AbortSignal) {
        const slot = signals.push(leaf) - 1;
        return {
          [MARK]: 'signal',
          slot,
          aborted: leaf.aborted,
          reason: leaf.aborted ? encode(leaf.reason) : undefined,
        };
      }
      return leaf;
    }) as unknown[];
    const request: CallRequest = { id, target, args: wire, ...(method === undefined ? {} : { method }) };
    const unwatch = watchSignals(signals, (slot, reason) => {
      if (!closed) void host.abort(id, slot, encode(reason)).catch(() => {});
    });
    const reply = race(host.call(Comlink.transfer(request, marked(args)), ...callbacks) as Promise<Reply>);
    let jobId: Promise<number> | undefined;
    const result = reply
      .then((answer: Reply): unknown => {
        if ('job' in answer) {
          // Like the engine's QueuedJob: a failure nobody listens to is not an unhandled rejection.
          result.catch(() => {});
          return race(host.job(answer.job)).then((r) => decode((r as { value: unknown }).value));
        }
        if ('callable' in answer) return (...a: unknown[]) => invoke(answer.handle, undefined, a);
        if ('methods' in answer) return proxyOf(answer.handle, answer.methods, answer.data);
        if (answer.data) Object.assign(proxies.get(target) ?? {}, decode(answer.data));
        return decode(answer.value);
      })
      .finally(() => {
        unwatch();
        // The worker lets go of an object once its close() is over (expose.ts); so does this side.
        if (method === 'close') proxies.delete(target);
      });
    // Every call's promise has it; only a method that returns a QueuedJob says so in its type.
    Object.defineProperty(result, 'id', {
      get: () => {
        if (!jobId) {
          jobId = reply.then((answer) => ('job' in answer ? answer.job : Number.NaN));
          jobId.catch(() => {});
        }
        return jobId;
      },
    });
    return result;
  };

  /** The objects made for handles, by handle: their data is refreshed by each call on them. */
  const proxies = new Map<number, Record<string, unknown>>();
  const proxyOf = (target: number, methods: string[], data: Record<string, unknown> = {}) => {
    const proxy: Record<string, unknown> = decode(data) as Record<string, unknown>;
    for (const name of methods) proxy[name] = (...args: unknown[]) => invoke(target, name, args);
    if (target !== 0) proxies.set(target, proxy);
    return proxy;
  };

  let info: Awaited<ReturnType<HostApi['open']>>;
  const stop = signal && abortion(signal);
  try {
    info = await Promise.race([
      race(
        host.open(
          encode(urlsForWorker(workerOptions, pageAddress())) as WorkerOptions,
          onWait && Comlink.proxy(() => onWait()),
        ),
      ),
      ...(stop ? [stop.promise] : []),
    ]);
  } catch (error) {
    closed = true;
    host[Comlink.releaseProxy]();
    dispose?.();
    throw error;
  } finally {
    stop?.done();
  }
  const longship = proxyOf(0, info.methods);
  return Object.assign(longship, {
    embedder: Object.freeze({ ...info.embedder }),
    persistent: info.persistent,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await race(host.close());
      } finally {
        hangUp(new LongshipError('STORE_CLOSED', 'this Longship was closed before the call finished'));
        host[Comlink.releaseProxy]();
        dispose?.();
      }
    },
  }) as unknown as RemoteLongship;
}

/** Where relative URLs in the options point from: the page (or worker) that connects, if any. */
function pageAddress(): string | undefined {
  return pageLocation()?.href;
}

/** A promise that rejects with `ABORTED` when `signal` fires, and `done` to stop listening. */
function abortion(signal: AbortSignal): { promise: Promise<never>; done: () => void } {
  let done = () => {};
  const promise = new Promise<never>((_, reject) => {
    const fail = () =>
      reject(new LongshipError('ABORTED', 'opening Longship was aborted', { cause: signal.reason }));
    if (signal.aborted) return fail();
    signal.addEventListener('abort', fail, { once: true });
    done = () => signal.removeEventListener('abort', fail);
  });
  promise.catch(() => {});
  return { promise, done };
}

/** Listens to each signal; returns the function that stops listening. */
function watchSignals(signals: AbortSignal[], onAbort: (slot: number, reason: unknown) => void): () => void {
  const stops = signals.map((signal, slot) => {
    const listener = () => onAbort(slot, signal.reason);
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  });
  return () => {
    for (const stop of stops) stop();
  };
}

/** The transferables of the values marked with {@link transfer}, anywhere in `value`'s plain objects and arrays. */
function marked(value: unknown, found: Transferable[] = [], depth = 0): Transferable[] {
  if (typeof value !== 'object' || value === null) return found;
  const marks = transferMarks.get(value);
  if (marks) found.push(...marks.filter((m) => !found.includes(m)));
  if (depth < 32 && isPlain(value)) {
    for (const item of Array.isArray(value) ? value : Object.values(value)) marked(item, found, depth + 1);
  }
  return found;
}

// The page's side: proxies with the methods the worker serves, built from the table both sides
// share (remote-api.ts), as their types are (remote-types.ts).

import * as Comlink from 'comlink';
import { LongshipError } from '../errors.js';
import type { MessageEndpoint } from '../web-types.js';
import { transferablesIn, watchSignals, wireArgs } from './call-args.js';
import {
  type CallRequest,
  decode,
  encode,
  type HostApi,
  type Reply,
  registerThrowHandler,
  urlsForWorker,
  type WorkerOptions,
} from './protocol.js';
import { type RemoteName, remoteMethods } from './remote-api.js';
import type { RemoteLongship } from './remote-types.js';

export { transfer } from './call-args.js';
export type { Remote, RemoteJob, RemoteLongship, RemoteResult } from './remote-types.js';

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

/**
 * Connects to a worker that runs {@link exposeLongship} over `endpoint` and opens its engine.
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
    const { wire, callbacks, signals } = wireArgs(args);
    const request: CallRequest = { id, target, args: wire, ...(method === undefined ? {} : { method }) };
    const unwatch = watchSignals(signals, (slot, reason) => {
      if (!closed) void host.abort(id, slot, encode(reason)).catch(() => {});
    });
    const reply = race(
      host.call(
        Comlink.transfer(request, transferablesIn(args) as Transferable[]),
        ...callbacks,
      ) as Promise<Reply>,
    );
    let jobId: Promise<number> | undefined;
    const result = reply
      .then((answer: Reply): unknown => {
        if ('job' in answer) {
          // Like the engine's QueuedJob: a failure nobody listens to is not an unhandled rejection.
          result.catch(() => {});
          return race(host.job(answer.job)).then((r) => decode((r as { value: unknown }).value));
        }
        if ('callable' in answer) return (...a: unknown[]) => invoke(answer.handle, undefined, a);
        if ('object' in answer) return proxyOf(answer.handle, answer.object, answer.data);
        if (answer.data) Object.assign(proxies.get(target) ?? {}, decode(answer.data));
        return decode(answer.value);
      })
      .finally(unwatch);
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
  const proxyOf = (target: number, object: RemoteName, data: Record<string, unknown> = {}) => {
    const proxy: Record<string, unknown> = decode(data) as Record<string, unknown>;
    for (const name of remoteMethods(object))
      proxy[name] = (...args: unknown[]) => invoke(target, name, args);
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
  const longship = proxyOf(0, 'longship');
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
  return (globalThis as { location?: { href: string } }).location?.href;
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

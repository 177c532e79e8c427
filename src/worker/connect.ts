// The page's side: proxies with the methods the worker serves, built from the table both sides
// share (remote-api.ts), as their types are (remote-types.ts).

import * as Comlink from 'comlink';
import { pageLocation } from '../env/runtime.js';
import { LongshipError } from '../errors.js';
import type { MessageEndpoint, Movable } from '../web-types.js';
import { remoteMethod, remoteMethods } from './remote-api.js';
import type { RemoteLongship } from './remote-types.js';
import { asFunction, serve } from './serve.js';
import {
  decode,
  encode,
  MARK,
  marksOf,
  moving,
  registerThrowHandler,
  type Served,
  type ServedObject,
} from './wire.js';
import { urlsForWorker, type WorkerOptions } from './worker-options.js';

export type { Remote, RemoteJob, RemoteLongship, RemoteResult } from './remote-types.js';
export { transfer } from './wire.js';

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

type Fn = (...args: unknown[]) => Promise<unknown>;

/**
 * Connects to a worker that runs `exposeLongship` (`longship/worker`) over `endpoint` and opens its engine.
 * {@link openLongshipInWorker} starts the worker and calls this; call it yourself for a transport of your own.
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
  registerThrowHandler();
  const { onWait, lost, dispose, signal, ...workerOptions } = options;
  const root = Comlink.wrap<{ open: Fn; close: Fn }>(endpoint as Comlink.Endpoint);
  /** What the worker sent that this page holds: let go of on close. */
  const remotes = new Set<Comlink.Remote<unknown>>([root]);
  lost?.catch(() => {});
  // After close() no reply can arrive (the port is let go): what is still pending fails then.
  let hangUp: (error: LongshipError) => void = () => {};
  const hungUp = new Promise<never>((_, reject) => {
    hangUp = reject;
  });
  hungUp.catch(() => {});
  let closed = false;

  /** Calls what `remote` names (comlink lets go of it on close) with `args` in wire form. */
  const invoke = (remote: () => Fn, args: unknown[]): Promise<unknown> => {
    if (closed) return Promise.reject(new LongshipError('STORE_CLOSED', 'this Longship was closed'));
    const moves = new Set<Movable>();
    const wire = encode(args, (value) => send(value, moves));
    const reply = remote()(moving(wire, moves));
    return Promise.race([reply, hungUp, ...(lost ? [lost] : [])]).then((value) => decode(value, revive));
  };

  /** What the worker sent: a function it returned (called once), an object from the table. */
  const revive = (marked: Served): unknown => {
    const remote = Comlink.wrap<Fn & Record<string, Fn>>(marked.port as Comlink.Endpoint);
    remotes.add(remote);
    if (marked[MARK] !== 'fn') return proxyOf(marked as ServedObject, remote);
    let called = false;
    return (...args: unknown[]) => {
      if (called) return Promise.reject(new LongshipError('NOT_FOUND', 'this function was already called'));
      called = true;
      return invoke(() => remote, args).finally(() => {
        if (remotes.delete(remote)) remote[Comlink.releaseProxy]();
      });
    };
  };

  const proxyOf = ({ [MARK]: name, data }: ServedObject, remote: Record<string, Fn>) => {
    const proxy = decode(data) as Record<string, unknown>;
    for (const method of remoteMethods(name)) {
      proxy[method] = (...args: unknown[]) => {
        if (remoteMethod(name, method) !== 'job') return invoke(() => remote[method]!, args);
        // A job's id comes first, to a last argument of its own; its result is the reply.
        let heard: (id: number) => void = () => {};
        const told = new Promise<number>((resolve) => {
          heard = resolve;
        });
        const result = invoke(() => remote[method]!, [...args, (id: number) => heard(id)]);
        const id = Promise.race([told, result.then(() => Number.NaN)]);
        // Like the engine's QueuedJob: a failure nobody listens to is not an unhandled rejection.
        result.catch(() => {});
        id.catch(() => {});
        return Object.assign(result, { id });
      };
    }
    return proxy;
  };

  let opened: { embedder: RemoteLongship['embedder']; persistent: boolean; longship: object };
  const stop = signal && abortion(signal);
  try {
    const options = urlsForWorker(workerOptions, pageLocation()?.href);
    const opening = invoke(() => root.open, [options, onWait && (() => onWait())]);
    opened = (await Promise.race([opening, ...(stop ? [stop.promise] : [])])) as typeof opened;
  } catch (error) {
    closed = true;
    root[Comlink.releaseProxy]();
    dispose?.();
    throw error;
  } finally {
    stop?.done();
  }
  return Object.assign(opened.longship, {
    embedder: Object.freeze({ ...opened.embedder }),
    persistent: opened.persistent,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await Promise.race([root.close(), ...(lost ? [lost] : [])]);
      } finally {
        hangUp(new LongshipError('STORE_CLOSED', 'this Longship was closed before the call finished'));
        for (const remote of remotes) remote[Comlink.releaseProxy]();
        remotes.clear();
        dispose?.();
      }
    },
  }) as unknown as RemoteLongship;
}

/**
 * A page's function or AbortSignal in the arguments, served on a port of its own until the worker
 * lets go of it (when the call is over); and what asked to move with `transfer()`.
 */
function send(value: object, moves: Set<Movable>): unknown {
  for (const movable of marksOf(value)) moves.add(movable);
  let port: MessageEndpoint;
  if (typeof value === 'function') {
    const fn = value as (...args: unknown[]) => unknown;
    port = serve(async (wire: unknown) => encode(await fn(...(decode(wire) as unknown[]))), asFunction);
    moves.add(port);
    return { [MARK]: 'fn', port };
  }
  if (!(value instanceof AbortSignal)) return value;
  let stop = () => {};
  const aborted = new Promise((resolve) => {
    const listener = () => resolve(encode(value.reason));
    value.addEventListener('abort', listener, { once: true });
    stop = () => value.removeEventListener('abort', listener);
  });
  port = serve(
    Object.assign(() => aborted, { [Comlink.finalizer]: stop }),
    asFunction,
  );
  moves.add(port);
  return { [MARK]: 'signal', port, aborted: value.aborted, reason: encode(value.reason) };
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

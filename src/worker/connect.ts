// The page's side: proxies with the methods the worker serves, built from the table both sides
// share (remote-api.ts), as their types are (remote-types.ts).

import * as Comlink from 'comlink';
import { pageLocation } from '../env/runtime.js';
import { LongshipError } from '../errors.js';
import { fileListEntries, isWebFileList } from '../ingest/browser-files.js';
import type { MessageEndpoint, Movable } from '../web-types.js';
import { type RemoteJob, type RemoteLongship, remoteMethods } from './remote-api.js';
import { asFunction, serve } from './serve.js';
import { decode, encode, MARK, marksOf, registerThrowHandler, type ServedObject } from './wire.js';
import { urlsForWorker, type WorkerOptions } from './worker-options.js';

export type { RemoteJob, RemoteLongship, RemoteResult, RemoteSession } from './remote-api.js';
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
  const root = Comlink.wrap<Record<string, Fn>>(endpoint as Comlink.Endpoint);
  /** What the worker sent that this page holds, let go of on close. */
  const remotes = new Set<Comlink.Remote<unknown>>([root]);
  // Pending calls fail when the worker is lost, when opening is aborted, or when close() lets go.
  let hangUp: (error: LongshipError) => void = () => {};
  const gone = new Promise<never>((_, reject) => {
    hangUp = reject;
    lost?.catch(reject);
  });
  gone.catch(() => {});

  /** Calls `remote` (looked up only while open) with `args` in wire form, and reads the reply. */
  const invoke = async (remote: () => Fn, args: unknown[]): Promise<unknown> => {
    if (!remotes.has(root)) throw new LongshipError('STORE_CLOSED', 'this Longship was closed');
    const moves = new Set<Movable>();
    const wire = encode(args, (value) => lend(value, moves));
    const reply = await Promise.race([remote()(Comlink.transfer(wire, [...moves] as Transferable[])), gone]);
    return decode(reply, (served) => {
      const port = Comlink.wrap<Fn & Record<string, Fn>>(served.port as Comlink.Endpoint);
      remotes.add(port);
      if (served[MARK] === 'fn') return (...a: unknown[]) => invoke(() => port, a);
      return proxyOf(served as ServedObject, port);
    });
  };

  const proxyOf = ({ [MARK]: name, data }: ServedObject, remote: Record<string, Fn>) => {
    const proxy = decode(data) as Record<string, unknown>;
    for (const [method, returns] of remoteMethods(name)) {
      const call = (args: unknown[]) => invoke(() => remote[method]!, args);
      proxy[method] = (...args: unknown[]) => (returns === 'job' ? job(call, args) : call(args));
    }
    return proxy;
  };

  const close = () => {
    hangUp(new LongshipError('STORE_CLOSED', 'this Longship was closed before the call finished'));
    for (const remote of remotes) remote[Comlink.releaseProxy]();
    remotes.clear();
    dispose?.();
  };
  const abort = () =>
    hangUp(new LongshipError('ABORTED', 'opening Longship was aborted', { cause: signal?.reason }));
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort);
  const sent = urlsForWorker(workerOptions, pageLocation()?.href);
  const opening = invoke(() => root.open!, [sent, onWait && (() => onWait())]);
  const opened = (await opening
    .catch((error: unknown) => {
      close();
      throw error;
    })
    .finally(() => signal?.removeEventListener('abort', abort))) as { longship: object };
  return Object.assign(opened.longship, {
    async close() {
      if (!remotes.has(root)) return;
      await Promise.race([root.close!(), gone]).finally(close);
    },
  }) as unknown as RemoteLongship;
}

/** A queued job: its id comes first, to a last argument of its own; its result is the reply. */
function job(call: (args: unknown[]) => Promise<unknown>, args: unknown[]): RemoteJob<unknown> {
  let result: Promise<unknown> = Promise.resolve();
  const id = new Promise<number>((resolve, reject) => {
    result = call([...args, resolve]);
    result.catch(reject);
  });
  // Like the engine's QueuedJob: a failure nobody listens to is not an unhandled rejection.
  for (const promise of [result, id]) promise.catch(() => {});
  return Object.assign(result, { id });
}

/**
 * A page's function or AbortSignal in the arguments, served on a port of its own until the worker
 * lets go of it (when the call is over); and what asked to move with `transfer()`. A FileList
 * crosses as its folder entries: structured clone copies Files by reference, not every browser
 * keeps their `webkitRelativePath`, and not every one clones a FileList.
 */
function lend(value: object, moves: Set<Movable>): unknown {
  for (const movable of marksOf(value)) moves.add(movable);
  if (isWebFileList(value)) return fileListEntries(value);
  if (typeof value === 'function') {
    const fn = value as Fn;
    const port = serve(async (wire: unknown) => encode(await fn(...(decode(wire) as unknown[]))), asFunction);
    moves.add(port);
    return { [MARK]: 'fn', port };
  }
  if (!(value instanceof AbortSignal)) return value;
  const listening = new AbortController();
  const reason = new Promise((resolve) => {
    value.addEventListener('abort', () => resolve(encode(value.reason)), { signal: listening.signal });
  });
  const port = serve(
    Object.assign(() => reason, { [Comlink.finalizer]: () => listening.abort() }),
    asFunction,
  );
  moves.add(port);
  return { [MARK]: 'signal', port, aborted: value.aborted, reason: encode(value.reason) };
}

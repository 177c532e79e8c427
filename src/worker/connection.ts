// One page's connection to the worker's engine: `open` and `close`, what its calls returned (the
// engine, a session, an unsubscribe: each served on a port of its own), and the callbacks it lent.

import * as Comlink from 'comlink';
import { LongshipError } from '../errors.js';
import type { Movable } from '../web-types.js';
import type { EngineSlot } from './expose.js';
import { type RemoteName, type Returns, remoteApi, remoteMethod, remoteMethods } from './remote-api.js';
import { asFunction, serve } from './serve.js';
import { decode, encode, MARK, moving, type Served } from './wire.js';
import type { WorkerOptions } from './worker-options.js';

type Fn = (...args: unknown[]) => unknown;

/** The page's functions one call was lent, let go of together, and their answers still on the way. */
interface Lent {
  remotes: Comlink.Remote<Fn>[];
  pending: Set<Promise<unknown>>;
  released: boolean;
}

/** What the page calls first and last; like every call, each takes one array of arguments. */
export function openConnection(engine: EngineSlot): { open: Fn; close: Fn } {
  let state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  const calls = new Set<Lent>();

  const release = (lent: Lent) => {
    calls.delete(lent);
    lent.released = true;
    for (const remote of lent.remotes) remote[Comlink.releaseProxy]();
  };

  /**
   * Runs `run` on the call's arguments and answers with its result in wire form, once the call's
   * callbacks have all run on the page (they travel on ports of their own). A job first tells its
   * id to the last argument, a function of the page's.
   */
  const call = async (wire: unknown, returns: Returns, run: Fn): Promise<unknown> => {
    if (state === 'closed') throw new LongshipError('STORE_CLOSED', 'this Longship was closed');
    if (!Array.isArray(wire))
      throw new LongshipError('INVALID_ARGUMENT', 'a call takes an array of arguments');
    const lent: Lent = { remotes: [], pending: new Set(), released: false };
    calls.add(lent);
    let kept = false;
    try {
      const args = decode(wire, (served) => revive(served, lent)) as unknown[];
      const onId = returns === 'job' ? args.pop() : undefined;
      const result = run(...args);
      if (typeof onId === 'function') onId((result as { id?: unknown }).id);
      const value = await result;
      while (lent.pending.size > 0 && !lent.released) await Promise.allSettled([...lent.pending]);
      if (returns === 'value' || returns === 'job') return reply(value);
      if (returns !== 'function') return reply(object(returns, value as object));
      // An unsubscribe: it keeps the call's callbacks until it is called, and a second call finds nothing.
      kept = true;
      const once = (...a: unknown[]) => {
        if (lent.released) throw new LongshipError('NOT_FOUND', 'this function was already called');
        release(lent);
        return (value as Fn)(...a);
      };
      return reply({ [MARK]: 'fn', port: serve((w: unknown) => call(w, 'value', once), asFunction) });
    } finally {
      if (!kept) release(lent);
    }
  };

  /** `value` (the engine, a session), served with the table's methods for `name`, and its data. */
  const object = (name: RemoteName, value: object, data?: Record<string, unknown>): Served => {
    const target = value as Record<string, Fn>;
    const methods = [...remoteMethods(name)].map(([method, returns]) => {
      const run = (...args: unknown[]) => target[method]!(...args);
      return [method, (wire: unknown) => call(wire, returns, run)];
    });
    const allow = (path: unknown[]) => remoteMethod(name, path.length === 1 ? path[0] : path.join('.'));
    data ??= Object.fromEntries(remoteApi[name].data.map((key) => [key, target[key]]));
    return { [MARK]: name, data, port: serve(Object.fromEntries(methods), allow) };
  };

  return {
    open: (wire: unknown) =>
      call(wire, 'value', async (options, onWait) => {
        if (state !== 'new') throw new LongshipError('INVALID_ARGUMENT', 'this connection is already open');
        state = 'opening';
        const heard = typeof onWait === 'function' ? () => void onWait() : undefined;
        const longship = await engine.join((options ?? {}) as WorkerOptions, heard);
        if ((state as string) === 'closed') {
          await engine.leave();
          throw new LongshipError('STORE_CLOSED', 'closed while opening');
        }
        state = 'open';
        const { id, dimensions } = longship.embedder;
        const data = { embedder: { id, dimensions }, persistent: longship.persistent };
        return { longship: object('longship', longship, data) };
      }),
    close: async () => {
      const wasOpen = state === 'open';
      state = 'closed';
      for (const lent of calls) release(lent);
      if (wasOpen) await engine.leave();
    },
  };
}

/** A page's function or AbortSignal, from its mark in the arguments, lent for the call. */
function revive(served: Served, lent: Lent): unknown {
  if (served[MARK] !== 'fn' && served[MARK] !== 'signal') return undefined;
  const remote = Comlink.wrap<Fn>(served.port as Comlink.Endpoint);
  lent.remotes.push(remote);
  if (served[MARK] === 'signal') {
    const controller = new AbortController();
    if (served.aborted) controller.abort(decode(served.reason));
    else
      remote().then(
        (reason) => controller.abort(decode(reason)),
        () => {},
      );
    return controller.signal;
  }
  // The engine never waits on a listener (a page that is gone or slow must not hold it up); a
  // caller that wants the answer gets a promise of it.
  return (...args: unknown[]) => {
    if (lent.released) return undefined;
    const answer = remote(encode(args)).then((value) => decode(value));
    const settled = () => lent.pending.delete(answer);
    lent.pending.add(answer);
    answer.then(settled, settled);
    return answer;
  };
}

/** A reply in wire form, its buffers and ports moved: the engine made them for this caller. */
function reply(value: unknown): unknown {
  const moves = new Set<Movable>();
  const wire = encode(value, (leaf) => {
    if (leaf instanceof ArrayBuffer || leaf instanceof MessagePort) moves.add(leaf);
    // A view into a larger buffer shares it with whatever else lives there: that one is copied.
    const whole = ArrayBuffer.isView(leaf) && leaf.byteLength === leaf.buffer.byteLength;
    if (whole && leaf.buffer instanceof ArrayBuffer) moves.add(leaf.buffer);
    return leaf;
  });
  return moving(wire, moves);
}

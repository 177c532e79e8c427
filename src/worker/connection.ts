// One page's connection to the worker's engine: `open` and `close`, the objects and functions its
// calls returned (each served on a port of its own), and the page's callbacks each call holds.

import * as Comlink from 'comlink';
import { LongshipError } from '../errors.js';
import type { Movable, Port } from '../web-types.js';
import type { EngineSlot } from './engine-slot.js';
import { type RemoteName, type Returns, remoteApi, remoteMethod, remoteMethods } from './remote-api.js';
import { type Allow, asFunction, serve } from './serve.js';
import { decode, encode, MARK, moving, type Served } from './wire.js';
import type { WorkerOptions } from './worker-options.js';

type Fn = (...args: unknown[]) => unknown;

/** What one call holds until it is over: the page's callbacks, and their answers still on the way. */
interface Call {
  remotes: Comlink.Remote<Fn>[];
  pending: Set<Promise<unknown>>;
  released: boolean;
}

export class Connection {
  readonly #engine: EngineSlot;
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  /** The served ends of what this page was sent; closed with the connection. */
  readonly #ports = new Set<Port>();
  readonly #calls = new Set<Call>();

  /** What the page's comlink calls; each takes its arguments as one array in wire form. */
  readonly root = {
    open: (wire: unknown) => this.#run(wire, 'value', (options, onWait) => this.#open(options, onWait)),
    close: () => this.#close(),
  };

  constructor(engine: EngineSlot) {
    this.#engine = engine;
  }

  async #open(options: unknown, onWait: unknown): Promise<unknown> {
    if (this.#state !== 'new') throw new LongshipError('INVALID_ARGUMENT', 'this connection is already open');
    this.#state = 'opening';
    try {
      const heard = typeof onWait === 'function' ? () => void onWait() : undefined;
      const opened = await this.#engine.join((options ?? {}) as WorkerOptions, heard);
      if ((this.#state as string) === 'closed') {
        await this.#engine.leave();
        throw new LongshipError('STORE_CLOSED', 'closed while opening');
      }
      this.#state = 'open';
      return { ...opened.info, longship: this.#object('longship', opened.longship) };
    } finally {
      if (this.#state === 'opening') this.#state = 'new';
    }
  }

  async #close(): Promise<void> {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    for (const call of this.#calls) this.#release(call);
    for (const port of this.#ports) port.close();
    this.#ports.clear();
    if (wasOpen) await this.#engine.leave();
  }

  /**
   * Runs `run` on the call's arguments, revived, and answers with its result in wire form. A job
   * tells its id to the page's last argument first; a function it returns (an unsubscribe) and an
   * object of the table (a session) are served on ports of their own. The page's callbacks are let
   * go when the call is over, or for a returned function when that is called.
   */
  async #run(wire: unknown, returns: Returns, run: (...args: unknown[]) => unknown): Promise<unknown> {
    if (this.#state === 'closed') throw new LongshipError('STORE_CLOSED', 'this Longship was closed');
    if (!Array.isArray(wire))
      throw new LongshipError('INVALID_ARGUMENT', 'a call takes an array of arguments');
    const call: Call = { remotes: [], pending: new Set(), released: false };
    this.#calls.add(call);
    let held = false;
    try {
      const args = decode(wire, (marked) => this.#revive(marked, call)) as unknown[];
      const onId = returns === 'job' ? args.pop() : undefined;
      const result = run(...args);
      if (typeof onId === 'function') onId((result as { id?: unknown }).id);
      const value = await result;
      // Callbacks travel on ports of their own: the result waits for the last progress event.
      await drained(call);
      if (returns === 'function' && typeof value === 'function') {
        held = true;
        const once = async (...a: unknown[]) => {
          try {
            return await value(...a);
          } finally {
            this.#release(call);
          }
        };
        return send(this.#function(once));
      }
      return send(
        returns === 'value' || returns === 'job'
          ? value
          : this.#object(returns as RemoteName, value as object),
      );
    } finally {
      if (!held) this.#release(call);
    }
  }

  /** A page's function or AbortSignal, from its mark in the arguments. */
  #revive(marked: Served, call: Call): unknown {
    if (marked[MARK] !== 'fn' && marked[MARK] !== 'signal') return undefined;
    const remote = Comlink.wrap<Fn>(marked.port as Comlink.Endpoint);
    call.remotes.push(remote);
    if (marked[MARK] === 'signal') {
      const controller = new AbortController();
      if (marked.aborted) controller.abort(decode(marked.reason));
      else
        Promise.resolve(remote([])).then(
          (reason) => controller.abort(decode(reason)),
          () => {},
        );
      return controller.signal;
    }
    // The engine never waits on a listener (a page that is gone or slow must not hold it up); a
    // caller that wants the answer gets a promise of it.
    return (...args: unknown[]) => {
      if (call.released) return undefined;
      const answer = Promise.resolve(remote(encode(args))).then((value) => decode(value));
      call.pending.add(answer);
      const done = () => call.pending.delete(answer);
      answer.then(done, done);
      return answer;
    };
  }

  /** `value` (a session, the engine), served on a port with the table's methods for `name`. */
  #object(name: RemoteName, value: object): Served {
    const target = value as Record<string, Fn>;
    const methods = Object.fromEntries(
      remoteMethods(name).map((method) => [
        method,
        (wire: unknown) =>
          this.#run(wire, remoteMethod(name, method), (...args) => {
            if (typeof target[method] !== 'function')
              throw new LongshipError(
                'INVALID_ARGUMENT',
                `the ${name} in this worker has no method '${method}'`,
              );
            return target[method](...args);
          }),
      ]),
    );
    const data = Object.fromEntries(
      (remoteApi[name].data as readonly string[]).map((key) => [key, target[key]]),
    );
    const allow: Allow = (path) => remoteMethod(name, path.length === 1 ? path[0] : path.join('.'));
    return { [MARK]: name, data, port: this.#serve(methods, allow) };
  }

  #function(fn: Fn): Served {
    return { [MARK]: 'fn', port: this.#serve((wire: unknown) => this.#run(wire, 'value', fn), asFunction) };
  }

  #serve(target: object, allow: Allow): Port {
    if (this.#state === 'closed') throw new LongshipError('STORE_CLOSED', 'this Longship was closed');
    return serve(target, allow, this.#ports);
  }

  #release(call: Call): void {
    if (call.released) return;
    call.released = true;
    this.#calls.delete(call);
    for (const remote of call.remotes) remote[Comlink.releaseProxy]();
  }
}

/** A reply in wire form, with the buffers and ports in it moved: the engine made them for this caller. */
function send(value: unknown): unknown {
  const moves = new Set<Movable>();
  const wire = encode(value, (leaf) => {
    if (leaf instanceof ArrayBuffer || leaf instanceof MessagePort) moves.add(leaf);
    // A view into a larger buffer shares it with whatever else lives there: that one is copied.
    else if (
      ArrayBuffer.isView(leaf) &&
      leaf.byteOffset === 0 &&
      leaf.byteLength === leaf.buffer.byteLength
    ) {
      if (leaf.buffer instanceof ArrayBuffer) moves.add(leaf.buffer);
    }
    return leaf;
  });
  return moving(wire, moves);
}

/** Resolves once every callback the call made has run on the page. */
async function drained(call: Call): Promise<void> {
  while (call.pending.size > 0 && !call.released) await Promise.allSettled([...call.pending]);
}

// One page's connection to the worker's engine: `open` and `close`, what its calls returned (the
// engine, a session, an unsubscribe: each served on a port of its own), and the callbacks it lent.

import * as Comlink from 'comlink';
import { LongshipError } from '../errors.js';
import type { Movable, Port } from '../web-types.js';
import type { EngineSlot } from './engine-slot.js';
import { type RemoteName, type Returns, remoteApi, remoteMethod, remoteMethods } from './remote-api.js';
import { type Allow, asFunction, serve } from './serve.js';
import { decode, encode, MARK, moving, type Served } from './wire.js';
import type { WorkerOptions } from './worker-options.js';

type Fn = (...args: unknown[]) => unknown;

/** A call's callbacks from the page, and their answers still on the way. */
interface Call {
  remotes: Comlink.Remote<Fn>[];
  pending: Set<Promise<unknown>>;
  released: boolean;
}

export class Connection {
  readonly #engine: EngineSlot;
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  /** The served ends of the ports this page was sent. */
  readonly #ports = new Set<Port>();
  readonly #calls = new Set<Call>();

  /** What the page calls first and last; like every call, each takes one array of arguments. */
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
    const heard = typeof onWait === 'function' ? () => void onWait() : undefined;
    const longship = await this.#engine.join((options ?? {}) as WorkerOptions, heard);
    if ((this.#state as string) === 'closed') {
      await this.#engine.leave();
      throw new LongshipError('STORE_CLOSED', 'closed while opening');
    }
    this.#state = 'open';
    const { id, dimensions } = longship.embedder;
    const served = this.#object('longship', longship);
    return { embedder: { id, dimensions }, persistent: longship.persistent, longship: served };
  }

  async #close(): Promise<void> {
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    for (const call of this.#calls) release(call);
    for (const port of this.#ports) port.close();
    if (wasOpen) await this.#engine.leave();
  }

  /**
   * Runs `run` on the call's arguments and answers with its result in wire form, once the call's
   * callbacks have all run on the page (they travel on ports of their own). A job first tells its
   * id to the last argument, a function of the page's; an unsubscribe it returns keeps the call's
   * callbacks until it is called.
   */
  async #run(wire: unknown, returns: Returns, run: (...args: unknown[]) => unknown): Promise<unknown> {
    if (this.#state === 'closed') throw new LongshipError('STORE_CLOSED', 'this Longship was closed');
    if (!Array.isArray(wire))
      throw new LongshipError('INVALID_ARGUMENT', 'a call takes an array of arguments');
    const call: Call = { remotes: [], pending: new Set(), released: false };
    this.#calls.add(call);
    let kept = false;
    try {
      const args = decode(wire, (served) => this.#revive(served, call)) as unknown[];
      const onId = returns === 'job' ? args.pop() : undefined;
      const result = run(...args);
      if (typeof onId === 'function') onId((result as { id?: unknown }).id);
      const value = await result;
      while (call.pending.size > 0 && !call.released) await Promise.allSettled([...call.pending]);
      if (returns === 'function' && typeof value === 'function') {
        kept = true;
        // An unsubscribe: it lets go of the call's callbacks, and a second call finds nothing.
        const once = (...a: unknown[]) => {
          if (call.released) throw new LongshipError('NOT_FOUND', 'this function was already called');
          this.#calls.delete(call);
          release(call);
          return (value as Fn)(...a);
        };
        return send({
          [MARK]: 'fn',
          port: this.#serve((w: unknown) => this.#run(w, 'value', once), asFunction),
        });
      }
      return send(
        returns === 'value' || returns === 'job'
          ? value
          : this.#object(returns as RemoteName, value as object),
      );
    } finally {
      if (!kept) release(call);
      if (call.released) this.#calls.delete(call);
    }
  }

  /** A page's function or AbortSignal, from its mark in the arguments. */
  #revive(served: Served, call: Call): unknown {
    if (served[MARK] !== 'fn' && served[MARK] !== 'signal') return undefined;
    const remote = Comlink.wrap<Fn>(served.port as Comlink.Endpoint);
    call.remotes.push(remote);
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
      if (call.released) return undefined;
      const answer = remote(encode(args)).then((value) => decode(value));
      const settled = () => call.pending.delete(answer);
      call.pending.add(answer);
      answer.then(settled, settled);
      return answer;
    };
  }

  /** `value` (the engine, a session), served with the table's methods for `name`, and its data. */
  #object(name: RemoteName, value: object): Served {
    const target = value as Record<string, Fn>;
    const methods = remoteMethods(name).map((method) => {
      const run = (...args: unknown[]) => target[method]!(...args);
      return [method, (wire: unknown) => this.#run(wire, remoteMethod(name, method), run)];
    });
    const data = Object.fromEntries(
      (remoteApi[name].data as readonly string[]).map((key) => [key, target[key]]),
    );
    const allow: Allow = (path) => remoteMethod(name, path.length === 1 ? path[0] : path.join('.'));
    return { [MARK]: name, data, port: this.#serve(Object.fromEntries(methods), allow) };
  }

  #serve(target: object, allow: Allow): Port {
    if (this.#state === 'closed') throw new LongshipError('STORE_CLOSED', 'this Longship was closed');
    return serve(target, allow, this.#ports);
  }
}

function release(call: Call): void {
  if (call.released) return;
  call.released = true;
  for (const remote of call.remotes) remote[Comlink.releaseProxy]();
}

/** A reply in wire form, its buffers and ports moved: the engine made them for this caller. */
function send(value: unknown): unknown {
  const moves = new Set<Movable>();
  const wire = encode(value, (leaf) => {
    if (leaf instanceof ArrayBuffer || leaf instanceof MessagePort) moves.add(leaf);
    // A view into a larger buffer shares it with whatever else lives there: that one is copied.
    const { buffer, byteOffset, byteLength } = ArrayBuffer.isView(leaf) ? leaf : { byteOffset: -1 };
    if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength)
      moves.add(buffer);
    return leaf;
  });
  return moving(wire, moves);
}

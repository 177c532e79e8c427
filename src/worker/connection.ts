// One page's connection to the worker's engine: the five calls comlink carries (open, call, job,
// abort, close), and what the page's calls hold between them (callbacks, signals, handles, jobs).

import * as Comlink from 'comlink';
import { LongshipError } from '../errors.js';
import { type CallState, callState, drained, type RemoteCallback, release, revive } from './call-state.js';
import type { EngineSlot, Opened } from './engine-slot.js';
import {
  type CallRequest,
  decode,
  encode,
  type HostApi,
  movableBuffers,
  type OpenedInfo,
  type Reply,
  type WorkerOptions,
} from './protocol.js';
import { isRemoteName } from './remote-api.js';
import { type Bound, bind, dataOf, Handles } from './served.js';

export class Connection implements HostApi {
  readonly #engine: EngineSlot;
  #opened: Opened | undefined;
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  readonly #calls = new Map<number, CallState>();
  readonly #handles = new Handles();
  readonly #jobs = new Map<number, { job: PromiseLike<unknown>; call: CallState }>();

  constructor(engine: EngineSlot) {
    this.#engine = engine;
  }

  async open(options: WorkerOptions, onWait?: () => void): Promise<OpenedInfo> {
    try {
      if (this.#state !== 'new')
        throw new LongshipError('INVALID_ARGUMENT', 'this connection is already open');
      this.#state = 'opening';
      const heard = onWait && (() => void Promise.resolve(onWait()).catch(() => {}));
      const joined = await this.#engine.join(options ?? {}, heard);
      if ((this.#state as string) === 'closed') {
        await this.#engine.leave();
        throw new LongshipError('STORE_CLOSED', 'closed while opening');
      }
      this.#opened = joined;
      this.#state = 'open';
      return joined.info;
    } catch (error) {
      if (this.#state === 'opening') this.#state = 'new';
      throw error;
    } finally {
      (onWait as Comlink.Remote<RemoteCallback> | undefined)?.[Comlink.releaseProxy]();
    }
  }

  async call(request: CallRequest, ...callbacks: Array<(...args: unknown[]) => unknown>): Promise<Reply> {
    const call = callState(callbacks);
    // Registered before anything awaits: an abort sent right after this call finds it.
    this.#calls.set(request.id, call);
    const forget = () => {
      this.#calls.delete(request.id);
      release(call);
    };
    try {
      // The table is asked first: a refused call decodes nothing and runs nothing.
      const bound = this.#bind(request);
      const args = decode(request.args, (marked) => revive(marked, call)) as unknown[];
      const result = bound.run(args);
      if (bound.returns === 'job' && isJob(result)) {
        this.#jobs.set(result.id, { job: result, call });
        const settle = () => drained(call).then(forget);
        result.then(settle, settle);
        return { job: result.id };
      }
      const value = await result;
      const handle = this.#handleOf(bound, value, call);
      if (handle) {
        this.#calls.delete(request.id);
        return handle;
      }
      await drained(call);
      forget();
      const entry = this.#handles.get(request.target);
      if (entry?.kind === 'object')
        return moved({ value: encode(value), data: dataOf(entry.name, entry.value) });
      return moved({ value: encode(value) });
    } catch (error) {
      forget();
      throw error;
    }
  }

  async job(id: number): Promise<unknown> {
    const entry = this.#jobs.get(id);
    if (!entry) throw new LongshipError('NOT_FOUND', `no job ${id} on this connection`);
    try {
      const value = await entry.job.then(
        (result) => result,
        async (error: unknown) => {
          await drained(entry.call);
          throw error;
        },
      );
      await drained(entry.call);
      return moved({ value: encode(value) });
    } finally {
      this.#jobs.delete(id);
    }
  }

  abort(callId: number, slot: number, reason: unknown): void {
    const controller = this.#calls.get(callId)?.controllers[slot];
    controller?.abort(decode(reason));
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    for (const call of this.#calls.values()) release(call);
    this.#calls.clear();
    for (const key of this.#handles.keys()) this.#drop(key);
    this.#jobs.clear();
    this.#opened = undefined;
    if (wasOpen) await this.#engine.leave();
  }

  /** The request's target and method, if the table serves them. */
  #bind(request: CallRequest): Bound {
    if (this.#state !== 'open' || !this.#opened) {
      const closed = this.#state === 'closed';
      throw new LongshipError('STORE_CLOSED', closed ? 'this Longship was closed' : 'not open yet');
    }
    if (!Array.isArray(request.args))
      throw new LongshipError('INVALID_ARGUMENT', 'a call takes an array of arguments');
    if (request.target === 0) return bind('longship', this.#opened.longship, request.method);
    const entry = this.#handles.get(request.target);
    if (!entry) throw new LongshipError('NOT_FOUND', `handle ${request.target} was released`);
    if (entry.kind === 'object') return bind(entry.name, entry.value, request.method);
    if (request.method !== undefined) {
      throw new LongshipError('INVALID_ARGUMENT', `handle ${request.target} is a function, with no methods`);
    }
    return {
      returns: 'value',
      run: (args) => {
        // A function a method returned undoes that method (onProgress's unsubscribe): once called,
        // the callbacks it kept are let go.
        try {
          return entry.fn(...args);
        } finally {
          this.#drop(request.target);
        }
      },
    };
  }

  /** A handle for a result the table says stays in the worker (a function, a session); else undefined. */
  #handleOf(bound: Bound, value: unknown, call: CallState): Reply | undefined {
    if (bound.returns === 'function' && typeof value === 'function') {
      const fn = value as (...args: unknown[]) => unknown;
      return { handle: this.#handles.add({ kind: 'function', fn, state: call }), callable: true };
    }
    if (isRemoteName(bound.returns) && typeof value === 'object' && value !== null) {
      const name = bound.returns;
      const handle = this.#handles.add({ kind: 'object', name, value, state: call });
      return { handle, object: name, data: dataOf(name, value) };
    }
    return undefined;
  }

  #drop(key: number): void {
    const entry = this.#handles.drop(key);
    if (entry) release(entry.state);
  }
}

/** The reply, with the buffers it holds moved rather than copied: the engine made them for this caller. */
function moved<T extends object>(reply: T): T {
  return Comlink.transfer(reply, movableBuffers(reply));
}

function isJob(value: unknown): value is PromiseLike<unknown> & { id: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function' &&
    typeof (value as { id?: unknown }).id === 'number'
  );
}

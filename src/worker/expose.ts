// The worker's side: one Longship per worker, held under a Web Lock, served over comlink to every
// page that connects (one for a dedicated Worker, any number for a SharedWorker). Calls arrive as
// CallRequests (protocol.ts) so that callbacks, AbortSignals, queued jobs and returned handles
// work across the boundary, which comlink alone does only for top-level arguments.

import * as Comlink from 'comlink';
import { TransformersEmbedder } from '../embed/transformers-embedder.js';
import { type Longship, openLongship } from '../engine.js';
import { defaultLocks } from '../env/locks.js';
import { LongshipError } from '../errors.js';
import type { Locks, MessageEndpoint } from '../web-types.js';
import {
  type CallRequest,
  decode,
  encode,
  type HostApi,
  MARK,
  type Marked,
  movableBuffers,
  type OpenedInfo,
  type Reply,
  registerThrowHandler,
  type WorkerOptions,
} from './protocol.js';

export interface ExposeLongshipOptions {
  /**
   * Opens the engine from the options a page sent. Default: {@link openLongship} with the page's
   * `name`, `usearch` and `transformers`. Pass your own to choose the store or the embedder here,
   * where functions and objects can be made.
   */
  open?: (options: WorkerOptions) => Promise<Longship>;
  /** Default: the runtime's Web Locks; `null` to run without (one page, or tests). */
  locks?: Locks | null;
}

/** The engine of one worker, shared by its connections. */
export interface LongshipHost {
  /** Serves one more page over `endpoint` (a MessagePort, a worker's global scope). */
  connect(endpoint: MessageEndpoint): void;
}

type Remote = Comlink.Remote<(...args: unknown[]) => unknown>;

interface Opened {
  longship: Longship;
  info: OpenedInfo;
  release: () => void;
}

/** What a call holds until it is over: its callbacks' ports, its signals, its callbacks in flight. */
interface CallState {
  remotes: Remote[];
  controllers: AbortController[];
  released: boolean;
  pending: Set<Promise<unknown>>;
}

/**
 * Resolves once every callback the call made has run on the page. Callbacks travel on ports of
 * their own, so without this a job's result could overtake its last progress events.
 */
async function drained(call: CallState): Promise<void> {
  while (call.pending.size > 0 && !call.released) await Promise.allSettled([...call.pending]);
}

type Handle =
  | { kind: 'function'; fn: (...args: unknown[]) => unknown; state: CallState }
  | { kind: 'object'; value: Record<string, unknown>; state: CallState };

/**
 * Serves a Longship from this worker. A dedicated Worker serves the page that started it; a
 * SharedWorker serves every page that connects, all on one engine. The engine opens with the first
 * page's options (later pages share it as it is) and closes when the last page closes it. It opens under the Web Lock
 * `longship:<name>`, so that two workers (tabs without a SharedWorker, or two versions of an app)
 * never write one store at once: the second waits until the first closes.
 *
 * @example
 * // my-worker.ts, started with createLongship({ worker: new Worker(new URL('./my-worker.ts', import.meta.url), { type: 'module' }) })
 * import { functionEmbedder, openLongship } from 'longship';
 * import { exposeLongship } from 'longship/worker';
 * const embedder = functionEmbedder({ id: 'my-model@1', dimensions: 768, embed: myEmbed });
 * exposeLongship({ open: (options) => openLongship({ name: options.name, embedder }) });
 */
export function exposeLongship(options: ExposeLongshipOptions = {}): LongshipHost {
  const host = createLongshipHost(options);
  const scope = globalThis as unknown as Comlink.Endpoint;
  // A SharedWorker's scope has no messages of its own: each page arrives as a port on 'connect'.
  if ('onconnect' in scope) {
    scope.addEventListener('connect', (event) => {
      for (const port of (event as MessageEvent).ports) host.connect(port);
    });
  } else host.connect(scope);
  return host;
}

/**
 * The engine of {@link exposeLongship} without a scope to serve: connect endpoints to it yourself
 * (an extension's offscreen document, a test). Every endpoint shares the one engine.
 *
 * @example
 * const host = createLongshipHost({ open: (options) => openLongship({ name: options.name, embedder }) });
 * chrome.runtime.onConnect.addListener((port) => host.connect(toEndpoint(port)));
 */
export function createLongshipHost(options: ExposeLongshipOptions = {}): LongshipHost {
  registerThrowHandler(Comlink.transferHandlers);
  const engine = engineSlot(
    options.open ?? openFromOptions,
    options.locks === undefined ? (defaultLocks() ?? null) : (options.locks as LockManager | null),
  );
  return { connect: (endpoint) => Comlink.expose(connection(engine), endpoint as Comlink.Endpoint) };
}

async function openFromOptions(options: WorkerOptions): Promise<Longship> {
  const usearch = typeof options.usearch === 'string' ? new URL(options.usearch) : options.usearch;
  if (options.transformers === undefined) {
    // openLongship makes (and disposes of) the default embedder itself.
    return openLongship({ ...(options.name ? { name: options.name } : {}), ...(usearch ? { usearch } : {}) });
  }
  const embedder = new TransformersEmbedder(options.transformers);
  try {
    const longship = await openLongship({
      embedder,
      ...(options.name ? { name: options.name } : {}),
      ...(usearch ? { usearch } : {}),
    });
    return {
      ...longship,
      async close() {
        try {
          await longship.close();
        } finally {
          await embedder.dispose();
        }
      },
    };
  } catch (error) {
    await embedder.dispose();
    throw error;
  }
}

interface EngineSlot {
  join(options: WorkerOptions, onWait?: () => void): Promise<Opened>;
  leave(): Promise<void>;
}

/** One engine for every connection: opened by the first, closed when the last one leaves. */
function engineSlot(
  open: (options: WorkerOptions) => Promise<Longship>,
  locks: LockManager | null,
): EngineSlot {
  let current: Promise<Opened> | undefined;
  let members = 0;
  const start = async (options: WorkerOptions, onWait?: () => void): Promise<Opened> => {
    const release = locks
      ? await holdLock(locks, `longship:${options.name ?? 'longship'}`, onWait)
      : () => {};
    try {
      const longship = await open(options);
      const { id, dimensions } = longship.embedder;
      const info = {
        embedder: { id, dimensions },
        persistent: longship.persistent,
        methods: methodsOf(longship),
      };
      return { longship, release, info };
    } catch (error) {
      release();
      throw error;
    }
  };
  return {
    async join(options, onWait) {
      members++;
      current ??= start(options, onWait);
      const opening = current;
      try {
        return await opening;
      } catch (error) {
        members--;
        if (current === opening) current = undefined;
        throw error;
      }
    },
    async leave() {
      members--;
      if (members > 0 || !current) return;
      const closing = current;
      current = undefined;
      const opened = await closing.catch(() => undefined);
      if (!opened) return;
      try {
        await opened.longship.close();
      } finally {
        // Only now may the next worker (another tab's) open the store.
        opened.release();
      }
    },
  };
}

/**
 * Takes the lock and keeps it until the returned function is called. `onWait` hears that another
 * holder (another tab's worker) has it, before this one starts to wait.
 */
function holdLock(locks: LockManager, name: string, onWait?: () => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    let release!: () => void;
    const held = new Promise<void>((done) => {
      release = done;
    });
    const granted = () => {
      resolve(release);
      return held;
    };
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (lock) return granted();
        onWait?.();
        locks.request(name, granted).catch(reject);
        return undefined;
      })
      .catch(reject);
  });
}

function connection(engine: EngineSlot): HostApi {
  let opened: Opened | undefined;
  let state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  const calls = new Map<number, CallState>();
  const handles = new Map<number, Handle>();
  const jobs = new Map<number, { job: PromiseLike<unknown>; call: CallState }>();
  let nextHandle = 1;

  const release = (call: CallState) => {
    if (call.released) return;
    call.released = true;
    for (const remote of call.remotes) remote[Comlink.releaseProxy]();
  };
  const live = (): Opened => {
    if (state !== 'open' || !opened) {
      throw new LongshipError(
        'STORE_CLOSED',
        state === 'closed' ? 'this Longship was closed' : 'not open yet',
      );
    }
    return opened;
  };
  const handle = (entry: Handle): number => {
    const key = nextHandle++;
    handles.set(key, entry);
    return key;
  };
  const drop = (key: number) => {
    const entry = handles.get(key);
    if (!entry) return;
    handles.delete(key);
    release(entry.state);
  };

  const dispatch = (request: CallRequest, args: unknown[]): unknown => {
    const { longship } = live();
    if (request.target === 0)
      return invokeMethod(longship as unknown as Record<string, unknown>, request, args);
    const entry = handles.get(request.target);
    if (!entry) throw new LongshipError('NOT_FOUND', `handle ${request.target} was released`);
    if (entry.kind === 'function') {
      // A function a method returned undoes that method (onProgress's unsubscribe): once called,
      // the callbacks it kept are let go.
      try {
        return entry.fn(...args);
      } finally {
        drop(request.target);
      }
    }
    const result = invokeMethod(entry.value, request, args);
    if (request.method === 'close') void Promise.resolve(result).finally(() => drop(request.target));
    return result;
  };

  return {
    async open(options, onWait) {
      try {
        if (state !== 'new') throw new LongshipError('INVALID_ARGUMENT', 'this connection is already open');
        state = 'opening';
        const heard = onWait && (() => void Promise.resolve(onWait()).catch(() => {}));
        const joined = await engine.join(options ?? {}, heard);
        if ((state as string) === 'closed') {
          await engine.leave();
          throw new LongshipError('STORE_CLOSED', 'closed while opening');
        }
        opened = joined;
        state = 'open';
        return joined.info;
      } catch (error) {
        if (state === 'opening') state = 'new';
        throw error;
      } finally {
        (onWait as Remote | undefined)?.[Comlink.releaseProxy]();
      }
    },

    async call(request, ...callbacks) {
      const call: CallState = {
        remotes: callbacks as unknown as Remote[],
        controllers: [],
        released: false,
        pending: new Set(),
      };
      // Registered before anything awaits: an abort sent right after this call finds it.
      calls.set(request.id, call);
      const forget = () => {
        calls.delete(request.id);
        release(call);
      };
      try {
        const args = decode(request.args, (marked) => revive(marked, call)) as unknown[];
        const result = dispatch(request, args);
        if (isJob(result)) {
          jobs.set(result.id, { job: result, call });
          const settle = () => drained(call).then(forget);
          result.then(settle, settle);
          return { job: result.id } satisfies Reply;
        }
        const value = await result;
        if (typeof value === 'function') {
          calls.delete(request.id);
          return {
            handle: handle({ kind: 'function', fn: value as (...args: unknown[]) => unknown, state: call }),
            callable: true,
          };
        }
        if (isHandleObject(value)) {
          calls.delete(request.id);
          const methods = methodsOf(value);
          return { handle: handle({ kind: 'object', value, state: call }), methods, data: dataOf(value) };
        }
        await drained(call);
        forget();
        const entry = handles.get(request.target);
        if (entry?.kind === 'object') return moved({ value: encode(value), data: dataOf(entry.value) });
        return moved({ value: encode(value) });
      } catch (error) {
        forget();
        throw error;
      }
    },

    async job(id) {
      const entry = jobs.get(id);
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
        jobs.delete(id);
      }
    },

    abort(callId, slot, reason) {
      const controller = calls.get(callId)?.controllers[slot];
      controller?.abort(decode(reason));
    },

    async close() {
      if (state === 'closed') return;
      const wasOpen = state === 'open';
      state = 'closed';
      for (const call of calls.values()) release(call);
      calls.clear();
      for (const key of [...handles.keys()]) drop(key);
      jobs.clear();
      opened = undefined;
      if (wasOpen) await engine.leave();
    },
  };
}

function revive(marked: Marked, call: CallState): unknown {
  if (marked[MARK] === 'fn') {
    const remote = call.remotes[marked.slot];
    if (!remote) throw new LongshipError('INVALID_ARGUMENT', `no callback in slot ${marked.slot}`);
    // The engine never waits on a listener (a page that is gone or slow must not hold it up); a
    // caller that wants the answer gets a promise of it, decoded.
    return (...args: unknown[]) => {
      if (call.released) return undefined;
      const answer = Promise.resolve(remote(...args.map((arg) => encode(arg)))).then((value) =>
        decode(value),
      );
      call.pending.add(answer);
      answer.then(
        () => call.pending.delete(answer),
        () => call.pending.delete(answer),
      );
      return answer;
    };
  }
  if (marked[MARK] === 'signal') {
    const controller = new AbortController();
    call.controllers[marked.slot] = controller;
    if (marked.aborted) controller.abort(decode(marked.reason));
    return controller.signal;
  }
  return undefined;
}

function invokeMethod(target: Record<string, unknown>, request: CallRequest, args: unknown[]): unknown {
  const method = request.method === undefined ? undefined : target[request.method];
  if (typeof method !== 'function' || !methodsOf(target).includes(request.method!)) {
    throw new LongshipError('INVALID_ARGUMENT', `no method ${String(request.method)}`);
  }
  return method.apply(target, args);
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

/** An object whose methods are its point (a session), not data: a plain object with functions, or a class instance. */
function isHandleObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const ctor = Object.getPrototypeOf(value)?.constructor;
  const builtin =
    ctor === undefined || ctor === Object || /\[native code\]/.test(Function.prototype.toString.call(ctor));
  return builtin ? Object.values(value).some((v) => typeof v === 'function') : methodsOf(value).length > 0;
}

/**
 * An object's own data properties, getters read, in wire form: what structured clone cannot carry
 * (an object with methods, a store) is left out.
 */
function dataOf(value: object): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (!descriptor.enumerable) continue;
    try {
      const item = descriptor.get ? descriptor.get.call(value) : descriptor.value;
      if (typeof item === 'function') continue;
      const wire = encode(item);
      structuredClone(wire);
      data[key] = wire;
    } catch {
      // Not data: left in the worker.
    }
  }
  return data;
}

/** Method names along the prototype chain, up to Object's; getters are not called. */
function methodsOf(value: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key !== 'constructor' && typeof Object.getOwnPropertyDescriptor(o, key)?.value === 'function') {
        names.add(key);
      }
    }
  }
  return [...names];
}

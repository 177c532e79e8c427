// The worker's side: one Longship per worker, held under a Web Lock, served over comlink to every
// page that connects (one for a dedicated Worker, any number for a SharedWorker); what a page may
// call is the table in remote-api.ts.

import * as Comlink from 'comlink';
import { type Longship, openLongship } from '../engine.js';
import { defaultLocks } from '../env/locks.js';
import { LongshipError } from '../errors.js';
import type { LLM } from '../llm/llm.js';
import { openAiCompatibleLlm } from '../llm/openai-compatible.js';
import type { Locks, MessageEndpoint, Movable } from '../web-types.js';
import { type RemoteName, type Returns, remoteApi, remoteMethod, remoteMethods } from './remote-api.js';
import { asFunction, refuse, serve, serveOn } from './serve.js';
import { decode, encode, MARK, registerThrowHandler, type Served } from './wire.js';
import { checkWorkerLlm, databaseOf, type WorkerOptions } from './worker-options.js';

export interface ExposeLongshipOptions {
  /**
   * Opens the engine from the options a page sent. Default: {@link openLongship} with the page's
   * `store`, `assets`, `usearch`, `embedder` and `llm`. Pass your own to choose the store or the embedder here,
   * where functions and objects can be made (`workerLlm(options)` makes the page's `llm`).
   */
  open?: (options: WorkerOptions) => Promise<Longship>;
  /** Default: the runtime's Web Locks; `null` to run without (one page, or tests). */
  locks?: Locks | null;
}

/**
 * The LLM `options.llm` describes, made here where a live object can be made, or undefined where it
 * names none (docs/guide/worker.md, "An LLM"). A shape the page did not check (a transport of your
 * own) is INVALID_ARGUMENT here; `openAiCompatibleLlm()` checks the values.
 *
 * @example
 * exposeLongship({ open: (options) => openLongship({ store, embedder, llm: workerLlm(options) }) });
 */
export function workerLlm(options: WorkerOptions): LLM | undefined {
  const llm = checkWorkerLlm(options.llm, 'the worker');
  return llm && openAiCompatibleLlm(llm.openAiCompatible);
}

/** The engine of one worker, shared by its connections. */
export interface LongshipHost {
  /** Serves one more page over `endpoint` (a MessagePort, a worker's global scope). */
  connect(endpoint: MessageEndpoint): void;
}

/**
 * Serves a Longship from this worker. A dedicated Worker serves the page that started it; a
 * SharedWorker serves every page that connects, all on one engine. The engine opens with the first
 * page's options (later pages share it as it is) and closes when the last page closes it. It opens
 * under the Web Lock `longship:<name>`, so that two workers (tabs without a SharedWorker, or two
 * versions of an app) never write one store at once: the second waits until the first closes.
 *
 * @example
 * // my-worker.ts, started with openLongshipInWorker({ worker: new Worker(new URL('./my-worker.ts', import.meta.url), { type: 'module' }) })
 * import { functionEmbedder, openLongship } from 'longship';
 * import { exposeLongship } from 'longship/worker';
 * const embedder = functionEmbedder({ id: 'my-model@1', dimensions: 768, embed: myEmbed });
 * exposeLongship({ open: (options) => openLongship({ store: { indexedDB: options.store?.indexedDB ?? 'longship' }, embedder }) });
 */
export function exposeLongship(options: ExposeLongshipOptions = {}): LongshipHost {
  const host = createLongshipHost(options);
  const scope = globalThis as unknown as MessageEndpoint;
  // A SharedWorker's scope has no messages of its own: each page arrives as a port on 'connect'.
  if ('onconnect' in scope) {
    scope.addEventListener('connect', (event: MessageEvent) => {
      for (const port of event.ports) host.connect(port);
    });
  } else host.connect(scope);
  return host;
}

/**
 * The engine of {@link exposeLongship} without a scope to serve: connect endpoints to it yourself
 * (an extension's offscreen document, a test). Every endpoint shares the one engine.
 *
 * @example
 * const host = createLongshipHost({ open: (options) => openLongship({ store: { indexedDB: options.store?.indexedDB ?? 'longship' }, embedder }) });
 * chrome.runtime.onConnect.addListener((port) => host.connect(toEndpoint(port)));
 */
export function createLongshipHost(options: ExposeLongshipOptions = {}): LongshipHost {
  registerThrowHandler();
  const locks = options.locks === undefined ? (defaultLocks() ?? null) : options.locks;
  const engine = engineSlot(options.open ?? openFromOptions, locks);
  const allow = (path: unknown[]) => {
    if (!(path.length === 1 && (path[0] === 'open' || path[0] === 'close'))) {
      refuse(`a connection to the worker has no method '${path.join('.')}'`);
    }
  };
  return { connect: (endpoint) => serveOn(endpoint, openConnection(engine), allow) };
}

/** The default: the engine opened from the page's options (it chooses and owns the embedder). */
function openFromOptions(options: WorkerOptions): Promise<Longship> {
  const { store, usearch, embedder, assets } = options;
  const llm = workerLlm(options);
  // A URL arrives as a string (worker-options.ts).
  return openLongship({
    store: { indexedDB: databaseOf({ store }) },
    usearch: typeof usearch === 'string' ? new URL(usearch) : usearch,
    embedder,
    ...(assets === undefined ? {} : { assets }),
    ...(llm ? { llm } : {}),
  });
}

type EngineSlot = ReturnType<typeof engineSlot>;

/**
 * The one engine a worker holds for all its connections: opened under the Web Lock of its store by
 * the first, with its options (later ones share it as it is); closed when the last one leaves, and
 * only then is the lock let go.
 */
function engineSlot(open: (options: WorkerOptions) => Promise<Longship>, locks: Locks | null) {
  let current: Promise<{ longship: Longship; release: () => void }> | undefined;
  let members = 0;
  const start = async (options: WorkerOptions, onWait?: () => void) => {
    const name = `longship:${databaseOf(options)}`;
    const release = locks ? await holdLock(locks as LockManager, name, onWait) : () => {};
    try {
      return { longship: await open(options), release };
    } catch (error) {
      release();
      throw error;
    }
  };
  return {
    async join(options: WorkerOptions, onWait?: () => void): Promise<Longship> {
      members++;
      current ??= start(options, onWait);
      const opening = current;
      try {
        return (await opening).longship;
      } catch (error) {
        members--;
        if (current === opening) current = undefined;
        throw error;
      }
    },
    async leave(): Promise<void> {
      const closing = --members > 0 ? undefined : current;
      if (!closing) return;
      current = undefined;
      const opened = await closing.catch(() => undefined);
      try {
        await opened?.longship.close();
      } finally {
        // Only now may the next worker (another tab's) open the store.
        opened?.release();
      }
    },
  };
}

/** The engine as the page's user and agent; as it is when the page names neither. */
function asNamed(longship: Longship, { user, agent }: WorkerOptions): Promise<Longship> {
  if (user === undefined && agent === undefined) return Promise.resolve(longship);
  return longship.as({ ...(user === undefined ? {} : { user }), ...(agent === undefined ? {} : { agent }) });
}

/**
 * Takes the lock and keeps it until the returned function is called. `onWait` hears that another
 * holder (another tab's worker) has it, before this one starts to wait.
 */
function holdLock(locks: LockManager, name: string, onWait?: () => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    // The lock is held until the promise its callback returns settles: its resolver is the release.
    const hold = () => new Promise<void>((release) => resolve(release));
    const taken = locks.request(name, { ifAvailable: true }, (lock) => {
      if (lock) return hold();
      onWait?.();
      locks.request(name, hold).catch(reject);
      return undefined;
    });
    taken.catch(reject);
  });
}

type Fn = (...args: unknown[]) => unknown;

/** The page's functions one call was lent, let go of together, and their answers still on the way. */
interface Lent {
  remotes: Comlink.Remote<Fn>[];
  pending: Set<Promise<unknown>>;
  released: boolean;
}

/**
 * One page's connection to the engine: `open` and `close`, what its calls returned (the engine, a
 * session, an unsubscribe: each served on a port of its own), and the callbacks it lent. Like every
 * call, each takes one array of arguments.
 */
function openConnection(engine: EngineSlot): { open: Fn; close: Fn } {
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
        const given = (options ?? {}) as WorkerOptions;
        const joined = await engine.join(given, heard);
        // Each page as its own user and agent, in the one engine (docs/guide/namespaces.md).
        const longship = await asNamed(joined, given).catch(async (error: unknown) => {
          await engine.leave();
          throw error;
        });
        if ((state as string) === 'closed') {
          await engine.leave();
          throw new LongshipError('STORE_CLOSED', 'closed while opening');
        }
        state = 'open';
        const { id, dimensions } = longship.embedder;
        const { user, agent } = longship.namespace;
        const data = {
          embedder: { id, dimensions },
          persistent: longship.persistent,
          namespace: { user, agent },
        };
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
  return moves.size > 0 ? Comlink.transfer(wire, [...moves] as Transferable[]) : wire;
}

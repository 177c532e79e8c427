// What a page may call in the worker, written out: for each kind of object the worker serves (the
// engine, a session), its methods by name and what each one's result becomes on the way back, and
// the data properties that travel with it. The worker calls nothing that is not here, and the page
// builds its proxies and their types (below) from the same table (docs/guide/worker.md).

import type { Longship } from '../engine.js';
import { LongshipError } from '../errors.js';
import type { Session } from '../session/session.js';

/** The objects a worker serves, by the name the table and the wire know them by. */
export interface RemoteObjects {
  longship: Longship;
  session: Session;
}

export type RemoteName = keyof RemoteObjects;

/**
 * What a method's result becomes across the boundary: `'value'` a copy; `'job'` a queued job (a
 * promise with an id), whose result follows; `'function'` a function the page may call back (an
 * unsubscribe); a {@link RemoteName}: an object of that kind, left in the worker and served by handle.
 */
export type Returns = 'value' | 'job' | 'function' | RemoteName;

// biome-ignore lint/suspicious/noExplicitAny: a method of any signature
type AnyFunction = (...args: any[]) => any;

type MethodKeys<T> = { [K in keyof T]-?: T[K] extends AnyFunction ? K : never }[keyof T] & string;

type DataKeys<T> = Exclude<keyof T, MethodKeys<T>> & string;

/** The name the served object `T` is known by, or never. */
type ObjectName<T> = { [N in RemoteName]: [T] extends [RemoteObjects[N]] ? N : never }[RemoteName];

/** What a result of type `R` becomes, read from the signature: the table must say the same. */
type ReturnsOf<R> = [R] extends [PromiseLike<unknown> & { readonly id: number }]
  ? 'job'
  : [R] extends [AnyFunction]
    ? 'function'
    : [ObjectName<Awaited<R>>] extends [never]
      ? 'value'
      : ObjectName<Awaited<R>>;

/** One object's entry: every method in `Served`, each with what its signature says it returns. */
type Entry<T, Served extends MethodKeys<T>> = {
  readonly methods: {
    readonly [K in Served]: T[K] extends (...args: never[]) => infer R ? ReturnsOf<R> : never;
  };
  readonly data: readonly DataKeys<T>[];
};

/**
 * The engine's `close` is not in it: a page closes its own connection (the engine closes with the
 * last one), never the engine under another tab. Nor `export`: its stream cannot be copied to the page.
 */
type RemoteApi = {
  // as() and export() stay in the worker: a page's worker serves one user and agent, and a stream
  // cannot cross threads.
  readonly longship: Entry<Longship, Exclude<MethodKeys<Longship>, 'close' | 'as' | 'export'>>;
  readonly session: Entry<Session, MethodKeys<Session>>;
};

/** `methods`, each crossing as `returns`: the table lists them by kind. */
function each<R extends Returns, K extends string>(returns: R, ...methods: K[]): { readonly [M in K]: R } {
  return Object.fromEntries(methods.map((method) => [method, returns])) as { [M in K]: R };
}

/**
 * The table. A method added to {@link Longship} or {@link Session} fails the type check until it is
 * added here, with the kind of result its signature has.
 */
export const remoteApi = {
  longship: {
    methods: {
      ...each('value', 'mkdir', 'write', 'ls', 'tree', 'stat', 'read', 'abstract', 'overview', 'rm', 'mv'),
      ...each('value', 'grep', 'glob', 'link', 'relations', 'unlink', 'find', 'search', 'context', 'verify'),
      ...each('value', 'listSessions', 'sessionInfo', 'sessionExists', 'deleteSession', 'waitProcessed'),
      ...each('value', 'listSkills', 'getSkill', 'lsPage', 'treePage', 'remember', 'import'),
      ...each('value', 'sweepMemories', 'consolidateMemories'),
      ...each('job', 'addResource', 'addSkill', 'removeSkill'),
      session: 'session',
      onProgress: 'function',
    },
    // `embedder`, `persistent` and `namespace` arrive once, when the page connects; `store` and
    // `indexes` stay.
    data: [],
  },
  session: {
    methods: {
      ...each('value', 'addMessage', 'messages', 'used', 'waitCommitted', 'cancelCommits', 'context'),
      commit: 'job',
      onCommitProgress: 'function',
    },
    data: ['id', 'uri'],
  },
} as const satisfies RemoteApi;

/** Maps, not the table's objects: a name such as `__proto__` or `constructor` finds nothing. */
const served = new Map<string, ReadonlyMap<string, Returns>>(
  Object.entries(remoteApi).map(([name, entry]) => [name, new Map(Object.entries(entry.methods))]),
);

/** The methods a `name` object serves, each with what its result becomes. */
export function remoteMethods(name: RemoteName): ReadonlyMap<string, Returns> {
  return served.get(name) ?? new Map();
}

/**
 * What `method` of a `name` object returns across the boundary. Anything the table does not name
 * (an internal method, `constructor`, `toString`, a non-string) is INVALID_ARGUMENT, named.
 */
export function remoteMethod(name: RemoteName, method: unknown): Returns {
  const returns = typeof method === 'string' ? served.get(name)?.get(method) : undefined;
  if (returns !== undefined) return returns;
  const what = typeof method === 'string' ? `'${method.slice(0, 80)}'` : `a ${typeof method} method name`;
  throw new LongshipError(
    'INVALID_ARGUMENT',
    `the ${name} in the worker has no method ${what} that a page may call (see docs/guide/worker.md)`,
  );
}

// The page's view: a method is on a proxy's type exactly when the worker will run it, with its
// signature from the engine's interface and its result as the table says it crosses.

/** A queued job seen from the page: its result, and its queue id once the worker has queued it. */
export type RemoteJob<T> = Promise<T> & { readonly id: Promise<number> };

/**
 * What a method's result `R` becomes on the page: a queued job a {@link RemoteJob}, a function (an
 * unsubscribe) one the page calls back, a {@link Session} a {@link RemoteSession}, anything else a
 * copy. Written with public names only, for the API reference; `ReturnsOf` reads the same kinds for
 * the table, and test/worker/remote-types.test-d.ts holds the two together.
 */
export type RemoteResult<R> = [R] extends [PromiseLike<unknown> & { readonly id: number }]
  ? RemoteJob<Awaited<R>>
  : [R] extends [(...args: infer A) => infer B]
    ? Promise<(...args: A) => Promise<Awaited<B>>>
    : [Awaited<R>] extends [Session]
      ? Promise<RemoteSession>
      : Promise<Awaited<R>>;

/**
 * A served object as the page has it: the table's methods, each returning a promise (or a
 * {@link RemoteJob}), and the table's data properties as of the last call on it. Inlined in the API
 * reference, which lists each method rather than the table.
 *
 * @inline
 */
type RemoteObject<N extends RemoteName, T = RemoteObjects[N]> = {
  [K in keyof (typeof remoteApi)[N]['methods'] & keyof T]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => RemoteResult<R>
    : never;
} & { readonly [K in (typeof remoteApi)[N]['data'][number] & keyof T]: T[K] };

/** A {@link Session} in the worker, as the page has it. */
export interface RemoteSession extends RemoteObject<'session'> {}

/**
 * A Longship in a worker: every method of {@link Longship} the worker serves, asynchronous, with
 * `embedder` describing the worker's model. `store` and `indexes` stay in the worker.
 */
export interface RemoteLongship extends RemoteObject<'longship'> {
  readonly embedder: { readonly id: string; readonly dimensions: number };
  /** Whether the worker's store outlives it (IndexedDB, files), or lives in memory. */
  readonly persistent: boolean;
  /** The worker engine's user and agent (docs/guide/namespaces.md). */
  readonly namespace: { readonly user: string; readonly agent: string };
  /** Closes this page's connection; the engine closes with the last one, and a worker this page started ends. */
  close(): Promise<void>;
}

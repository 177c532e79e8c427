// The page's view of what the worker serves, derived from the table in remote-api.ts: a method is
// on a proxy's type exactly when the worker will run it, with its signature from the engine's
// interface and its result as the table says it crosses.

import type { ObjectName, RemoteName, RemoteObjects, RemoteTable, Returns, ReturnsOf } from './remote-api.js';

/** A queued job seen from the page: its result, and its queue id once the worker has queued it. */
export type RemoteJob<T> = Promise<T> & { readonly id: Promise<number> };

/** What a result `R` that crosses as `K` becomes on the page. */
type Across<R, K extends Returns> = K extends 'job'
  ? RemoteJob<Awaited<R>>
  : K extends 'function'
    ? Promise<R extends (...args: infer A) => infer B ? (...args: A) => Promise<Awaited<B>> : never>
    : K extends RemoteName
      ? Promise<RemoteObject<K>>
      : Promise<Awaited<R>>;

/** What a method's result becomes across the boundary, read from its type. */
export type RemoteResult<R> = Across<R, ReturnsOf<R>>;

type Methods<N extends RemoteName> = RemoteTable[N]['methods'];

/**
 * A served object as the page has it: the table's methods, each returning a promise (or a
 * {@link RemoteJob}), and the table's data properties as of the last call on it.
 */
type RemoteObject<N extends RemoteName> = {
  [K in keyof Methods<N>]: RemoteObjects[N][K & keyof RemoteObjects[N]] extends (...args: infer A) => infer R
    ? (...args: A) => Across<R, Methods<N>[K] & Returns>
    : never;
} & { readonly [K in RemoteTable[N]['data'][number]]: RemoteObjects[N][K & keyof RemoteObjects[N]] };

/** An object in the worker (a {@link Session}), as the page has it. */
export type Remote<T extends RemoteObjects[RemoteName]> = RemoteObject<ObjectName<T>>;

/**
 * A Longship in a worker: every method of {@link Longship} the worker serves, asynchronous, with
 * `embedder` describing the worker's model. `store` and `indexes` stay in the worker.
 */
export type RemoteLongship = RemoteObject<'longship'> & {
  readonly embedder: { readonly id: string; readonly dimensions: number };
  /** Whether the worker's store outlives it (IndexedDB, files), or lives in memory. */
  readonly persistent: boolean;
  /** Closes this page's connection; the engine closes with the last one, and a worker this page started ends. */
  close(): Promise<void>;
};

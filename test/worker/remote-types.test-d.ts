// Compile-only checks (tsc -p .) that RemoteLongship follows Longship: a change to the engine's
// methods shows up here as a type error, not at runtime in a page.
import type { Longship } from '../../src/engine.js';
import type { IngestResult } from '../../src/ingest/ingest.js';
import type { FindResult } from '../../src/retrieve/retriever.js';
import type { Message } from '../../src/session/message.js';
import type { CommitResult } from '../../src/session/session.js';
import type { RemoteJob, RemoteLongship, RemoteSession } from '../../src/worker/connect.js';
import type { remoteApi } from '../../src/worker/remote-api.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T => true as T;

is<Equal<ReturnType<RemoteLongship['find']>, Promise<FindResult>>>();
is<Equal<Parameters<RemoteLongship['find']>, Parameters<Longship['find']>>>();
is<Equal<ReturnType<RemoteLongship['addResource']>, RemoteJob<IngestResult>>>();
is<Equal<ReturnType<RemoteLongship['addResource']>['id'], Promise<number>>>();
is<Equal<ReturnType<RemoteLongship['onProgress']>, Promise<() => Promise<void>>>>();
is<Equal<ReturnType<RemoteLongship['read']>, Promise<string>>>();
is<Equal<ReturnType<RemoteLongship['session']>, Promise<RemoteSession>>>();
is<Equal<RemoteSession['id'], string>>();
is<Equal<ReturnType<RemoteSession['addMessage']>, Promise<Message>>>();
is<Equal<ReturnType<RemoteSession['commit']>, RemoteJob<CommitResult>>>();
is<Equal<ReturnType<RemoteSession['messages']>, Promise<Message[]>>>();
is<Equal<RemoteLongship['embedder'], { readonly id: string; readonly dimensions: number }>>();
// What stays in the worker is not on the proxy.
is<Equal<Extract<keyof RemoteLongship, 'store' | 'indexes'>, never>>();
// The proxy's methods are the table's, and only those: what the worker will run.
is<
  Equal<
    Exclude<keyof RemoteLongship, 'embedder' | 'persistent' | 'namespace' | 'close'>,
    keyof (typeof remoteApi)['longship']['methods']
  >
>();
is<Equal<keyof RemoteSession, keyof (typeof remoteApi)['session']['methods'] | 'id' | 'uri'>>();

// Each result crosses as the table says: RemoteResult (the page's type) and the table agree.
type Crossing<X> =
  X extends RemoteJob<unknown>
    ? 'job'
    : X extends Promise<(...args: never[]) => unknown>
      ? 'function'
      : X extends Promise<RemoteSession>
        ? 'session'
        : 'value';
type Crossings<Proxy, Methods> = {
  readonly [K in keyof Methods & keyof Proxy]: Proxy[K] extends (...args: never[]) => infer R
    ? Crossing<R>
    : never;
};
is<
  Equal<
    Crossings<RemoteLongship, (typeof remoteApi)['longship']['methods']>,
    (typeof remoteApi)['longship']['methods']
  >
>();
is<
  Equal<
    Crossings<RemoteSession, (typeof remoteApi)['session']['methods']>,
    (typeof remoteApi)['session']['methods']
  >
>();

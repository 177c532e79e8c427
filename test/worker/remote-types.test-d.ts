// Compile-only checks (tsc -p .) that RemoteLongship follows Longship: a change to the engine's
// methods shows up here as a type error, not at runtime in a page.
import type { Longship } from '../../src/engine.js';
import type { IngestResult } from '../../src/ingest/ingest.js';
import type { FindResult } from '../../src/retrieve/retriever.js';
import type { Message } from '../../src/session/message.js';
import type { CommitResult, Session } from '../../src/session/session.js';
import type { Remote, RemoteJob, RemoteLongship } from '../../src/worker/connect.js';
import type { remoteApi } from '../../src/worker/remote-api.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T => true as T;

is<Equal<ReturnType<RemoteLongship['find']>, Promise<FindResult>>>();
is<Equal<Parameters<RemoteLongship['find']>, Parameters<Longship['find']>>>();
is<Equal<ReturnType<RemoteLongship['addResource']>, RemoteJob<IngestResult>>>();
is<Equal<ReturnType<RemoteLongship['addResource']>['id'], Promise<number>>>();
is<Equal<ReturnType<RemoteLongship['onProgress']>, Promise<() => Promise<void>>>>();
is<Equal<ReturnType<RemoteLongship['read']>, Promise<string>>>();
is<Equal<ReturnType<RemoteLongship['session']>, Promise<Remote<Session>>>>();
is<Equal<Remote<Session>['id'], string>>();
is<Equal<ReturnType<Remote<Session>['addMessage']>, Promise<Message>>>();
is<Equal<ReturnType<Remote<Session>['commit']>, RemoteJob<CommitResult>>>();
is<Equal<ReturnType<Remote<Session>['messages']>, Promise<Message[]>>>();
is<Equal<RemoteLongship['embedder'], { readonly id: string; readonly dimensions: number }>>();
// What stays in the worker is not on the proxy.
is<Equal<Extract<keyof RemoteLongship, 'store' | 'indexes'>, never>>();
// The proxy's methods are the table's, and only those: what the worker will run.
is<
  Equal<
    Exclude<keyof RemoteLongship, 'embedder' | 'persistent' | 'close'>,
    keyof (typeof remoteApi)['longship']['methods']
  >
>();
is<Equal<keyof Remote<Session>, keyof (typeof remoteApi)['session']['methods'] | 'id' | 'uri'>>();

// What the tools use of a Longship, by the engine's own signatures, loosened only where a page's
// RemoteLongship (docs/guide/worker.md) answers asynchronously: its session() resolves to a session proxy
// and its jobs are promises too. Both a Longship and a RemoteLongship are ToolsLongships.

import type { Longship } from '../engine.js';

type Session = ReturnType<Longship['session']>;

/** A session as the tools use it: the engine's, or a page's proxy of one. */
export interface ToolSession {
  readonly uri: string;
  addMessage(...args: Parameters<Session['addMessage']>): Promise<unknown>;
  messages(): Promise<Awaited<ReturnType<Session['messages']>>>;
  commit(): PromiseLike<Awaited<ReturnType<Session['commit']>>>;
  context: Session['context'];
}

/** A Longship, or any object with the methods the tools call (a RemoteLongship has them all). */
export interface ToolsLongship
  extends Pick<
    Longship,
    | 'find'
    | 'search'
    | 'context'
    | 'read'
    | 'overview'
    | 'abstract'
    | 'ls'
    | 'tree'
    | 'lsPage'
    | 'treePage'
    | 'stat'
    | 'write'
    | 'namespace'
    | 'remember'
  > {
  addResource(
    ...args: Parameters<Longship['addResource']>
  ): PromiseLike<Awaited<ReturnType<Longship['addResource']>>>;
  session(id: string, options?: Parameters<Longship['session']>[1]): ToolSession | PromiseLike<ToolSession>;
}

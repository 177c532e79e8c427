// What one call from a page holds in the worker until it is over: the ports of the callbacks it
// passed, the AbortControllers behind its signals, and the callbacks still running on the page.

import * as Comlink from 'comlink';
import { LongshipError } from '../errors.js';
import { decode, encode, MARK, type Marked } from './protocol.js';

/** A page's callback, a comlink proxy here (typed plainly: the declarations name no comlink type). */
export type RemoteCallback = (...args: unknown[]) => unknown;

export interface CallState {
  remotes: RemoteCallback[];
  controllers: AbortController[];
  released: boolean;
  pending: Set<Promise<unknown>>;
}

export function callState(remotes: RemoteCallback[]): CallState {
  return { remotes, controllers: [], released: false, pending: new Set() };
}

/** Lets go of the call's callback ports; its callbacks do nothing after this. */
export function release(call: CallState): void {
  if (call.released) return;
  call.released = true;
  for (const remote of call.remotes) {
    (remote as Comlink.Remote<RemoteCallback>)[Comlink.releaseProxy]();
  }
}

/**
 * Resolves once every callback the call made has run on the page. Callbacks travel on ports of
 * their own, so without this a job's result could overtake its last progress events.
 */
export async function drained(call: CallState): Promise<void> {
  while (call.pending.size > 0 && !call.released) await Promise.allSettled([...call.pending]);
}

/** Turns a callback's or a signal's mark in the arguments back into a function or an AbortSignal. */
export function revive(marked: Marked, call: CallState): unknown {
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

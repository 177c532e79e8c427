// What a connection's calls reach in the worker: the engine and the objects and functions its
// methods returned (a session, an unsubscribe), by handle number; and a method of one of them, only
// when the table (remote-api.ts) names it.

import { LongshipError } from '../errors.js';
import type { CallState } from './call-state.js';
import { encode } from './protocol.js';
import { type RemoteName, type Returns, remoteApi, remoteMethod } from './remote-api.js';

export type Handle =
  | { kind: 'function'; fn: (...args: unknown[]) => unknown; state: CallState }
  | { kind: 'object'; name: RemoteName; value: object; state: CallState };

/** A call on a served object, ready to run once its arguments are decoded. */
export interface Bound {
  run(args: unknown[]): unknown;
  /** What the result becomes across the boundary. */
  returns: Returns;
}

/**
 * `method` of the `name` object `target`, if the table serves it: looked up before anything runs,
 * so a refused call reaches nothing.
 */
export function bind(name: RemoteName, target: object, method: unknown): Bound {
  const returns = remoteMethod(name, method);
  const fn = (target as Record<string, unknown>)[method as string];
  if (typeof fn !== 'function') {
    throw new LongshipError('INVALID_ARGUMENT', `the ${name} in this worker has no method '${method}'`);
  }
  return { run: (args) => fn.apply(target, args), returns };
}

/** The handles of one connection; numbers are never reused. */
export class Handles {
  readonly #entries = new Map<number, Handle>();
  #next = 1;

  add(entry: Handle): number {
    const key = this.#next++;
    this.#entries.set(key, entry);
    return key;
  }

  get(key: number): Handle | undefined {
    return this.#entries.get(key);
  }

  /** Forgets the handle; returns what it held, whose callbacks the caller lets go. */
  drop(key: number): Handle | undefined {
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    return entry;
  }

  keys(): number[] {
    return [...this.#entries.keys()];
  }
}

/**
 * The data properties the table lists for a `name` object, read now, in wire form; one that
 * structured clone cannot carry is left out.
 */
export function dataOf(name: RemoteName, value: object): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of remoteApi[name].data as readonly string[]) {
    try {
      const wire = encode((value as Record<string, unknown>)[key]);
      if (typeof wire === 'function') continue;
      structuredClone(wire);
      data[key] = wire;
    } catch {
      // Not data: left in the worker.
    }
  }
  return data;
}

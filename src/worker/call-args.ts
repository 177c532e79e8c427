// The page's side of a call's arguments: callbacks and AbortSignals in them become marks the
// worker revives (call-state.ts), and values marked with transfer() move instead of being copied.

import * as Comlink from 'comlink';
import type { Movable } from '../web-types.js';
import { decode, encode, isPlain, MARK } from './protocol.js';

type AnyFunction = (...args: unknown[]) => unknown;

const transferMarks = new WeakMap<object, Movable[]>();

/**
 * Marks `value` (an argument, or an object or array inside one) so that `transferables` move to
 * the worker instead of being copied. They are unusable in this thread afterwards.
 *
 * @example
 * const bytes = new Uint8Array(await file.arrayBuffer());
 * await longship.addResource(transfer(bytes, [bytes.buffer]), { name: file.name });
 */
export function transfer<T extends object>(value: T, transferables: Movable[]): T {
  transferMarks.set(value, transferables);
  return value;
}

/** `args` in wire form, with the callbacks (as comlink proxies) and signals it found, by slot. */
export function wireArgs(args: unknown[]): {
  wire: unknown[];
  callbacks: AnyFunction[];
  signals: AbortSignal[];
} {
  const callbacks: AnyFunction[] = [];
  const signals: AbortSignal[] = [];
  const wire = encode(args, (leaf) => {
    if (typeof leaf === 'function') {
      const proxied = async (...a: unknown[]) => encode(await leaf(...a.map((x) => decode(x))));
      const slot = callbacks.push(Comlink.proxy(proxied)) - 1;
      return { [MARK]: 'fn', slot };
    }
    if (typeof AbortSignal !== 'undefined' && leaf instanceof AbortSignal) {
      const slot = signals.push(leaf) - 1;
      return {
        [MARK]: 'signal',
        slot,
        aborted: leaf.aborted,
        reason: leaf.aborted ? encode(leaf.reason) : undefined,
      };
    }
    return leaf;
  }) as unknown[];
  return { wire, callbacks, signals };
}

/** Listens to each signal; returns the function that stops listening. */
export function watchSignals(
  signals: AbortSignal[],
  onAbort: (slot: number, reason: unknown) => void,
): () => void {
  const stops = signals.map((signal, slot) => {
    const listener = () => onAbort(slot, signal.reason);
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  });
  return () => {
    for (const stop of stops) stop();
  };
}

/** The transferables of the values marked with {@link transfer}, anywhere in `value`'s plain objects and arrays. */
export function transferablesIn(value: unknown, found: Movable[] = [], depth = 0): Movable[] {
  if (typeof value !== 'object' || value === null) return found;
  const marks = transferMarks.get(value);
  if (marks) found.push(...marks.filter((m) => !found.includes(m)));
  if (depth < 32 && isPlain(value)) {
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
      transferablesIn(item, found, depth + 1);
    }
  }
  return found;
}

// Failure injection into fake-indexeddb: every request a store makes goes through one of these
// methods, so failing the Nth call interrupts a store operation at its Nth await point.

import { IDBIndex, IDBObjectStore } from 'fake-indexeddb';

const STORE_METHODS = [
  'get',
  'getAll',
  'getAllKeys',
  'getKey',
  'count',
  'put',
  'add',
  'delete',
  'clear',
  'openCursor',
  'openKeyCursor',
];
const INDEX_METHODS = ['get', 'getAll', 'getAllKeys', 'getKey', 'count', 'openCursor', 'openKeyCursor'];

/**
 * - `throw`: the call throws synchronously (as put() does for DataCloneError, or a quota check).
 * - `fail`: the call returns a request that then fails, aborting the transaction with that error
 *   (how browsers report QuotaExceededError).
 * - `signal`: the call goes through, but the given controller aborts just before it.
 */
export type Fault =
  | { kind: 'throw'; error: () => Error }
  | { kind: 'fail'; error: () => Error }
  | { kind: 'signal'; controller: AbortController };

type Method = (this: unknown, ...args: unknown[]) => unknown;
type Execs = { _execRequestAsync(request: { operation: () => unknown; source: unknown }): unknown };

/** Counts requests; on call number `at` (1-based) injects `fault`. Call the result to restore. */
export function injectFault(at: number, fault?: Fault): { calls: () => number; restore: () => void } {
  let calls = 0;
  const restores: Array<() => void> = [];
  const patch = (proto: Record<string, Method>, names: string[], txOf: (self: unknown) => Execs) => {
    for (const name of names) {
      const original = proto[name]!;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        calls++;
        if (calls === at && fault) {
          if (fault.kind === 'throw') throw fault.error();
          if (fault.kind === 'signal') fault.controller.abort(new Error(`aborted at request ${at}`));
          else {
            const error = fault.error();
            return txOf(this)._execRequestAsync({
              operation: () => {
                throw error;
              },
              source: this,
            });
          }
        }
        return original.apply(this, args);
      };
      restores.push(() => {
        proto[name] = original;
      });
    }
  };
  patch(IDBObjectStore.prototype as never, STORE_METHODS, (s) => (s as { transaction: Execs }).transaction);
  patch(
    IDBIndex.prototype as never,
    INDEX_METHODS,
    (s) => (s as { objectStore: { transaction: Execs } }).objectStore.transaction,
  );
  return {
    calls: () => calls,
    restore: () => {
      for (const undo of restores) undo();
    },
  };
}

export const quotaError = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

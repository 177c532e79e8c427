// The one place that reads `navigator.locks`: Web Locks, which let the tabs (and workers) of an
// origin agree on one writer of a store.

/**
 * The runtime's Web Locks, or undefined where there are none (Node, workerd, old browsers).
 *
 * @example
 * await defaultLocks()?.request('longship:notes', async () => writeEverything());
 */
export function defaultLocks(): LockManager | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.locks;
}

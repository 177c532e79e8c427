// One writer at a time per session and store: a session's state is one node whose meta is read,
// changed and written back (session-state.ts), by addMessage(), used(), a commit and
// recordDelivered(), whichever Session object or module they come through.

import { SerialQueue } from '../serial-queue.js';
import type { Store } from '../store/store.js';

interface Lock {
  queue: SerialQueue;
  /** Tasks given and not yet settled: at 0 the lock is dropped, so no id a process saw is kept. */
  tasks: number;
}

const locks = new WeakMap<Store, Map<string, Lock>>();

/**
 * Runs `task` once every earlier task on the same session of the same store has settled.
 *
 * @example
 * await withSessionLock(store, 'chat-1', async () => { const node = await store.node(uri); … });
 */
export function withSessionLock<T>(store: Store, sessionId: string, task: () => Promise<T>): Promise<T> {
  const sessions = locks.get(store) ?? new Map<string, Lock>();
  locks.set(store, sessions);
  const lock = sessions.get(sessionId) ?? { queue: new SerialQueue(), tasks: 0 };
  sessions.set(sessionId, lock);
  lock.tasks++;
  const result = lock.queue.run(task);
  const settled = () => {
    lock.tasks--;
    if (lock.tasks === 0 && sessions.get(sessionId) === lock) sessions.delete(sessionId);
  };
  result.then(settled, settled);
  return result;
}

// The one engine a worker holds for all its connections: opened under the Web Lock of its store by
// the first, closed when the last one leaves, and only then is the lock let go.

import type { Longship } from '../engine.js';
import type { Locks } from '../web-types.js';
import type { WorkerOptions } from './worker-options.js';

export type EngineSlot = ReturnType<typeof engineSlot>;

export function engineSlot(open: (options: WorkerOptions) => Promise<Longship>, locks: Locks | null) {
  let current: Promise<{ longship: Longship; release: () => void }> | undefined;
  let members = 0;
  const start = async (options: WorkerOptions, onWait?: () => void) => {
    const name = `longship:${options.name ?? 'longship'}`;
    const release = locks ? await holdLock(locks as LockManager, name, onWait) : () => {};
    try {
      return { longship: await open(options), release };
    } catch (error) {
      release();
      throw error;
    }
  };
  return {
    /** The engine, opened with the first member's options: later ones share it as it is. */
    async join(options: WorkerOptions, onWait?: () => void): Promise<Longship> {
      members++;
      current ??= start(options, onWait);
      const opening = current;
      try {
        return (await opening).longship;
      } catch (error) {
        members--;
        if (current === opening) current = undefined;
        throw error;
      }
    },
    /** Closes the engine when the last member leaves. */
    async leave(): Promise<void> {
      const closing = --members > 0 ? undefined : current;
      if (!closing) return;
      current = undefined;
      const opened = await closing.catch(() => undefined);
      try {
        await opened?.longship.close();
      } finally {
        // Only now may the next worker (another tab's) open the store.
        opened?.release();
      }
    },
  };
}

/**
 * Takes the lock and keeps it until the returned function is called. `onWait` hears that another
 * holder (another tab's worker) has it, before this one starts to wait.
 */
function holdLock(locks: LockManager, name: string, onWait?: () => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    let release!: () => void;
    const held = new Promise<void>((done) => {
      release = done;
    });
    const granted = () => {
      resolve(release);
      return held;
    };
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (lock) return granted();
        onWait?.();
        locks.request(name, granted).catch(reject);
        return undefined;
      })
      .catch(reject);
  });
}

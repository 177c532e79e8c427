// The one engine a worker holds for all its connections, opened under a Web Lock by the first and
// closed when the last one leaves.

import type { Longship } from '../engine.js';
import type { Locks } from '../web-types.js';
import type { WorkerOptions } from './worker-options.js';

export interface Opened {
  longship: Longship;
  /** What a page learns once the engine is open: `persistent` says whether its store outlives it. */
  info: { embedder: { id: string; dimensions: number }; persistent: boolean };
  release: () => void;
}

export interface EngineSlot {
  join(options: WorkerOptions, onWait?: () => void): Promise<Opened>;
  leave(): Promise<void>;
}

/** One engine for every connection: opened by the first, closed when the last one leaves. */
export function engineSlot(
  open: (options: WorkerOptions) => Promise<Longship>,
  locks: Locks | null,
): EngineSlot {
  let current: Promise<Opened> | undefined;
  let members = 0;
  const start = async (options: WorkerOptions, onWait?: () => void): Promise<Opened> => {
    const release = locks
      ? await holdLock(locks as LockManager, `longship:${options.name ?? 'longship'}`, onWait)
      : () => {};
    try {
      const longship = await open(options);
      const { id, dimensions } = longship.embedder;
      return { longship, release, info: { embedder: { id, dimensions }, persistent: longship.persistent } };
    } catch (error) {
      release();
      throw error;
    }
  };
  return {
    async join(options, onWait) {
      members++;
      current ??= start(options, onWait);
      const opening = current;
      try {
        return await opening;
      } catch (error) {
        members--;
        if (current === opening) current = undefined;
        throw error;
      }
    },
    async leave() {
      members--;
      if (members > 0 || !current) return;
      const closing = current;
      current = undefined;
      const opened = await closing.catch(() => undefined);
      if (!opened) return;
      try {
        await opened.longship.close();
      } finally {
        // Only now may the next worker (another tab's) open the store.
        opened.release();
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

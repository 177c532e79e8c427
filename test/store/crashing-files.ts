// A file system that stops at a chosen write, as a process killed there would: the writes before it
// happened (a killed process's writes are in the OS's cache), it and every later call do not.
import type { NodeFiles } from '../../src/env/node-files.js';

const MUTATING = new Set(['open', 'writeFile', 'rename', 'rm', 'mkdir', 'truncate', 'unlink', 'link']);
const MUTATING_SYNC = new Set(['openSync', 'writeSync', 'fsyncSync', 'renameSync', 'linkSync', 'rmSync']);
const MUTATING_HANDLE = new Set(['write', 'datasync', 'sync', 'truncate']);

export interface CrashingFiles {
  files: NodeFiles;
  /** How many writes (creations, writes, flushes, renames, removals) have been made. */
  writes(): number;
  crashed(): boolean;
}

/** `real`, until its `crashAt`-th write (1-based), which fails with every call after it. */
export function crashingFiles(real: NodeFiles, crashAt = Number.POSITIVE_INFINITY): CrashingFiles {
  let writes = 0;
  let crashed = false;
  const step = (mutating: boolean) => {
    if (crashed) throw new Error('crashed');
    if (!mutating) return;
    if (++writes >= crashAt) {
      crashed = true;
      throw new Error('crashed');
    }
  };
  const wrap = <T extends object>(target: T, mutating: Set<string>, inner?: (value: unknown) => unknown): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]) => {
          // The lock's renewal runs on a timer: not a step of the scenario, but dead after a crash.
          if (property !== 'utimes') step(mutating.has(property));
          else if (crashed) return Promise.reject(new Error('crashed'));
          const result = value.apply(object, args);
          return inner && result instanceof Promise ? result.then(inner) : result;
        };
      },
    });
  const handle = (value: unknown) =>
    typeof value === 'object' && value !== null && 'fd' in value ? wrap(value, MUTATING_HANDLE) : value;
  const promises = wrap(real.fs.promises, MUTATING, handle);
  const fs = wrap({ ...real.fs, promises } as NodeFiles['fs'], MUTATING_SYNC);
  return { files: { ...real, fs }, writes: () => writes, crashed: () => crashed };
}

// The one place the file store learns about the runtime: Node's file system modules (which Deno
// provides too), loaded with import() only when a file store is opened, so browser bundles never
// hold them; the process id; and whether another process is still alive (for stale locks).

import { LongshipError } from '../errors.js';

type Fs = typeof import('node:fs');
type Path = typeof import('node:path');
type Url = typeof import('node:url');
type V8 = typeof import('node:v8');

/** What the file store needs from the runtime. */
export interface NodeFiles {
  fs: Fs;
  path: Path;
  url: Url;
  /** Structured clone to bytes and back: records keep Dates, Maps, typed arrays in `meta`. */
  v8: Pick<V8, 'serialize' | 'deserialize'>;
  /** Runs `task` every `ms` without keeping the process alive for it; returns how to stop it. */
  every(ms: number, task: () => void): () => void;
  /** This process's id. */
  pid: number;
  /** Whether process `pid` still runs: true, false, or undefined where the runtime may not ask. */
  isAlive(pid: number): boolean | undefined;
}

/** True in Node and in Deno (whose `node:` modules the file store uses). */
export function hasNodeFiles(): boolean {
  return (
    (typeof process !== 'undefined' && typeof process.versions?.node === 'string') ||
    typeof (globalThis as { Deno?: unknown }).Deno !== 'undefined'
  );
}

/**
 * Node's `fs`, `path`, `url` and `v8`, where there are such modules (Node, Deno); else `STORE_ERROR`.
 *
 * @example
 * const { fs, path } = await loadNodeFiles();
 */
export async function loadNodeFiles(): Promise<NodeFiles> {
  if (!hasNodeFiles()) {
    throw new LongshipError('STORE_ERROR', 'a file store needs Node or Deno (their node:fs)');
  }
  // As few node: modules as will do: a browser bundler notes each one it meets (then never runs it).
  const [fs, path, url, v8] = await Promise.all([
    import('node:fs'),
    import('node:path'),
    import('node:url'),
    import('node:v8'),
  ]);
  return { fs, path, url, v8, every, pid: process.pid, isAlive };
}

function every(ms: number, task: () => void): () => void {
  const timer: unknown = setInterval(task, ms);
  // Node's timer is an object with unref(); Deno's is a number, unref'd through Deno.
  if (typeof (timer as { unref?: unknown }).unref === 'function') (timer as { unref(): void }).unref();
  else (globalThis as { Deno?: { unrefTimer?(id: unknown): void } }).Deno?.unrefTimer?.(timer);
  return () => clearInterval(timer as Parameters<typeof clearInterval>[0]);
}

function isAlive(pid: number): boolean | undefined {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ESRCH') return false;
    // Alive, but another user's.
    if (code === 'EPERM') return true;
  }
  // Deno without --allow-run may not signal (nor read /proc without --allow-all).
  return undefined;
}

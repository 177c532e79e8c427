// What the benchmark reads off the browser: a timed call of the engine through the service worker,
// the proportional set size of the browser's processes, and the store's folders in the profile.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Worker } from 'playwright-core';

/** The service worker's handle on the engine (examples/extension/src/background.js). */
interface ExtensionGlobal {
  longshipExtension: {
    callEngine(op: string, args: object): Promise<unknown>;
    savePage(p: object): Promise<unknown>;
  };
}

/** Milliseconds one engine operation takes, on the service worker's clock, and its answer. */
export async function timedCall(
  worker: Worker,
  op: string,
  args: object,
): Promise<{ ms: number; value: unknown }> {
  return worker.evaluate(
    async ([op, args]) => {
      const started = performance.now();
      const value = await (globalThis as unknown as ExtensionGlobal).longshipExtension.callEngine(op, args);
      return { ms: performance.now() - started, value };
    },
    [op, args] as const,
  );
}

/** Saves `pages` through the service worker's savePage(), `batch` at a time; returns milliseconds. */
export async function savePages(worker: Worker, pages: object[], batch: number): Promise<number> {
  const started = performance.now();
  for (let at = 0; at < pages.length; at += batch) {
    await worker.evaluate(
      (some) =>
        Promise.all(
          some.map((page) => (globalThis as unknown as ExtensionGlobal).longshipExtension.savePage(page)),
        ),
      pages.slice(at, at + batch),
    );
  }
  return performance.now() - started;
}

async function processes(): Promise<{ pid: number; ppid: number; cmdline: string }[]> {
  const all = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const statLine = await readFile(`/proc/${name}/stat`, 'utf8');
      // The command's name is in parentheses and may hold spaces: the fields after its ')' are fixed.
      const ppid = Number(statLine.slice(statLine.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').join(' ');
      all.push({ pid: Number(name), ppid, cmdline });
    } catch {
      // Gone since the listing.
    }
  }
  return all;
}

/**
 * PSS in bytes, from /proc/<pid>/smaps_rollup, of the browser started on `profile` and every process
 * under it (renderers, the GPU and utility processes, zygotes): docs/guide/extension.md, "What it costs".
 */
export async function browserPss(profile: string): Promise<number> {
  const all = await processes();
  const roots = all.filter(
    (p) => p.cmdline.includes(`--user-data-dir=${profile}`) && !p.cmdline.includes('--type='),
  );
  if (roots.length === 0) throw new Error(`no browser process runs on ${profile}`);
  const tree = new Set(roots.map((p) => p.pid));
  for (let grown = true; grown; ) {
    grown = false;
    for (const p of all)
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grown = true;
      }
  }
  let kb = 0;
  for (const pid of tree) {
    try {
      const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // Gone since the listing.
    }
  }
  return kb * 1024;
}

async function folderBytes(folder: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

/**
 * The store on disk, the browser closed: the extension's IndexedDB folders (its records) and the
 * profile's OPFS (the index snapshots; no other origin of the profile writes there).
 */
export async function storeOnDisk(
  profile: string,
  id: string,
): Promise<{ indexedDbBytes: number; opfsBytes: number }> {
  const indexedDb = join(profile, 'Default', 'IndexedDB');
  const ours = (await readdir(indexedDb).catch(() => [] as string[])).filter((name) =>
    name.startsWith(`chrome-extension_${id}_`),
  );
  let indexedDbBytes = 0;
  for (const name of ours) indexedDbBytes += await folderBytes(join(indexedDb, name));
  return { indexedDbBytes, opfsBytes: await folderBytes(join(profile, 'Default', 'File System')) };
}

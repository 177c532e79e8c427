// Runs test/store/file-store-child.ts in a child Node process and follows what it says.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Child {
  process: ChildProcess;
  /** Every whole line it has written to stdout so far. */
  lines: string[];
  /** Resolves with the first line starting with `prefix`; rejects if the child exits first. */
  line(prefix: string): Promise<string>;
  /** Resolves once it has exited (and been reaped), with its exit code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/**
 * The child script bundled into one file in `folder`, readable by every user: a child run as an
 * unprivileged user (where the tests run as root) may not be able to read the checkout, as under
 * /root, which only root can.
 */
export async function bundleChild(folder: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(folder, 'file-store-child.mjs');
  await build({
    entryPoints: [join(root, 'test/store/file-store-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'error',
  });
  chmodSync(outfile, 0o644);
  return outfile;
}

/** Starts the child script, or `bundled` (from {@link bundleChild}) where given. */
export function startChild(args: string[], options: SpawnOptions = {}, bundled?: string): Child {
  const command = bundled ? [bundled] : ['--import', 'tsx', 'test/store/file-store-child.ts'];
  const child = spawn(process.execPath, [...command, ...args], {
    cwd: bundled ? dirname(bundled) : root,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...options,
  });
  const lines: string[] = [];
  let partial = '';
  let errors = '';
  const waiting: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const w of waiting.filter((w) => line.startsWith(w.prefix))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    errors += text;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    lines,
    stderr: () => errors,
    exited,
    line(prefix) {
      const seen = lines.find((line) => line.startsWith(prefix));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiting.push({ prefix, resolve });
        void exited.then(({ code, signal }) =>
          reject(new Error(`the child exited (${code ?? signal}) before "${prefix}": ${errors}`)),
        );
      });
    },
  };
}

// Runs the `longship` command as a shell would: its source (src/cli/main.ts) through tsx, in a
// process of its own, with the bundled model.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openFileStore } from '../../src/index.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
export const cliMain = join(repo, 'src/cli/main.ts');
/** node's arguments that run the CLI's source: tsx by its path, as the command runs in other folders. */
export const cliArgs = [
  '--import',
  pathToFileURL(join(repo, 'node_modules/tsx/dist/loader.mjs')).href,
  cliMain,
];

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `longship ...args` in `cwd`; resolves with its exit code and output, whatever the code.
 * `nodeArgs` go to node before the CLI's own (a loader, say).
 */
export function longship(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeArgs, ...cliArgs, ...args],
      { cwd, env: { ...process.env, LONGSHIP_STORE: '', NODE_PATH: '', ...env }, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        if (typeof code !== 'number') reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Starts `longship ...args` in `cwd` without waiting for it (to signal it). */
export function startLongship(args: readonly string[], cwd: string) {
  return spawn(process.execPath, [...cliArgs, ...args], { cwd, stdio: 'pipe' });
}

/**
 * The store's last commit, read with the store alone (no embedder, so nothing is recorded): what
 * "nothing written" compares. Bytes would not do: each close logs that old changes may be pruned.
 */
export async function lastCommit(folder: string): Promise<number> {
  const store = await openFileStore(folder);
  try {
    return (await store.meta()).seq;
  } finally {
    await store.close();
  }
}

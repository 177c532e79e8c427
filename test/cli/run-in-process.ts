// Runs the `longship` command in this process (src/cli/run.ts), with its streams caught: for tests
// that compare its output with the other surfaces' or pretend stdout is a terminal.
import { runCli } from '../../src/cli/run.js';
import type { CliRun } from './run-cli.js';

/** Runs `longship ...args` in `cwd`; `tty` makes stdout a terminal of that many columns. */
export async function longshipHere(
  args: readonly string[],
  cwd: string,
  tty?: { columns: number },
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text), isTTY: tty !== undefined, columns: tty?.columns },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd,
  };
  const code = await runCli(args, io, new AbortController().signal);
  return { code, stdout, stderr };
}

#!/usr/bin/env node
// The `longship` command (package.json `bin`, docs/guide/cli.md): the process's side of it. Everything
// else is src/cli/run.ts, which takes the streams and the environment as arguments.

import { LongshipError } from '../errors.js';
import { runCli } from './run.js';

const stopping = new AbortController();
function stop(signal: NodeJS.Signals): void {
  // A second Ctrl-C does not wait for the first to finish cleanly.
  if (stopping.signal.aborted) process.exit(130);
  stopping.abort(new LongshipError('ABORTED', `stopped by ${signal}`));
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// `longship ls | head -1`: the reader left; that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await runCli(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() },
  stopping.signal,
);

// The one place that reads the process's standard streams (the MCP server's stdio transport).

import type { Readable, Writable } from 'node:stream';

export interface StdioStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** Node's (and Deno's Node-compatible) standard streams; undefined in browsers and workerd. */
export function processStdio(): StdioStreams | undefined {
  if (typeof process === 'undefined' || !process.versions?.node) return undefined;
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}

// What a command writes: one JSON document on stdout with --json, concise lines for people
// otherwise; diagnostics (progress, warnings, errors) on stderr, so stdout stays the result.

import { LongshipError } from '../errors.js';

/** A writable terminal stream: process.stdout or stderr, or a test's stand-in. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** The process's streams and environment, as the commands see them. */
export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Writes `value` as the command's one JSON document. */
export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes `lines` to stdout, each cut to the terminal's width when stdout is one. */
export function printLines(io: Io, lines: readonly string[]): void {
  const width = io.stdout.isTTY ? io.stdout.columns : undefined;
  for (const line of lines) io.stdout.write(`${width ? clip(line, width) : line}\n`);
}

/** `text` on one line: runs of whitespace (newlines too) become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `text` cut to `width` characters, with an ellipsis where it was cut. */
export function clip(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** `value` padded with spaces to `width` characters. */
export function pad(value: string, width: number): string {
  return value + ' '.repeat(Math.max(0, width - [...value].length));
}

/** An error as --json reports it: the LongshipError code (`INTERNAL` for anything else) and message. */
export function errorJson(error: unknown): { code: string; message: string } {
  if (error instanceof LongshipError) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}

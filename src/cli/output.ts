// What a command writes: one JSON document on stdout with --json, concise lines for people
// otherwise; diagnostics (progress, warnings, errors) on stderr, so stdout stays the result. Text
// for people passes visible() on its way out: a document's control characters could otherwise
// retitle the terminal, clear it or recolour what follows (docs/guide/cli.md, "Output").

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

/**
 * Writes `value` as the command's one JSON document. JSON.stringify escapes C0 controls but leaves
 * DEL and C1 (a terminal may take U+009B as CSI) as they are; they can stand only inside strings,
 * where `\u00XX` is the same JSON.
 */
export function printJson(io: Io, value: unknown): void {
  const json = JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u${hex(c, 4)}`);
  io.stdout.write(`${json}\n`);
}

/** Writes `lines` to stdout, each made visible, then cut to the terminal's width when stdout is one. */
export function printLines(io: Io, lines: readonly string[]): void {
  const width = io.stdout.isTTY ? io.stdout.columns : undefined;
  for (const line of lines) {
    const shown = visible(line, 'line');
    io.stdout.write(`${width ? clip(shown, width) : shown}\n`);
  }
}

/**
 * Writes a document's text (read, context) to stdout, ending in a newline: made visible on a
 * terminal (newlines and tabs kept), as it is in a pipe, where it is data for another program.
 */
export function printText(io: Io, text: string): void {
  const shown = io.stdout.isTTY ? visible(text, 'text') : text;
  io.stdout.write(shown.endsWith('\n') || shown === '' ? shown : `${shown}\n`);
}

/** Writes `lines` to stderr, each made visible (they may name a document). */
export function printNotes(io: Io, lines: readonly string[]): void {
  for (const line of lines) io.stderr.write(`${visible(line, 'line')}\n`);
}

/**
 * `text` with every control character (C0, DEL, C1: Unicode's Cc) but those its shape allows (a
 * `line` keeps tabs; a `text` keeps tabs and newlines) written as a visible `\xNN`: ESC (`\x1b`),
 * CSI (`\x9b`), BEL, CR and the rest reach the terminal as four characters, so no escape sequence does.
 *
 * @example
 * visible('\x1b]0;pwned\x07title', 'line'); // '\\x1b]0;pwned\\x07title'
 */
export function visible(text: string, shape: 'line' | 'text'): string {
  return text.replace(/\p{Cc}/gu, (c) =>
    c === '\t' || (c === '\n' && shape === 'text') ? c : `\\x${hex(c, 2)}`,
  );
}

const hex = (c: string, digits: number) => c.charCodeAt(0).toString(16).padStart(digits, '0');

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

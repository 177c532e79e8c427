/**
 * The checks every text written into the tree passes, from ingestion or from write(): refused when
 * binary (`BINARY_INPUT`) or too large (`INPUT_TOO_LARGE`). Ingestion runs them on what it decodes
 * (ingest/parse/decode.ts) before it parses.
 */
import { LongshipError } from '../errors.js';

/** 10 MB: a whole book is about 1 MB of text; anything larger is almost always data, not prose. */
export const defaultMaxBytes = 10 * 1024 * 1024;

/** Share of control characters above which text is called binary (git uses a similar rule). */
const CONTROL_RATIO = 0.1;
/** Only a prefix is scanned for control characters: binary formats show it in their first bytes. */
export const SCAN_CHARS = 64 * 1024;

function tooLarge(name: string, byteLength: number, maxBytes: number): LongshipError {
  return new LongshipError(
    'INPUT_TOO_LARGE',
    `${name} is ${byteLength} bytes; the limit is ${maxBytes} bytes (raise maxBytes to accept it)`,
  );
}

/**
 * Throws `INPUT_TOO_LARGE` when `byteLength` exceeds `maxBytes`; cheap, so call it before reading.
 *
 * @example
 * checkSize('report.md', file.size, defaultMaxBytes);
 */
export function checkSize(name: string, byteLength: number, maxBytes: number): void {
  if (byteLength > maxBytes) throw tooLarge(name, byteLength, maxBytes);
}

/**
 * Throws `BINARY_INPUT` when decoded text holds a NUL or mostly control characters (tab, newlines,
 * form feed and escape are allowed: they occur in logs and terminal captures).
 *
 * @example
 * checkText('notes.txt', text);
 */
export function checkText(name: string, text: string): void {
  const end = Math.min(text.length, SCAN_CHARS);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) throw new LongshipError('BINARY_INPUT', `${name} contains a NUL character at index ${i}`);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b) || c === 0x7f)
      control++;
  }
  if (end > 0 && control / end > CONTROL_RATIO) {
    const percent = Math.round((100 * control) / end);
    throw new LongshipError('BINARY_INPUT', `${name} is ${percent}% control characters; it looks binary`);
  }
}

/**
 * Checks the size of a string in UTF-8 bytes without encoding it when the answer is clear.
 *
 * @example
 * checkStringSize('pasted text', text, defaultMaxBytes);
 */
export function checkStringSize(name: string, text: string, maxBytes: number): void {
  // A UTF-16 unit is 1 to 3 UTF-8 bytes, so only the range in between needs the exact count.
  if (text.length * 3 <= maxBytes) return;
  if (text.length > maxBytes) throw tooLarge(name, text.length, maxBytes);
  checkSize(name, new TextEncoder().encode(text).byteLength, maxBytes);
}

// Newline-delimited messages out of a byte stream (MCP's stdio framing), with a limit on a line's
// size. A line over the limit is not kept: only its first and last bytes are, so that its id can
// still be read and answered (stdio-transport.ts, recoverMessageId) while the rest streams past.

/** How much of an oversized line's start and end is kept: an id sits within a few dozen bytes. */
const KEPT_BYTES = 1024;
const NEWLINE = 0x0a;

/** A whole line, or one over the limit with its byteLength and the text of its two ends. */
export type Line =
  | { kind: 'text'; text: string }
  | { kind: 'too-long'; byteLength: number; head: string; tail: string };

/**
 * Splits chunks of bytes into lines of at most `maxBytes` bytes (not counting the newline).
 *
 * @example
 * const reader = new LineReader(1024);
 * stdin.on('data', (chunk) => { for (const line of reader.push(chunk)) handle(line); });
 */
export class LineReader {
  readonly #maxBytes: number;
  readonly #decoder = new TextDecoder();
  /** The current line's bytes while it is within the limit. */
  #pieces: Uint8Array[] = [];
  #byteLength = 0;
  /** Set once the current line is over the limit: its first bytes; then `#tail` its last. */
  #head: Uint8Array | undefined;
  #tail: Uint8Array = new Uint8Array(0);

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The lines that `chunk` completes; a partial line waits for the next chunk. */
  push(chunk: Uint8Array): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.#add(chunk.subarray(start, end));
      lines.push(this.#take());
      start = end + 1;
    }
    this.#add(chunk.subarray(start));
    return lines;
  }

  #add(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.#byteLength += bytes.byteLength;
    if (this.#head !== undefined) {
      this.#tail = lastBytes([this.#tail, bytes]);
    } else if (this.#byteLength <= this.#maxBytes) {
      this.#pieces.push(bytes);
    } else {
      this.#pieces.push(bytes);
      this.#head = firstBytes(this.#pieces);
      this.#tail = lastBytes(this.#pieces);
      this.#pieces = [];
    }
  }

  #take(): Line {
    const line: Line =
      this.#head === undefined
        ? { kind: 'text', text: this.#decode(concat(this.#pieces)) }
        : {
            kind: 'too-long',
            byteLength: this.#byteLength,
            head: this.#decode(this.#head),
            tail: this.#decode(this.#tail),
          };
    this.#pieces = [];
    this.#byteLength = 0;
    this.#head = undefined;
    this.#tail = new Uint8Array(0);
    return line;
  }

  /** UTF-8 to text, without the `\r` of a CRLF line end (as the SDK's own reader does). */
  #decode(bytes: Uint8Array): string {
    const text = this.#decoder.decode(bytes);
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  const whole = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.byteLength, 0));
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.byteLength;
  }
  return whole;
}

/** A copy of the first KEPT_BYTES of `pieces`, which holds no reference to the chunks. */
function firstBytes(pieces: readonly Uint8Array[]): Uint8Array {
  const kept: Uint8Array[] = [];
  let byteLength = 0;
  for (const piece of pieces) {
    if (byteLength === KEPT_BYTES) break;
    const part = piece.subarray(0, KEPT_BYTES - byteLength);
    kept.push(part);
    byteLength += part.byteLength;
  }
  return concat(kept).slice();
}

/** A copy of the last KEPT_BYTES of `pieces`. */
function lastBytes(pieces: readonly Uint8Array[]): Uint8Array {
  const kept: Uint8Array[] = [];
  let byteLength = 0;
  for (let i = pieces.length - 1; i >= 0 && byteLength < KEPT_BYTES; i--) {
    const piece = pieces[i] as Uint8Array;
    const part = piece.subarray(Math.max(0, piece.byteLength - (KEPT_BYTES - byteLength)));
    kept.unshift(part);
    byteLength += part.byteLength;
  }
  return concat(kept).slice();
}

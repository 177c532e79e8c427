/**
 * Bytes to text for ingestion, with the tree's text checks (context/text-checks.ts). Kept apart from
 * ../input.ts so that a caller holding bytes (a store export, a queue job) can decode the same way.
 */
import { checkSize, checkText, SCAN_CHARS } from '../../context/text-checks.js';
import { LongshipError } from '../../errors.js';

/** The decoder label for `bytes`: a byte-order mark wins over a declared charset, which wins over UTF-8. */
function encodingOf(bytes: Uint8Array, charset: string | undefined): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return charset?.toLowerCase().replace(/^utf8$/, 'utf-8') ?? 'utf-8';
}

/**
 * Decodes bytes as UTF-8 (or UTF-16 when a byte-order mark says so, or `charset` when a server
 * declared one), refusing binary data with `BINARY_INPUT` and more than `maxBytes` with
 * `INPUT_TOO_LARGE`. A leading BOM is dropped.
 *
 * @example
 * const text = decodeText('notes.md', new Uint8Array(await file.arrayBuffer()), defaultMaxBytes);
 */
export function decodeText(name: string, bytes: Uint8Array, maxBytes: number, charset?: string): string {
  checkSize(name, bytes.byteLength, maxBytes);
  const encoding = encodingOf(bytes, charset);
  // UTF-8 text never holds a zero byte except for NUL itself; checking bytes first gives binary
  // files (images, archives) the clearer message before the decoder trips over them.
  if (encoding === 'utf-8') {
    const zero = bytes.subarray(0, SCAN_CHARS).indexOf(0);
    if (zero !== -1)
      throw new LongshipError('BINARY_INPUT', `${name} contains a zero byte at offset ${zero}`);
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch (cause) {
    throw new LongshipError('UNSUPPORTED_INPUT', `${name} declares an unknown charset "${encoding}"`, {
      cause,
    });
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch (cause) {
    throw new LongshipError('BINARY_INPUT', `${name} is not valid ${encoding.toUpperCase()} text`, { cause });
  }
  checkText(name, text);
  return text;
}

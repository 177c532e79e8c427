// Reads a ZIP from the front, one entry at a time (fflate's streaming Unzip), under limits that a
// zip bomb cannot pass: the bytes inflated in all, and their ratio to the bytes read.

import { Unzip, type UnzipFile, UnzipInflate } from 'fflate';
import { throwIfAborted } from '../abort.js';
import { LongshipError } from '../errors.js';
import { corrupt } from './format.js';

/** One member of the ZIP, its bytes inflated. Directories end in `/` and have no bytes. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

export interface ZipLimits {
  /** Most bytes inflated, over all entries. */
  maxBytes: number;
  /** Most bytes inflated per byte read, once past {@link RATIO_FLOOR}. */
  maxRatio: number;
}

/** Inflated bytes below which the ratio is not checked: small packs of small files inflate well. */
export const RATIO_FLOOR = 1024 * 1024;

/** How much of the pack is read at a time. */
const SLICE = 256 * 1024;

/**
 * The entries of the ZIP in `pack`, in the order they lie in it. Fails with `CORRUPT_INPUT` for a
 * damaged or truncated ZIP or an unsupported compression, `INPUT_TOO_LARGE` past `limits`.
 */
export async function* zipEntries(
  pack: Blob,
  limits: ZipLimits,
  signal?: AbortSignal,
): AsyncGenerator<ZipEntry> {
  const ready: ZipEntry[] = [];
  let failure: unknown;
  let read = 0;
  let inflated = 0;
  let open = 0;
  let seen = 0;
  const unzip = new Unzip((file: UnzipFile) => {
    const parts: Uint8Array[] = [];
    seen++;
    open++;
    file.ondata = (error, data, final) => {
      if (failure !== undefined) return;
      if (error) {
        failure = new LongshipError('CORRUPT_INPUT', `ovpack: cannot inflate ${file.name}`, { cause: error });
        return;
      }
      inflated += data.length;
      if (inflated > limits.maxBytes || (inflated > RATIO_FLOOR && inflated > limits.maxRatio * read)) {
        failure = new LongshipError(
          'INPUT_TOO_LARGE',
          inflated > limits.maxBytes
            ? `ovpack: more than ${limits.maxBytes} bytes inflated (maxBytes)`
            : `ovpack: inflates more than ${limits.maxRatio} times its size: a zip bomb`,
        );
        file.terminate();
        return;
      }
      parts.push(data);
      if (final) {
        open--;
        ready.push({ name: file.name, data: concat(parts) });
      }
    };
    try {
      file.start();
    } catch (error) {
      failure = new LongshipError(
        'CORRUPT_INPUT',
        `ovpack: ${file.name} uses compression method ${file.compression}, which is not supported`,
        { cause: error },
      );
    }
  });
  unzip.register(UnzipInflate);
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      unzip.push(chunk, final);
    } catch (error) {
      failure ??= new LongshipError('CORRUPT_INPUT', 'ovpack: not a readable ZIP', { cause: error });
    }
    if (failure !== undefined) throw failure;
  };
  for (let at = 0; at < pack.size; at += SLICE) {
    throwIfAborted(signal, 'ovpack');
    const chunk = new Uint8Array(await pack.slice(at, at + SLICE).arrayBuffer());
    read += chunk.length;
    push(chunk, false);
    yield* ready.splice(0);
  }
  push(new Uint8Array(0), true);
  yield* ready.splice(0);
  if (open > 0) corrupt('the ZIP ends inside an entry (truncated)');
  if (seen === 0) corrupt('not a ZIP, or a ZIP without entries');
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

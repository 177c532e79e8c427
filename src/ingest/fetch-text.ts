/**
 * Fetching a URL input with the caller's fetch function: never the global one, so ingestion only
 * reaches the network where the embedding app decided it may. Every failure is a LongshipError.
 */
import { abortError } from '../abort.js';
import { checkSize } from '../context/text-checks.js';
import { LongshipError } from '../errors.js';

/** Types whose bodies are text; anything else (images, PDFs, archives) is refused before reading. */
const TEXTUAL_MIME =
  /^(?:text\/|application\/(?:json|xml|javascript|x-javascript|ecmascript|x-ndjson|x-sh|sql|toml|yaml|x-yaml)\b)|\+(?:json|xml)\b/i;

export interface FetchedBody {
  /** The last path segment of the URL (decoded), else its host: what a browser would save it as. */
  name: string;
  bytes: Uint8Array;
  mime?: string;
  charset?: string;
}

function nameOf(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (!last) return url.hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** Reads a body chunk by chunk so that a server lying about (or omitting) its length cannot flood memory. */
async function readLimited(url: URL, response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    checkSize(url.href, declared, maxBytes);
  }
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    total += r.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      checkSize(url.href, total, maxBytes);
    }
    chunks.push(r.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A fetch failure as a LongshipError: `ABORTED` when the caller's signal fired, else `REMOTE_HTTP`. */
function failure(what: string, cause: unknown, signal: AbortSignal | undefined): LongshipError {
  if (cause instanceof LongshipError) return cause;
  if (signal?.aborted) return abortError(signal, what);
  return new LongshipError('REMOTE_HTTP', `${what} failed`, { cause });
}

/**
 * Fetches `url` and reads at most `maxBytes` of a textual body. Throws `REMOTE_HTTP` (unreachable,
 * non-2xx), `BINARY_INPUT` (a non-text Content-Type), `INPUT_TOO_LARGE` or `ABORTED`.
 *
 * @example
 * const { name, bytes, charset } = await fetchText(new URL('https://example.com/a.md'), fetch, 1e7);
 */
export async function fetchText(
  url: URL,
  fetch: (url: URL, init?: RequestInit) => Promise<Response>,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<FetchedBody> {
  let response: Response;
  try {
    response = await fetch(url, signal ? { signal } : {});
  } catch (cause) {
    throw failure(`fetching ${url.href}`, cause, signal);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new LongshipError(
      'REMOTE_HTTP',
      `${url.href} answered ${response.status} ${response.statusText}`.trim(),
    );
  }
  const mime = response.headers.get('content-type') ?? undefined;
  if (mime && !TEXTUAL_MIME.test(mime)) {
    await response.body?.cancel();
    throw new LongshipError('BINARY_INPUT', `${url.href} is ${mime.split(';')[0]}, not text`);
  }
  const charset = mime ? /;\s*charset="?([\w-]+)/i.exec(mime)?.[1] : undefined;
  try {
    const bytes = await readLimited(url, response, maxBytes);
    return { name: nameOf(url), bytes, ...(mime ? { mime } : {}), ...(charset ? { charset } : {}) };
  } catch (cause) {
    throw failure(`reading ${url.href}`, cause, signal);
  }
}

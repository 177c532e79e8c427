/**
 * Names for URI segments. Every name made here passes `parseUri` inside any parent: no `/`, `\`,
 * `%`, `?`, `#`, control characters or unpaired surrogates, never `.` or `..`, at most
 * `uriLimits.segmentBytes` UTF-8 bytes, and already in NFC so parsing does not change it.
 */
import { uriLimits } from '../context/uri.js';

const utf8 = new TextEncoder();
/** Long enough to tell headings apart, short enough that deep trees stay far from the URI length limit. */
const SLUG_BYTES = 80;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const FORBIDDEN = /[%\\/?#\p{Cc}]/gu;

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, never splitting a code point. */
function clipBytes(text: string, maxBytes: number): string {
  if (utf8.encode(text).byteLength <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8.encode(char).byteLength;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * A readable segment from any text: lower-case letters, digits and marks of any script, runs of
 * anything else as one `-`, at most 80 bytes; `fallback` when nothing is left.
 *
 * @example
 * slugify('2.1 Getting Started — Überblick!'); // '2-1-getting-started-überblick'
 */
export function slugify(text: string, fallback = 'section'): string {
  const slug = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .normalize('NFC');
  const clipped = clipBytes(slug.replace(/^-+/, ''), SLUG_BYTES).replace(/-+$/, '');
  return clipped === '' ? fallback : clipped;
}

/**
 * A file or directory name kept close to what the user called it (case, spaces and extension
 * stay); only what a URI segment cannot hold is replaced by `-`, and long names are clipped
 * before the extension.
 *
 * @example
 * safeName('Q3 report #2.md'); // 'Q3 report -2.md'
 */
export function safeName(name: string, fallback = 'untitled'): string {
  let safe = name.replace(LONE_SURROGATE, '-').normalize('NFC').replace(FORBIDDEN, '-').trim();
  if (safe === '.' || safe === '..' || safe === '') return fallback;
  const max = uriLimits.segmentBytes;
  if (utf8.encode(safe).byteLength > max) {
    const dot = safe.lastIndexOf('.');
    const ext = dot > 0 && safe.length - dot <= 16 ? safe.slice(dot) : '';
    safe = clipBytes(safe.slice(0, safe.length - ext.length), max - utf8.encode(ext).byteLength) + ext;
  }
  return safe;
}

/**
 * `name` if no sibling has it yet, else `name-2`, `name-3`, … (before the extension when
 * `keepExtension`), and records the result in `taken`.
 *
 * @example
 * const taken = new Set<string>(); uniqueName('intro', taken); uniqueName('intro', taken); // 'intro-2'
 */
export function uniqueName(name: string, taken: Set<string>, keepExtension = false): string {
  let result = name;
  const dot = keepExtension ? name.lastIndexOf('.') : -1;
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; taken.has(result); n++) {
    const suffix = `-${n}${ext}`;
    result = clipBytes(stem, uriLimits.segmentBytes - utf8.encode(suffix).byteLength) + suffix;
  }
  taken.add(result);
  return result;
}

/**
 * `viking://` URIs: the names of everything Longship stores. A {@link VikingUri} is always in
 * canonical form, so two URIs name the same node exactly when their strings are equal, and string
 * equality is what stores and indexes key on.
 *
 * Canonical form: `viking://` then non-empty segments joined by single `/`; no trailing `/`; the
 * top is `viking://` itself. Segments are stored percent-decoded, in Unicode NFC, and case-sensitive.
 *
 * Percent-encoding only transports characters that are allowed anyway (`my%20notes` → `my notes`).
 * A decoded segment must pass the same checks as a raw one: otherwise `%2F`, `%2e%2e` or `%00` would
 * smuggle in what the raw form refuses, and re-parsing the stored (decoded) form would change it. For
 * the same reason a segment cannot contain `%` at all, not even as `%25`: a stored `%41` would
 * decode to `A` on the next parse.
 */
import { LongshipError } from '../errors.js';
import type { ContextType } from '../store/store.js';

declare const brand: unique symbol;

/** A `viking://` URI in canonical form. Make one with {@link parseUri} or {@link join}. */
export type VikingUri = string & { readonly [brand]: 'VikingUri' };

const PREFIX = 'viking://';
const TOP = PREFIX as VikingUri;
const utf8 = new TextEncoder();

/**
 * Limits on a URI. `segmentBytes` is the common file-name limit, so any segment can be a file name
 * on export; `length` applies both to the text passed in and to the canonical result.
 *
 * @example
 * if (new TextEncoder().encode(name).length > uriLimits.segmentBytes) name = shorten(name);
 */
export const uriLimits = { length: 4096, segments: 64, segmentBytes: 255 } as const;

function fail(subject: string, problem: string): never {
  throw new LongshipError('INVALID_URI', `${subject}: ${problem}`);
}

const hex4 = (code: number) => code.toString(16).toUpperCase().padStart(4, '0');

/** Quotes text for a message, with invisible characters escaped and long text cut. */
function show(text: string): string {
  const cut = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return JSON.stringify(cut).replace(/[\u007f-\u009f]/g, (c) => `\\u${hex4(c.charCodeAt(0)).toLowerCase()}`);
}

/** The first character a segment may not hold, and why; `decoded` adds what only escapes can carry. */
function forbidden(text: string, decoded: boolean): { index: number; what: string } | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let what: string | undefined;
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) {
      what = `control character U+${hex4(c)}`;
    } else if (c === 0x5c) {
      what = 'a backslash (a path separator on Windows, hence a traversal vector)';
    } else if (c === 0x3f || c === 0x23) {
      what = `"${text[i]}" (viking:// URIs have no query string or fragment)`;
    } else if (decoded && c === 0x2f) {
      what = '"/" inside a segment';
    } else if (decoded && c === 0x25) {
      what = '"%" (segments are stored decoded, so a "%" would be re-decoded on the next parse)';
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
      else what = 'an unpaired UTF-16 surrogate (not encodable as UTF-8)';
    }
    if (what) return { index: i, what };
  }
  return undefined;
}

/** Splits on `/`, dropping empty parts (so `a//b/` is `a/b`), and keeps each part's offset for messages. */
function split(path: string): { text: string; offset: number }[] {
  const parts: { text: string; offset: number }[] = [];
  let offset = 0;
  for (const text of path.split('/')) {
    if (text !== '') parts.push({ text, offset });
    offset += text.length + 1;
  }
  return parts;
}

/** Decodes, normalises and checks one raw segment; `offset` is its index in the text the caller passed. */
function normaliseSegment(raw: string, subject: string, where: string, offset: number): string {
  const bad = forbidden(raw, false);
  if (bad) fail(subject, `${where} contains ${bad.what} at index ${offset + bad.index}`);
  for (let i = raw.indexOf('%'); i !== -1; i = raw.indexOf('%', i + 1)) {
    const triplet = raw.slice(i, i + 3);
    if (!/^%[0-9A-Fa-f]{2}$/.test(triplet)) {
      fail(subject, `${where} has a malformed percent-escape ${show(triplet)} at index ${offset + i}`);
    }
  }
  let value: string;
  try {
    value = decodeURIComponent(raw).normalize('NFC');
  } catch {
    fail(subject, `${where} ${show(raw)} percent-decodes to bytes that are not UTF-8`);
  }
  const smuggled = forbidden(value, true);
  if (smuggled) fail(subject, `${where} ${show(raw)} decodes to ${smuggled.what}`);
  // Refused, never resolved: resolving `..` is how a path escapes the subtree it was joined to.
  if (value === '.' || value === '..') {
    const shown = value === raw ? show(raw) : `${show(raw)} (decoded: ${show(value)})`;
    fail(subject, `${where} ${shown} is a dot-segment; "." and ".." are refused`);
  }
  const bytes = utf8.encode(value).byteLength;
  if (bytes > uriLimits.segmentBytes) {
    fail(subject, `${where} is ${bytes} UTF-8 bytes long; the limit is ${uriLimits.segmentBytes}`);
  }
  return value;
}

/** Joins checked segments into the canonical form and applies the whole-URI limits. */
function build(parts: readonly string[], subject: string): VikingUri {
  if (parts.length > uriLimits.segments) {
    fail(subject, `it has ${parts.length} segments; the limit is ${uriLimits.segments}`);
  }
  const uri = PREFIX + parts.join('/');
  if (uri.length > uriLimits.length) {
    fail(subject, `the normalised URI is ${uri.length} characters long; the limit is ${uriLimits.length}`);
  }
  return uri as VikingUri;
}

/**
 * Normalises `input` to a {@link VikingUri}, or throws `LongshipError('INVALID_URI')` saying what is
 * wrong and where (segments are numbered from 1, indexes count UTF-16 units of `input`).
 *
 * @example
 * parseUri('VIKING://resources//docs/my%20notes/'); // 'viking://resources/docs/my notes'
 */
export function parseUri(input: string): VikingUri {
  if (typeof input !== 'string') fail('Invalid viking:// URI', `expected a string, got ${typeof input}`);
  if (input === '') fail('Invalid viking:// URI', 'it is empty');
  const subject = `Invalid viking:// URI ${show(input)}`;
  // Checked before any work, so a huge input costs nothing.
  if (input.length > uriLimits.length) {
    fail(subject, `it is ${input.length} characters long; the limit is ${uriLimits.length}`);
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(input)?.[1];
  if (scheme === undefined) fail(subject, 'it has no scheme; expected it to start with "viking://"');
  if (scheme.toLowerCase() !== 'viking')
    fail(subject, `its scheme is "${scheme}"; only "viking://" is accepted`);
  if (!input.startsWith('//', 7)) fail(subject, 'expected "//" after "viking:"');
  const names = split(input.slice(PREFIX.length)).map((p, k) =>
    normaliseSegment(p.text, subject, `segment ${k + 1}`, PREFIX.length + p.offset),
  );
  return build(names, subject);
}

/**
 * Whether `value` is already a canonical {@link VikingUri}. `'VIKING://a/'` parses, but is not one.
 *
 * @example
 * if (isVikingUri(message.uri)) store.node(message.uri);
 */
export function isVikingUri(value: unknown): value is VikingUri {
  if (typeof value !== 'string') return false;
  try {
    return parseUri(value) === value;
  } catch {
    return false;
  }
}

/**
 * The decoded segments of `uri`; `[]` for the top `viking://`.
 *
 * @example
 * segments(parseUri('viking://user/alice/memories')); // ['user', 'alice', 'memories']
 */
export function segments(uri: VikingUri): string[] {
  return uri === TOP ? [] : uri.slice(PREFIX.length).split('/');
}

/**
 * The URI one segment up; `undefined` for the top `viking://`.
 *
 * @example
 * parentOf(parseUri('viking://resources/docs')); // 'viking://resources'
 */
export function parentOf(uri: VikingUri): VikingUri | undefined {
  if (uri === TOP) return undefined;
  const slash = uri.lastIndexOf('/');
  // The only `/` may be the second one of `viking://`: then the parent is the top.
  return slash < PREFIX.length ? TOP : (uri.slice(0, slash) as VikingUri);
}

/**
 * The last segment of `uri`; `''` for the top `viking://` (as `path.basename('/')`).
 *
 * @example
 * basename(parseUri('viking://resources/docs/readme.md')); // 'readme.md'
 */
export function basename(uri: VikingUri): string {
  return uri === TOP ? '' : uri.slice(uri.lastIndexOf('/') + 1);
}

/**
 * Appends relative paths to `base`, split on `/` and checked segment by segment as {@link parseUri}
 * does, so `..` is refused, never resolved, and the result is always within `base`. An empty path,
 * one starting with `/` or an absolute URI is refused too: the caller most likely meant something else.
 *
 * @example
 * join(parseUri('viking://resources'), 'docs/guide', 'intro.md'); // 'viking://resources/docs/guide/intro.md'
 */
export function join(base: VikingUri, ...paths: string[]): VikingUri {
  const names = segments(base);
  paths.forEach((path, n) => {
    const subject = `Cannot join relative path #${n + 1} ${show(String(path))} to ${show(base)}`;
    if (typeof path !== 'string') fail(subject, `expected a string, got ${typeof path}`);
    if (path.startsWith('/')) fail(subject, 'it starts with "/"; relative paths must not');
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(path)) fail(subject, 'it is an absolute URI; use parseUri');
    const parts = split(path);
    if (parts.length === 0) fail(subject, 'it is empty');
    for (const [k, p] of parts.entries())
      names.push(normaliseSegment(p.text, subject, `segment ${k + 1}`, p.offset));
  });
  return build(names, `Cannot join ${paths.length} path(s) to ${show(base)}`);
}

/**
 * Whether `uri` is `ancestor` or below it, segment by segment: `viking://resources/ab` is not within
 * `viking://resources/a`. Everything is within the top `viking://`.
 *
 * @example
 * isWithin(parseUri('viking://user/alice/memories/events/x'), parseUri('viking://user/alice')); // true
 */
export function isWithin(uri: VikingUri, ancestor: VikingUri): boolean {
  // Canonical segments hold no `/`, so a prefix ending at a `/` is a segment-wise prefix.
  return ancestor === TOP || uri === ancestor || uri.startsWith(`${ancestor}/`);
}

/**
 * The path from `ancestor` down to `uri` (`''` when equal), or `undefined` when `uri` is not within
 * it. `join(ancestor, relativeTo(uri, ancestor))` gives back `uri` when they differ.
 *
 * @example
 * relativeTo(parseUri('viking://resources/docs/a.md'), parseUri('viking://resources')); // 'docs/a.md'
 */
export function relativeTo(uri: VikingUri, ancestor: VikingUri): string | undefined {
  if (!isWithin(uri, ancestor)) return undefined;
  if (uri === ancestor) return '';
  return uri.slice(ancestor === TOP ? PREFIX.length : ancestor.length + 1);
}

/** What each content segment holds, under `viking://user/{user}/…` and `viking://agent/{agent}/…`. */
const CONTENT: Readonly<Record<string, ContextType>> = {
  memories: 'memory',
  resources: 'resource',
  skills: 'skill',
};

/**
 * Names that cannot be user or agent ids (docs/guide/namespaces.md): the segments that followed
 * `viking://user` when spaces had no id, so that an old URI (`viking://user/default/memories/…`) is never
 * read as the space of a user named "memories"; and `skills`, the shared `viking://agent/skills`.
 */
export const reservedNames: ReadonlySet<string> = new Set([
  'memories',
  'resources',
  'skills',
  'peers',
  'privacy',
  'sessions',
]);

/**
 * The context type a URI's shape gives it, as OpenViking classifies URIs; `undefined` where nothing
 * but directories may be: outside the spaces (`viking://evil`), a namespace's own directory
 * (`viking://user/alice`), an id-less old form (`viking://user/default/memories/…`).
 *
 * @example
 * contextTypeOf(parseUri('viking://agent/skills/write-rfc')); // 'skill'
 * contextTypeOf(parseUri('viking://user/alice/memories/events/x')); // 'memory'
 */
export function contextTypeOf(uri: VikingUri): ContextType | undefined {
  const s = segments(uri);
  if (s[0] === 'resources') return 'resource';
  if (s[0] === 'agent') {
    if (s[1] === 'skills') return 'skill';
    return s.length >= 3 && !reservedNames.has(s[1]!) ? CONTENT[s[2]!] : undefined;
  }
  if (s[0] !== 'user' || s.length < 3 || reservedNames.has(s[1]!)) return undefined;
  if (s[2] === 'sessions') return 'memory';
  if (s[2] === 'peers') return s.length >= 5 && s[4] !== 'skills' ? CONTENT[s[4]!] : undefined;
  return CONTENT[s[2]!];
}

/**
 * Whether `uri` is a directory above content that holds none itself: `viking://user`,
 * `viking://user/alice`, `viking://agent`, `viking://agent/coder`, a user's `peers` and each peer.
 */
export function isContainer(uri: VikingUri): boolean {
  const s = segments(uri);
  if (s[0] !== 'user' && s[0] !== 'agent') return false;
  if (s.length === 1) return true;
  if (reservedNames.has(s[1]!)) return false;
  if (s.length === 2) return true;
  return s[0] === 'user' && s[2] === 'peers' && s.length <= 4;
}

// The OVPack format, version 3, as OpenViking writes and checks it (docs/guide/ovpack.md): one root
// folder in a ZIP, the nodes' content under `files/`, a manifest and index records under `_ovpack/`.

import { LongshipError } from '../errors.js';
import { sha256Hex } from './sha256.js';

export const FORMAT_VERSION = 3;
export const PACK_KIND = 'openviking.ovpack';
export const FILES_DIR = 'files';
export const INTERNAL_DIR = '_ovpack';
export const MANIFEST_PATH = `${INTERNAL_DIR}/manifest.json`;
export const RECORDS_PATH = `${INTERNAL_DIR}/index_records.jsonl`;
export const DENSE_PATH = `${INTERNAL_DIR}/dense.f32`;
/** A directory's L0 and L1, as files beside its children. */
export const ABSTRACT_FILE = '.abstract.md';
export const OVERVIEW_FILE = '.overview.md';
/** What OpenViking keeps out of packs (its relations): refused on import, as it refuses it. */
export const EXCLUDED_FILE = '.relations.json';

/** A pack that is not what its manifest says, or not a pack: the input is corrupt. */
export function corrupt(message: string, options?: ErrorOptions): never {
  throw new LongshipError('CORRUPT_INPUT', `ovpack: ${message}`, options);
}

/**
 * Checks a path relative to the pack's root (`''` is the root): no backslash, no leading slash, no
 * drive letter, no empty, `.` or `..` segment.
 */
export function checkRelPath(path: string): string {
  if (path === '') return path;
  if (path.includes('\\') || path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    corrupt(`unsafe path ${JSON.stringify(path)}`);
  }
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    corrupt(`unsafe path ${JSON.stringify(path)}`);
  }
  return path;
}

/** What a ZIP member is: the manifest or an index file, a directory or a file under `files/`. */
export type Member =
  | { kind: 'internal'; path: string }
  | { kind: 'directory' | 'file'; path: string }
  | { kind: 'root' };

/** Where a ZIP member named `name` belongs in a pack whose root folder is `root`; unsafe names fail. */
export function memberOf(name: string, root: string): Member {
  if (name === '' || name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    corrupt(`unsafe entry ${JSON.stringify(name)}`);
  }
  const isDir = name.endsWith('/');
  const parts = (isDir ? name.slice(0, -1) : name).split('/');
  if (parts.some((part) => part === '..' || part === '.' || part === '')) {
    corrupt(`unsafe entry ${JSON.stringify(name)}`);
  }
  if (parts[0] !== root) corrupt(`entry ${JSON.stringify(name)} is outside the root folder ${root}/`);
  if (parts.length === 1) {
    if (!isDir) corrupt(`entry ${JSON.stringify(name)} is a file where the root folder belongs`);
    return { kind: 'root' };
  }
  const rest = parts.slice(2).join('/');
  if (parts[1] === INTERNAL_DIR) {
    return { kind: 'internal', path: parts.length === 2 ? '' : `${INTERNAL_DIR}/${rest}` };
  }
  if (parts[1] !== FILES_DIR) corrupt(`entry ${JSON.stringify(name)} is outside files/ and ${INTERNAL_DIR}/`);
  if (parts.length === 2 && !isDir) corrupt(`entry ${JSON.stringify(name)} is a file named ${FILES_DIR}`);
  return { kind: isDir ? 'directory' : 'file', path: rest };
}

/** The ZIP name of a content path (`''`: the `files/` folder itself). */
export const contentName = (root: string, path: string, isDir: boolean): string =>
  path === '' ? `${root}/${FILES_DIR}/` : `${root}/${FILES_DIR}/${path}${isDir ? '/' : ''}`;

/** Code point order, as Python sorts strings (JavaScript's default sort is by UTF-16 units). */
export const byCodePoint = (a: string, b: string): number => {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
};

/**
 * JSON as OpenViking's Python writes it for hashing: keys sorted, no spaces, non-ASCII kept.
 * JSON.stringify escapes the same characters json.dumps(ensure_ascii=False) does.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort(byCodePoint);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `content_sha256`: the hash of the sorted inventory of files (path, size, sha256). */
export function contentSha256(files: Iterable<{ path: string; size: number; sha256: string }>): string {
  const inventory = [...files]
    .map(({ path, size, sha256 }) => ({ path, size, sha256: sha256.toLowerCase() }))
    .sort((a, b) => byCodePoint(a.path, b.path));
  return sha256Hex(new TextEncoder().encode(canonicalJson(inventory)));
}

export const isSha256 = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-fA-F]{64}$/.test(value);

export const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

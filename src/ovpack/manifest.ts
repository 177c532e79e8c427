// The manifest (`_ovpack/manifest.json`): what a pack says it holds. Checked as OpenViking checks
// it before anything is written (docs/guide/ovpack.md, "What an import checks").

import { LongshipError } from '../errors.js';
import {
  checkRelPath,
  corrupt,
  DENSE_PATH,
  FORMAT_VERSION,
  isCount,
  isSha256,
  PACK_KIND,
  RECORDS_PATH,
} from './format.js';

export interface ManifestEntry {
  path: string;
  kind: 'directory' | 'file';
  size?: number;
  sha256?: string;
}

/** Which embedder made a pack's vectors; OpenViking's fields, a Longship embedder's id as `model`. */
export interface PackEmbedding {
  provider?: string;
  model?: string;
  input?: string;
  query_param?: unknown;
  document_param?: unknown;
  dimensions?: number;
}

export interface DenseInfo {
  path: typeof DENSE_PATH;
  count: number;
  dtype: 'float32';
  byte_order: 'little';
  dimensions: number;
  sha256: string;
  embedding?: PackEmbedding;
}

export interface Manifest {
  kind: typeof PACK_KIND;
  format_version: typeof FORMAT_VERSION;
  root: { name: string; uri: string; scope: string };
  entries: ManifestEntry[];
  content_sha256: string;
  index: {
    records: { path: typeof RECORDS_PATH; count: number; sha256: string };
    dense?: DenseInfo;
  };
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The manifest in `bytes`, checked field by field, for a ZIP whose root folder is `rootName`.
 * A version other than 3 is `UNSUPPORTED_INPUT`; anything else wrong is `CORRUPT_INPUT`.
 */
export function parseManifest(bytes: Uint8Array, rootName: string): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    corrupt('the manifest is not JSON', { cause: error });
  }
  if (!isObject(raw)) corrupt('the manifest is not a JSON object');
  const version = raw.format_version;
  if (version === undefined) corrupt('the manifest has no format_version');
  if (version !== FORMAT_VERSION) {
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      `ovpack: format_version ${JSON.stringify(version)} is not supported; Longship reads version ${FORMAT_VERSION}`,
    );
  }
  if (raw.kind !== PACK_KIND) corrupt(`the manifest's kind is not ${PACK_KIND}`);
  checkRoot(raw.root, rootName);
  if (!Array.isArray(raw.entries)) corrupt('the manifest has no entries list');
  const seen = new Set<string>();
  for (const entry of raw.entries as unknown[]) checkEntry(entry, seen);
  if (!seen.has('')) corrupt('the manifest does not list the root directory (path "")');
  if (!isSha256(raw.content_sha256)) corrupt('the manifest has no valid content_sha256');
  checkIndex(raw.index);
  return raw as unknown as Manifest;
}

function checkRoot(root: unknown, rootName: string): void {
  if (!isObject(root)) corrupt('the manifest has no root');
  if (typeof root.name !== 'string' || root.name === '') corrupt('the manifest has no root name');
  if (root.name !== rootName) {
    corrupt(`the manifest's root name ${JSON.stringify(root.name)} is not the ZIP's root folder ${rootName}`);
  }
  if (typeof root.uri !== 'string' || !root.uri.startsWith('viking://'))
    corrupt('the manifest has no root uri');
  if (root.uri.replace(/\/+$/, '').split('/').at(-1) !== root.name) {
    corrupt(`the manifest's root uri ${root.uri} does not end in its name ${root.name}`);
  }
  if (typeof root.scope !== 'string') corrupt('the manifest has no root scope');
}

function checkEntry(entry: unknown, seen: Set<string>): void {
  if (!isObject(entry) || typeof entry.path !== 'string') corrupt('a manifest entry has no path');
  const path = checkRelPath(entry.path);
  if (entry.kind !== 'directory' && entry.kind !== 'file') {
    corrupt(`manifest entry ${JSON.stringify(path)} is neither a file nor a directory`);
  }
  if (seen.has(path)) corrupt(`manifest entry ${JSON.stringify(path)} is listed twice`);
  seen.add(path);
  if (entry.kind === 'file' && (!isCount(entry.size) || !isSha256(entry.sha256))) {
    corrupt(`manifest entry ${JSON.stringify(path)} has no valid size and sha256`);
  }
  if (path === '' && entry.kind !== 'directory') corrupt('the manifest lists the root as a file');
}

function checkIndex(index: unknown): void {
  if (!isObject(index) || !isObject(index.records)) corrupt('the manifest has no index records');
  const { records, dense } = index;
  if (records.path !== RECORDS_PATH) corrupt(`the index records are not at ${RECORDS_PATH}`);
  if (!isCount(records.count) || !isSha256(records.sha256))
    corrupt('the index records have no count or sha256');
  if (dense === undefined || dense === null) return;
  if (!isObject(dense) || dense.path !== DENSE_PATH) corrupt(`the dense vectors are not at ${DENSE_PATH}`);
  if (!isCount(dense.count)) corrupt('the dense vectors have no count');
  if (!isCount(dense.dimensions) || dense.dimensions === 0) corrupt('the dense vectors have no dimensions');
  if (dense.dtype !== 'float32' || dense.byte_order !== 'little') {
    corrupt('the dense vectors are not little-endian float32');
  }
  if (!isSha256(dense.sha256)) corrupt('the dense vectors have no sha256');
  if (dense.embedding !== undefined && !isObject(dense.embedding))
    corrupt('the dense embedding is not an object');
}

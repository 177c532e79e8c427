// The first of an import's two reads of a pack: every check, nothing written. It streams the ZIP
// once, hashing each file as it passes, and keeps only the manifest, the index records, the vectors
// and the directories' L0/L1 (docs/guide/ovpack.md, "What an import checks").

import { LongshipError } from '../errors.js';
import {
  ABSTRACT_FILE,
  contentSha256,
  corrupt,
  DENSE_PATH,
  MANIFEST_PATH,
  memberOf,
  OVERVIEW_FILE,
  RECORDS_PATH,
} from './format.js';
import { type Manifest, type ManifestEntry, parseManifest } from './manifest.js';
import { type IndexRecord, parseRecords } from './records.js';
import { sha256Hex } from './sha256.js';
import { type ZipLimits, zipEntries } from './zip-read.js';

/** A pack that passed every check: what the second read writes from. */
export interface CheckedPack {
  manifest: Manifest;
  /** The ZIP's root folder: the name of the imported directory. */
  root: string;
  /** The manifest's entries by path (`''`: the root directory). */
  entries: Map<string, ManifestEntry>;
  records: IndexRecord[];
  /** `dense.f32`, when the pack has vectors. */
  dense?: Float32Array;
  /** Each directory's `.abstract.md` and `.overview.md`, by the directory's path. */
  sidecars: Map<string, { abstract?: string; overview?: string }>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a file of the pack: UTF-8, as every Longship node is; `BINARY_INPUT` otherwise. */
export function fileText(path: string, data: Uint8Array): string {
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new LongshipError('BINARY_INPUT', `ovpack: ${path} is not UTF-8 text`, { cause: error });
  }
}

export const parentPath = (path: string): string => path.split('/').slice(0, -1).join('/');
export const leaf = (path: string): string => path.split('/').at(-1)!;

/**
 * Reads all of `pack` and checks it as OpenViking's import does: safe member names under one root
 * folder, no name twice, the manifest's files and directories exactly the ZIP's, every size and
 * sha256, `content_sha256`, the index records and vectors against their hashes and counts.
 */
export async function checkPack(pack: Blob, limits: ZipLimits, signal?: AbortSignal): Promise<CheckedPack> {
  let root: string | undefined;
  const names = new Set<string>();
  const files = new Map<string, { size: number; sha256: string }>();
  const dirs = new Set<string>();
  const internal = new Map<string, Uint8Array>();
  const sidecars = new Map<string, { abstract?: string; overview?: string }>();
  for await (const { name, data } of zipEntries(pack, limits, signal)) {
    root ??= name.split('/')[0]!;
    if (names.has(name)) corrupt(`the ZIP holds ${JSON.stringify(name)} twice`);
    names.add(name);
    const member = memberOf(name, root);
    if (member.kind === 'root') continue;
    if (member.kind === 'internal') {
      if (member.path === '') continue;
      if (![MANIFEST_PATH, RECORDS_PATH, DENSE_PATH].includes(member.path)) {
        corrupt(`unexpected internal entry ${member.path}`);
      }
      internal.set(member.path, data);
    } else if (member.kind === 'directory') {
      dirs.add(member.path);
    } else {
      files.set(member.path, { size: data.length, sha256: sha256Hex(data) });
      const which = leaf(member.path);
      if (which === ABSTRACT_FILE || which === OVERVIEW_FILE) {
        const side = sidecars.get(parentPath(member.path)) ?? {};
        side[which === ABSTRACT_FILE ? 'abstract' : 'overview'] = fileText(member.path, data);
        sidecars.set(parentPath(member.path), side);
      } else {
        fileText(member.path, data);
      }
    }
  }
  const manifestBytes = internal.get(MANIFEST_PATH);
  if (!root || !manifestBytes) corrupt(`no manifest (${MANIFEST_PATH}): not an OVPack of version 3`);
  const manifest = parseManifest(manifestBytes, root);
  const entries = new Map(manifest.entries.map((e) => [e.path, e]));
  checkInventory(manifest, entries, files, dirs);
  checkInternal(manifest, internal);
  const { records: recordsInfo, dense: denseInfo } = manifest.index;
  const recordBytes = internal.get(RECORDS_PATH)!;
  if (sha256Hex(recordBytes) !== recordsInfo.sha256.toLowerCase())
    corrupt('the index records do not match their sha256');
  const denseBytes = denseInfo ? internal.get(DENSE_PATH)! : undefined;
  if (denseInfo && sha256Hex(denseBytes!) !== denseInfo.sha256.toLowerCase()) {
    corrupt('the dense vectors do not match their sha256');
  }
  const records = parseRecords(recordBytes, recordsInfo.count, entries, denseInfo, denseBytes?.length ?? 0);
  for (const path of entries.keys()) {
    for (let up = parentPath(path); up !== ''; up = parentPath(up)) {
      if (entries.get(up)?.kind === 'file') corrupt(`${path} lies below ${up}, which is a file`);
    }
  }
  for (const path of sidecars.keys()) {
    if (entries.get(path)?.kind !== 'directory') corrupt(`${path}/${ABSTRACT_FILE} lies in no directory`);
  }
  return {
    manifest,
    root,
    entries,
    records,
    ...(denseBytes ? { dense: littleEndianFloats(denseBytes) } : {}),
    sidecars,
  };
}

/** The manifest's files and directories against the ZIP's, and each file's size and hash. */
function checkInventory(
  manifest: Manifest,
  entries: Map<string, ManifestEntry>,
  files: Map<string, { size: number; sha256: string }>,
  dirs: Set<string>,
): void {
  const listed = [...entries.values()];
  const differs = (
    kind: ManifestEntry['kind'],
    found: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  ) => {
    const paths = listed.filter((e) => e.kind === kind).map((e) => e.path);
    return paths.length !== found.size || paths.some((p) => !found.has(p));
  };
  if (differs('file', files) || differs('directory', dirs)) {
    const missing = listed.filter((e) => !(e.kind === 'file' ? files.has(e.path) : dirs.has(e.path)));
    const extra = [...files.keys(), ...dirs].filter((p) => !entries.has(p));
    corrupt(
      `the ZIP's entries do not match the manifest (missing: ${missing.map((e) => e.path || '""').join(', ') || 'none'}; not listed: ${extra.join(', ') || 'none'})`,
    );
  }
  const listedFiles = listed.filter((e) => e.kind === 'file') as Required<ManifestEntry>[];
  if (contentSha256(listedFiles) !== manifest.content_sha256.toLowerCase()) {
    corrupt("content_sha256 does not match the manifest's files");
  }
  for (const entry of listedFiles) {
    const found = files.get(entry.path)!;
    if (found.size !== entry.size)
      corrupt(`${entry.path} has ${found.size} bytes, the manifest says ${entry.size}`);
    if (found.sha256 !== entry.sha256.toLowerCase()) corrupt(`${entry.path} does not match its sha256`);
  }
}

function checkInternal(manifest: Manifest, internal: Map<string, Uint8Array>): void {
  const expected = [MANIFEST_PATH, RECORDS_PATH, ...(manifest.index.dense ? [DENSE_PATH] : [])];
  const missing = expected.filter((p) => !internal.has(p));
  const extra = [...internal.keys()].filter((p) => !expected.includes(p));
  if (missing.length > 0 || extra.length > 0) {
    corrupt(
      `the internal entries do not match the manifest (missing: ${missing.join(', ') || 'none'}; not listed: ${extra.join(', ') || 'none'})`,
    );
  }
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The floats of `dense.f32`: a view of its bytes where the platform is little-endian, as all are now. */
function littleEndianFloats(bytes: Uint8Array): Float32Array {
  if (littleEndian && bytes.byteOffset % 4 === 0) {
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

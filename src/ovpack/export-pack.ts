// Longship → OVPack: a directory and everything below it as a ZIP stream, produced as it is read
// (docs/guide/ovpack.md). Memory holds one node's content at a time, the manifest's entries, the
// nodes' and vectors' keys, and the URIs of the directories being walked: the directory is walked
// once for the files, again for the index records, and the vectors read a third time, in order.

import { ZipDeflate, Zip as ZipStream } from 'fflate';
import { throwIfAborted } from '../abort.js';
import { join, parseUri, relativeTo, segments, type VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';
import {
  ABSTRACT_FILE,
  contentName,
  contentSha256,
  DENSE_PATH,
  EXCLUDED_FILE,
  FORMAT_VERSION,
  INTERNAL_DIR,
  MANIFEST_PATH,
  OVERVIEW_FILE,
  PACK_KIND,
  RECORDS_PATH,
} from './format.js';
import type { Manifest, ManifestEntry } from './manifest.js';
import { type ExportOptions, exportOptionsSchema, type PackParts } from './pack-options.js';
import { packRecords } from './pack-records.js';
import { Sha256 } from './sha256.js';

const utf8 = new TextEncoder();
/** A fixed time for every entry, so that the same nodes always give the same bytes. */
const MTIME = new Date(1980, 0, 2);
/** Vectors read at once while dense.f32 is written. */
const VECTOR_BATCH = 256;

/**
 * The directory `uri` and everything below it as an OVPack, produced as the stream is read.
 * Rejects with `NOT_FOUND`, `NOT_A_DIRECTORY`, or `INVALID_ARGUMENT` for a root.
 */
export async function exportPack(
  parts: PackParts,
  input: string,
  options?: ExportOptions,
): Promise<ReadableStream<Uint8Array>> {
  const o = checkOptions(exportOptionsSchema, options, 'export()');
  const uri = parseUri(input);
  // A pack is one directory under a scope (OpenViking's rule): never `viking://` or a scope itself.
  if (segments(uri).length < 2) {
    throw new LongshipError('INVALID_ARGUMENT', `${uri} is a root: export a directory below it`);
  }
  const top = await parts.store.node(uri);
  if (!top) throw new LongshipError('NOT_FOUND', `no node at ${uri}`);
  if (top.kind !== 'dir') throw new LongshipError('NOT_A_DIRECTORY', `${uri} is a file: export a directory`);
  const chunks = packChunks(parts, top, o.includeVectors ?? false, o.signal);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/** The pack's bytes, in pieces as the ZIP writer makes them. */
async function* packChunks(
  parts: PackParts,
  top: NodeRecord,
  includeVectors: boolean,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: unknown;
  const zip = new ZipStream((error, chunk) => {
    if (error) failure = error;
    else out.push(chunk);
  });
  const root = top.name;
  const add = (name: string, data: Uint8Array) => {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = MTIME;
    zip.add(file);
    file.push(data, true);
    if (failure) throw failure;
  };
  const entries: ManifestEntry[] = [{ path: '', kind: 'directory' }];
  const addFile = (path: string, text: string) => {
    const data = utf8.encode(text);
    add(contentName(root, path, false), data);
    entries.push({ path, kind: 'file', size: data.length, sha256: new Sha256().update(data).hex() });
  };
  add(`${root}/`, new Uint8Array(0));
  add(contentName(root, '', true), new Uint8Array(0));
  yield* out.splice(0);
  // The walk is made twice: the files first, then (their entries written) the index records, so
  // that neither is held whole. Each node's key and time, kept from the first, show that the second
  // finds the same nodes.
  const seen: [key: number, updatedAt: number][] = [];
  for await (const node of walk(parts.store, top.uri as VikingUri)) {
    throwIfAborted(signal, 'export()');
    const path = relativeTo(node.uri as VikingUri, top.uri as VikingUri)!;
    if (node.kind === 'dir') {
      if (path !== '') {
        add(contentName(root, path, true), new Uint8Array(0));
        entries.push({ path, kind: 'directory', size: 0 });
      }
      addFile(path === '' ? ABSTRACT_FILE : `${path}/${ABSTRACT_FILE}`, node.l0);
      if (node.l1 !== undefined) addFile(path === '' ? OVERVIEW_FILE : `${path}/${OVERVIEW_FILE}`, node.l1);
    } else {
      addFile(path, node.l2 ?? '');
    }
    seen.push([node.key, node.updatedAt]);
    yield* out.splice(0);
  }
  add(`${root}/${INTERNAL_DIR}/`, new Uint8Array(0));
  const recordsFile = new ZipDeflate(`${root}/${RECORDS_PATH}`, { level: 6 });
  recordsFile.mtime = MTIME;
  zip.add(recordsFile);
  const recordsHash = new Sha256();
  const records = packRecords(parts.embedder.dimensions, (lines) => {
    const data = utf8.encode(lines);
    recordsHash.update(data);
    recordsFile.push(data);
  });
  let at = 0;
  for await (const node of walk(parts.store, top.uri as VikingUri)) {
    throwIfAborted(signal, 'export()');
    const [key, updatedAt] = seen[at++] ?? [];
    if (node.key !== key || node.updatedAt !== updatedAt) changed(top.uri);
    const path = relativeTo(node.uri as VikingUri, top.uri as VikingUri)!;
    const vectors = includeVectors ? await parts.store.vectorsOfNode(node.key) : [];
    records.add(path, node, await parts.store.posting(node.key), vectors);
    yield* out.splice(0);
  }
  if (at !== seen.length) changed(top.uri);
  recordsFile.push(new Uint8Array(0), true);
  if (failure) throw failure;
  yield* out.splice(0);
  const dense =
    records.vectorKeys.length > 0
      ? denseFile(root, parts.store, records.vectorKeys, parts.embedder.dimensions, zip, signal)
      : undefined;
  if (dense) {
    for await (const _ of dense.written) yield* out.splice(0);
  }
  const manifest: Manifest = {
    kind: PACK_KIND,
    format_version: FORMAT_VERSION,
    root: { name: root, uri: top.uri, scope: segments(top.uri as VikingUri)[0]! },
    entries,
    content_sha256: contentSha256(entries.filter((e) => e.kind === 'file') as Required<ManifestEntry>[]),
    index: {
      records: { path: RECORDS_PATH, count: records.count, sha256: recordsHash.hex() },
      ...(dense
        ? {
            dense: {
              path: DENSE_PATH,
              count: records.vectorKeys.length,
              dtype: 'float32' as const,
              byte_order: 'little' as const,
              dimensions: parts.embedder.dimensions,
              sha256: dense.sha256(),
              embedding: {
                provider: 'longship',
                model: parts.embedder.id,
                dimensions: parts.embedder.dimensions,
              },
            },
          }
        : {}),
    },
  };
  add(`${root}/${MANIFEST_PATH}`, utf8.encode(JSON.stringify(manifest, null, 2)));
  zip.end();
  if (failure) throw failure;
  yield* out.splice(0);
}

/** A node below `uri` was written or removed between the export's two walks of it. */
function changed(uri: string): never {
  throw new LongshipError('STORE_ERROR', `${uri} changed while it was exported: export it again`);
}

/**
 * `dense.f32`: the vectors with these keys, in order, as little-endian float32; read from the store
 * `VECTOR_BATCH` at a time while the entry is written.
 */
function denseFile(
  root: string,
  store: FullStore,
  keys: readonly number[],
  dimensions: number,
  zip: ZipStream,
  signal?: AbortSignal,
) {
  const hash = new Sha256();
  const file = new ZipDeflate(`${root}/${DENSE_PATH}`, { level: 6 });
  file.mtime = MTIME;
  zip.add(file);
  async function* written(): AsyncGenerator<void> {
    for (let at = 0; at < keys.length; at += VECTOR_BATCH) {
      throwIfAborted(signal, 'export()');
      const batch = keys.slice(at, at + VECTOR_BATCH);
      const found = await store.vectors(batch);
      const byKey = new Map(found.map((r) => [r.key, r.vector]));
      const bytes = new Uint8Array(batch.length * dimensions * 4);
      const view = new DataView(bytes.buffer);
      let offset = 0;
      for (const key of batch) {
        const vector = byKey.get(key);
        if (vector?.length !== dimensions)
          throw new LongshipError('NOT_FOUND', 'a vector was removed or replaced while the pack was written');
        for (const value of vector) {
          view.setFloat32(offset, value, true);
          offset += 4;
        }
      }
      hash.update(bytes);
      file.push(bytes, at + VECTOR_BATCH >= keys.length);
      yield;
    }
  }
  return { written: written(), sha256: () => hash.hex() };
}

/**
 * The nodes at and below `uri`, parents first, each directory's children by URI. Each node is read
 * when it is reached: what is held is the URIs of the children still to visit.
 */
async function* walk(store: FullStore, uri: VikingUri): AsyncGenerator<NodeRecord> {
  const node = await store.node(uri);
  if (!node) throw new LongshipError('NOT_FOUND', `${uri} was removed while the pack was written`);
  yield node;
  if (node.kind !== 'dir') return;
  const children = (await store.children(uri)).map((c) => c.uri as VikingUri).sort();
  for (const child of children) {
    const name = child.slice(uri.length + 1);
    if (name === ABSTRACT_FILE || name === OVERVIEW_FILE || name === EXCLUDED_FILE) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `${join(uri, name)}: a node of that name cannot be packed (OVPack keeps the name for itself)`,
      );
    }
    yield* walk(store, child);
  }
}

// OVPack → Longship. Two reads of the pack: the first checks everything and writes nothing
// (check-pack.ts); the second writes the nodes in commits of a few hundred, directories first, so
// memory holds one commit's nodes, never the pack (docs/guide/ovpack.md).

import { throwIfAborted } from '../abort.js';
import { directoriesBatch } from '../context/tree-batches.js';
import { deepestFirst, missingParents, writable } from '../context/tree-lookup.js';
import { contextTypeOf, join, parseUri, segments, type VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import { defaultChunkTokens, embeddingTexts } from '../ingest/commit/write-batch.js';
import { checkOptions } from '../options.js';
import type { WriteBatch } from '../store/store.js';
import { type CheckedPack, checkPack, fileText, leaf } from './check-pack.js';
import { ABSTRACT_FILE, corrupt, EXCLUDED_FILE, memberOf, OVERVIEW_FILE } from './format.js';
import {
  DEFAULT_MAX_BYTES,
  type ImportOptions,
  type ImportResult,
  importOptionsSchema,
  MAX_RATIO,
  type PackInput,
  type PackParts,
} from './pack-options.js';
import { type Planned, planNode } from './plan-node.js';
import type { IndexRecord } from './records.js';
import { sha256Hex } from './sha256.js';
import { zipEntries } from './zip-read.js';

/** Nodes written in one commit. */
const BATCH = 256;

/**
 * Imports the pack under `parentUri`: it becomes `parentUri/<the pack's root name>`. Every check
 * runs before the first write; a pack that fails one writes nothing.
 */
export async function importPack(
  parts: PackParts,
  pack: PackInput,
  parentUri: string,
  options?: ImportOptions,
): Promise<ImportResult> {
  const o = checkOptions(importOptionsSchema, options, 'import()');
  const parent = parseUri(parentUri);
  if (parent === 'viking://') {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      'import() needs a parent directory inside a root, not viking://',
    );
  }
  const blob = await packBlob(pack);
  const limits = { maxBytes: o.maxBytes ?? DEFAULT_MAX_BYTES, maxRatio: MAX_RATIO };
  const checked = await checkPack(blob, limits, o.signal);
  const rootUri = targetOf(checked, parent);
  const restore = vectorChoice(parts, checked, o.vectors ?? 'auto');
  const existing = await parts.store.node(rootUri);
  if (existing && o.onConflict === 'skip') return { uri: rootUri, skipped: true, nodes: 0, vectors: 'none' };
  if (existing && o.onConflict !== 'overwrite') {
    throw new LongshipError(
      'ALREADY_EXISTS',
      `${rootUri} already exists (pass onConflict: 'overwrite' or 'skip')`,
    );
  }
  const writer = packWriter(parts, checked, rootUri, restore, o.signal);
  let made: VikingUri[] = [];
  try {
    const replaced = existing ? deepestFirst([existing, ...(await parts.store.descendants(rootUri))]) : [];
    made = await missingParents(parts.store, rootUri, true);
    const first: WriteBatch = made.length
      ? await directoriesBatch({ ...parts, time: Date.now() }, made, { signal: o.signal }, undefined)
      : {};
    await writer.directories({ ...first, deleteNodes: replaced });
    for await (const { name, data } of zipEntries(blob, limits, o.signal)) {
      const member = memberOf(name, checked.root);
      if (
        member.kind !== 'file' ||
        leaf(member.path) === ABSTRACT_FILE ||
        leaf(member.path) === OVERVIEW_FILE
      )
        continue;
      if (sha256Hex(data) !== checked.entries.get(member.path)?.sha256?.toLowerCase()) {
        corrupt(`${member.path} changed between the two reads of the pack`);
      }
      await writer.file(member.path, fileText(member.path, data));
    }
    await writer.flush();
  } catch (error) {
    await writer.undo(made);
    throw error;
  }
  return {
    uri: rootUri,
    skipped: false,
    nodes: writer.written(),
    vectors: restore ? 'restored' : 'recomputed',
  };
}

/** A Blob to read twice: a stream is read into one first. */
async function packBlob(pack: PackInput): Promise<Blob> {
  if (pack instanceof Blob) return pack;
  if (pack instanceof Uint8Array || pack instanceof ArrayBuffer) return new Blob([pack as BlobPart]);
  if (pack && typeof (pack as ReadableStream).getReader === 'function') {
    return new Response(pack as ReadableStream<Uint8Array>).blob();
  }
  throw new LongshipError('INVALID_ARGUMENT', 'import() takes the pack as bytes, a Blob or a ReadableStream');
}

/** Where the pack goes, checked as OpenViking checks it: the same scope, URIs Longship can hold. */
function targetOf(checked: CheckedPack, parent: VikingUri): VikingUri {
  const scope = checked.manifest.root.scope;
  if (segments(parent)[0] !== scope) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `ovpack: the pack's scope is ${scope}, the parent ${parent} is not in it`,
    );
  }
  const rootUri = writable(join(parent, checked.root), 'dir');
  if (!contextTypeOf(rootUri)) {
    throw new LongshipError('INVALID_ARGUMENT', `${rootUri} is a root: import into a directory below it`);
  }
  for (const path of checked.entries.keys()) {
    if (leaf(path) === EXCLUDED_FILE)
      throw new LongshipError('INVALID_ARGUMENT', `ovpack: cannot import ${path}`);
    if (path !== '') parseUri(join(rootUri, path));
  }
  return rootUri;
}

/** Whether the pack's vectors are reused (true) or the nodes embedded again (false). */
function vectorChoice(
  parts: PackParts,
  checked: CheckedPack,
  mode: 'auto' | 'recompute' | 'require',
): boolean {
  if (mode === 'recompute') return false;
  const dense = checked.manifest.index.dense;
  if (!dense || !checked.dense) {
    if (mode === 'require')
      throw new LongshipError('INVALID_ARGUMENT', 'ovpack: the pack carries no vectors');
    return false;
  }
  const e = dense.embedding;
  const { id, dimensions } = parts.embedder;
  const same =
    e?.provider === 'longship' &&
    e.model === id &&
    e.dimensions === dimensions &&
    dense.dimensions === dimensions;
  if (!same) {
    if (mode === 'require') {
      throw new LongshipError(
        'EMBEDDER_MISMATCH',
        `ovpack: the pack's vectors come from ${e?.provider ?? '?'}/${e?.model ?? '?'} (${dense.dimensions} dimensions), not ${id} (${dimensions})`,
      );
    }
    return false;
  }
  if (mode === 'require') {
    const withVectors = new Set(checked.records.filter((r) => r.vector).map((r) => r.path));
    const missing = [...checked.entries.values()].find(
      (e) => !withVectors.has(e.path) && !(e.kind === 'file' && isSidecar(e.path)),
    );
    if (missing)
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `ovpack: ${missing.path || 'the root'} has no vector in the pack`,
      );
  }
  return true;
}

const isSidecar = (path: string) => leaf(path) === ABSTRACT_FILE || leaf(path) === OVERVIEW_FILE;

/** Plans and commits the pack's nodes, a batch at a time, and can take them back out. */
function packWriter(
  parts: PackParts,
  checked: CheckedPack,
  rootUri: VikingUri,
  restore: boolean,
  signal?: AbortSignal,
) {
  const byPath = new Map<string, IndexRecord[]>();
  for (const r of checked.records) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  const now = Date.now();
  let pending: Planned[] = [];
  let written = 0;
  let started = false;

  const plan = (path: string, kind: 'dir' | 'file', content?: string) =>
    planNode({ checked, rootUri, records: byPath.get(path) ?? [], restore, now }, path, kind, content);

  const commit = async (planned: Planned[], extra: WriteBatch = {}) => {
    // A commit is all or nothing: one that failed changed nothing to take back.
    await commitPlanned(parts, planned, extra, signal);
    started = true;
    written += planned.length;
  };

  return {
    /** The pack's directories, parents first, the first commit also carrying `first`. */
    async directories(first: WriteBatch) {
      // Every directory listed, and those a file's path implies: OpenViking's import makes a file's
      // parents, so its packs need not list them.
      const dirs = new Set<string>();
      for (const { path, kind } of checked.entries.values()) {
        const steps = path === '' ? [] : path.split('/');
        for (let n = kind === 'directory' ? steps.length : steps.length - 1; n >= 0; n--) {
          dirs.add(steps.slice(0, n).join('/'));
        }
      }
      const depth = (path: string) => (path === '' ? 0 : path.split('/').length);
      const ordered = [...dirs].sort((a, b) => depth(a) - depth(b));
      let extra = first;
      for (let at = 0; at < ordered.length; at += BATCH) {
        const planned = await Promise.all(ordered.slice(at, at + BATCH).map((d) => plan(d, 'dir')));
        await commit(planned, extra);
        extra = {};
      }
    },
    async file(path: string, content: string) {
      pending.push(await plan(path, 'file', content));
      if (pending.length >= BATCH) await this.flush();
    },
    async flush() {
      if (pending.length > 0) await commit(pending);
      pending = [];
    },
    written: () => written,
    /** Takes back what was written, if anything was: the pack's nodes and the parents made for them. */
    async undo(made: readonly VikingUri[]) {
      if (!started) return;
      const there = await parts.store.node(rootUri).catch(() => undefined);
      const below = there ? await parts.store.descendants(rootUri) : [];
      const gone = there ? deepestFirst([there, ...below]) : [];
      await parts.store.commit({ deleteNodes: gone }).catch(() => undefined);
      for (const uri of [...made].reverse()) {
        if ((await parts.store.children(uri).catch(() => [undefined])).length > 0) break;
        await parts.store.commit({ deleteNodes: [uri] }).catch(() => undefined);
      }
    },
  };
}

/** Embeds what brings no vectors, gives the nodes keys, and commits them with `extra` in one batch. */
async function commitPlanned(parts: PackParts, planned: Planned[], extra: WriteBatch, signal?: AbortSignal) {
  throwIfAborted(signal, 'import()');
  const chunking = { maxTokens: defaultChunkTokens };
  const texts = planned.map((p) =>
    p.vectors
      ? []
      : embeddingTexts(
          {
            ...p.node,
            uri: p.node.uri as VikingUri,
            title: p.node.name,
            headings: [],
            content: p.node.l2 ?? '',
            l1: p.node.l1 ?? '',
            contentHash: '',
          },
          chunking,
        ),
  );
  const flat = texts.flat();
  const embedded = flat.length > 0 ? await parts.embedder.embed(flat, signal ? { signal } : {}) : [];
  let at = 0;
  const vectorsOf = planned.map((p, i) => {
    if (p.vectors) return p.vectors;
    at += texts[i]!.length;
    return embedded.slice(at - texts[i]!.length, at);
  });
  const count = vectorsOf.reduce((n, v) => n + v.length, 0);
  let key = await parts.store.allocateKeys(planned.length + count);
  const batch: Required<Pick<WriteBatch, 'putNodes' | 'putVectors' | 'putPostings'>> = {
    putNodes: [...(extra.putNodes ?? [])],
    putVectors: [...(extra.putVectors ?? [])],
    putPostings: [...(extra.putPostings ?? [])],
  };
  planned.forEach((p, i) => {
    const nodeKey = key++;
    batch.putNodes.push({ ...p.node, key: nodeKey });
    if (p.posting) batch.putPostings.push({ ...p.posting, key: nodeKey });
    vectorsOf[i]!.forEach((vector, chunk) => {
      batch.putVectors.push({ key: key++, nodeKey, chunk, vector });
    });
  });
  await parts.store.commit({ ...extra, ...batch }, signal);
}

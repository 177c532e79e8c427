// The tree's mutations. Each reads what it needs and writes one commit, inside the writer's
// exclusive section, so what it checked still holds when it commits; the slow part of a write
// (summaries, embedding) runs before it enters.
import { chunkText } from '../embed/chunk.js';
import type { Embedder } from '../embed/embedder.js';
import { checkOptions } from '../options.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord, WriteBatch } from '../store/store.js';
import { derivedMemoryChanges } from './memory-sources.js';
import { type Namespace, storedTypeOf } from './namespace.js';
import type { Summarizer } from './summarize.js';
import { checkStringSize, checkText, defaultMaxBytes } from './text-checks.js';
import {
  type MkdirOptions,
  mkdirOptionsSchema,
  type NodeInfo,
  type RmOptions,
  rmOptionsSchema,
  type WriteOptions,
  writeOptionsSchema,
} from './tree.js';
import { directoriesBatch, fileSummaries, movedBatch, relocated } from './tree-batches.js';
import {
  deepestFirst,
  existing,
  fail,
  infoOf,
  missingParents,
  notRoot,
  subtree,
  writable,
} from './tree-lookup.js';
import { basename, isWithin, parentOf, parseUri } from './uri.js';

/** What the mutations share: the store and the parts that fill it, and the one exclusive section. */
export interface TreeWriter {
  readonly store: FullStore;
  readonly embedder: Embedder;
  readonly summarizer?: Summarizer | undefined;
  readonly now: () => number;
  readonly chunkTokens: number;
  /** Whose space is protected from rm and mv. */
  readonly namespace: Namespace;
  /** Mutations run one at a time: each checks what it found before it commits. */
  exclusive<T>(run: () => Promise<T>): Promise<T>;
}

export async function mkdir(w: TreeWriter, input: string, options?: MkdirOptions): Promise<NodeInfo> {
  const { abstract, ...rest } = checkOptions(mkdirOptionsSchema, options, 'mkdir()');
  // As OpenViking's mkdir takes a description: trimmed, and a blank one is none (the name is L0 then).
  const o: MkdirOptions = abstract?.trim() ? { ...rest, abstract: abstract.trim() } : rest;
  const uri = writable(input, 'dir');
  return w.exclusive(async () => {
    const found = await w.store.node(uri);
    if (found) {
      if (o.parents && found.kind === 'dir') return infoOf(found);
      fail('ALREADY_EXISTS', `${uri} already exists`);
    }
    const create = [...(await missingParents(w.store, uri, o.parents ?? false)), uri];
    const batch = await directoriesBatch({ ...w, time: w.now() }, create, o, uri);
    await w.store.commit(batch, o.signal);
    return infoOf(batch.putNodes.at(-1)!);
  });
}

export async function write(
  w: TreeWriter,
  input: string,
  content: string,
  options?: WriteOptions,
): Promise<NodeInfo> {
  const o = checkOptions(writeOptionsSchema, options, 'write()');
  const uri = writable(input, 'file');
  if (typeof content !== 'string') fail('INVALID_ARGUMENT', `write(${uri}) takes a string`);
  // The same limits as addResource(): a write is an ingestion without a parser.
  checkStringSize(uri, content, o.maxBytes ?? defaultMaxBytes);
  checkText(uri, content);
  // The slow part (summaries, embedding) runs before the lock; the checks run again inside it.
  const { l0, l1, kind } = await fileSummaries(w.summarizer, uri, content, o);
  const chunks = chunkText(content, { maxTokens: w.chunkTokens });
  const vectors = await w.embedder.embed(chunks.length > 0 ? chunks : [l0], { signal: o.signal });
  return w.exclusive(async () => {
    const { store } = w;
    const old = await store.node(uri);
    if (old?.kind === 'dir') fail('IS_A_DIRECTORY', `${uri} is a directory`);
    const parents = await missingParents(store, uri, o.parents ?? false);
    const batch: WriteBatch =
      parents.length > 0 ? await directoriesBatch({ ...w, time: w.now() }, parents, {}, undefined) : {};
    const first = await store.allocateKeys(vectors.length + (old ? 0 : 1));
    const key = old?.key ?? first + vectors.length;
    const time = w.now();
    const record: NodeRecord = {
      uri,
      parent: parentOf(uri)!,
      name: basename(uri),
      kind: 'file',
      contextType: storedTypeOf(uri)!,
      key,
      l0,
      l1,
      l2: content,
      summaryKind: kind,
      meta: o.meta ?? old?.meta ?? {},
      createdAt: old?.createdAt ?? time,
      updatedAt: time,
      useCount: old?.useCount ?? 0,
      ...(old?.lastUsedAt !== undefined ? { lastUsedAt: old.lastUsedAt } : {}),
    };
    await store.commit(
      {
        putNodes: [...(batch.putNodes ?? []), record],
        putVectors: [
          ...(batch.putVectors ?? []),
          ...vectors.map((vector, chunk) => ({ key: first + chunk, nodeKey: key, chunk, vector })),
        ],
        putPostings: [...(batch.putPostings ?? []), { key, title: record.name, body: content }],
        ...(old ? { deleteVectorsOfNodes: [key] } : {}),
      },
      o.signal,
    );
    return infoOf(record);
  });
}

export async function rm(w: TreeWriter, input: string, options?: RmOptions): Promise<number> {
  const { recursive = false } = checkOptions(rmOptionsSchema, options, 'rm()');
  const uri = notRoot(input, w.namespace);
  return w.exclusive(async () => {
    const nodes = await subtree(w.store, uri);
    if (nodes.length > 1 && !recursive) {
      fail('DIRECTORY_NOT_EMPTY', `${uri} has ${nodes.length - 1} nodes below it (pass recursive: true)`);
    }
    // The store removes their vectors, postings and relations with them; the memories derived only
    // from removed resources go too, and those derived partly from them are flagged.
    const derived = await derivedMemoryChanges(w.store, nodes, w.now());
    await w.store.commit({
      deleteNodes: [...deepestFirst(nodes), ...derived.deleteNodes],
      ...(derived.putNodes.length > 0 ? { putNodes: derived.putNodes } : {}),
    });
    return nodes.length;
  });
}

export async function mv(w: TreeWriter, fromInput: string, toInput: string): Promise<NodeInfo> {
  const from = notRoot(fromInput, w.namespace);
  const to = writable(toInput, 'dir');
  if (isWithin(to, from)) fail('INVALID_ARGUMENT', `cannot move ${from} into itself (${to})`);
  return w.exclusive(async () => {
    const { store } = w;
    const nodes = await subtree(store, from);
    if (nodes[0]!.kind === 'file') writable(to, 'file');
    if (await store.node(to)) fail('ALREADY_EXISTS', `${to} already exists`);
    await missingParents(store, to, false);
    const batch = await movedBatch(store, nodes, (uri) => relocated(uri, from, to), w.now(), from);
    // One commit: the old URIs go (with what hangs on them) and come back under the new ones,
    // with the same keys, so the indexes replay a remove and an add of the same vectors.
    await store.commit({ deleteNodes: deepestFirst(nodes), ...batch });
    return infoOf(batch.putNodes[0]!);
  });
}

export async function link(w: TreeWriter, fromInput: string, toInput: string, reason: string): Promise<void> {
  const from = parseUri(fromInput);
  const to = parseUri(toInput);
  if (from === to) fail('INVALID_ARGUMENT', `a node cannot relate to itself (${from})`);
  if (typeof reason !== 'string') fail('INVALID_ARGUMENT', 'link needs a reason (a string)');
  return w.exclusive(async () => {
    await existing(w.store, from);
    await existing(w.store, to);
    await w.store.commit({ putRelations: [{ from, to, reason, createdAt: w.now() }] });
  });
}

export async function unlink(w: TreeWriter, fromInput: string, toInput: string): Promise<boolean> {
  const from = parseUri(fromInput);
  const to = parseUri(toInput);
  return w.exclusive(async () => {
    const there = (await w.store.relations(from)).some((r) => r.from === from && r.to === to);
    if (there) await w.store.commit({ deleteRelations: [{ from, to }] });
    return there;
  });
}

/**
 * From planned nodes to one {@link WriteBatch}: the node records, their vectors and their lexical
 * postings, so that one `store.commit` writes a document whole or not at all (docs/guide/retrieval.md, "Layers
 * and what is embedded": a file is embedded from its content, chunked to the model's window; a
 * directory from `directory: <uri>` and its L0 and L1).
 */

import type { Format, Summarizer } from '../../context/summarize.js';
import { basename, segments, type VikingUri } from '../../context/uri.js';
import { type ChunkOptions, chunkText } from '../../embed/chunk.js';
import type { Embedder } from '../../embed/embedder.js';
import { LongshipError } from '../../errors.js';
import type {
  ContextType,
  NodeRecord,
  PostingRecord,
  Store,
  VectorRecord,
  WriteBatch,
} from '../../store/store.js';

/**
 * The default chunk size, in estimated tokens. The bundled USE-lite reads 128 tokens; the estimate
 * counts about 75% of what its tokenizer does on English prose and code, so 90 leaves a chunk
 * inside the window nearly always (a chunk a little over loses only its last words).
 */
export const defaultChunkTokens = 90;

/** What is written for one node, whether it was planned from a document or is an ancestor directory. */
export interface NodeContent {
  uri: VikingUri;
  kind: 'dir' | 'file';
  title: string;
  headings: readonly string[];
  /** L2; files only. */
  content?: string;
  /** The format of the document a file came from; files only. */
  format?: Format;
  /** The input path of the document the node came from; folder directories and ancestors have none. */
  source?: string;
  /** For a paged document (a PDF), the first and last page the node's text is on. */
  pages?: readonly [number, number];
  /**
   * A document's own node: what its front says it is about (entity · kind · period), kept as
   * `meta.identity` (docs/guide/retrieval.md, "What a document is about").
   */
  identity?: string;
  l0: string;
  l1: string;
  summaryKind: Summarizer['kind'];
  /** Files: of their content. Directories: of their title and their children's names and hashes. */
  contentHash: string;
}

export interface NodeWrite {
  node: NodeContent;
  /** The record stored at the same URI: its key, creation time and use counts are kept. */
  previous?: NodeRecord;
  /** Vectors to store instead of embedding (a moved node with the same content); `[]` stores none. */
  vectors?: Float32Array[];
  /** Extra meta for this node (a skill's description); merged over the previous meta. */
  meta?: Record<string, unknown>;
  /** Text put before a file's content where it is embedded and indexed (a skill's name and description). */
  lead?: string;
}

/** What every record of one batch shares. */
export interface BatchContext {
  contextType: ContextType;
  /** Why the caller added this; kept in each written node's meta. */
  reason?: string;
  /** Milliseconds since the epoch: `updatedAt` of every written node. */
  now: number;
}

/** The parent to record: `null` for a root such as `viking://resources`. */
export function parentUri(uri: VikingUri): string | null {
  const parts = segments(uri);
  return parts.length <= 1 ? null : uri.slice(0, uri.length - parts.at(-1)!.length - 1);
}

/** The title an ancestor directory is shown under: the one ingestion recorded, else its name. */
export function titleOf(node: NodeRecord): string {
  return typeof node.meta.title === 'string' ? node.meta.title : node.name;
}

/**
 * The texts a node's vectors are made from: a file's content (after `lead`) in chunks of the
 * model's window; a directory's header and summaries, once. Never none: a node without vectors
 * would look to `nodesNeedingVectors()` like one still waiting to be embedded.
 *
 * @example
 * embeddingTexts(dirNode, { maxTokens: 90 }); // ['directory: viking://resources/guide\nGuide — …']
 */
export function embeddingTexts(node: NodeContent, chunking: ChunkOptions, lead = ''): string[] {
  if (node.kind === 'dir') {
    // One vector, as OpenViking does: what the model's window holds of the header, L0 and L1 (the
    // rest would be cut by the model anyway). A directory is re-embedded whenever a child changes,
    // so chunking its whole L1 would multiply the cost of every small update.
    const text = [`directory: ${node.uri}`, node.l0, node.l1].filter((t) => t !== '').join('\n');
    return [chunkText(text, chunking)[0]!];
  }
  const chunks = chunkText([lead, node.content ?? ''].filter((t) => t !== '').join('\n\n'), chunking);
  return chunks.length > 0 ? chunks : [node.l0 || node.title || node.uri];
}

/**
 * Embeds every write that brings no vectors of its own, in one call so the embedder can batch
 * across nodes (and across documents). Returns each write's vectors, in order.
 *
 * @example
 * const vectors = await embedWrites(writes, embedder, { maxTokens: 90 }, signal);
 */
export async function embedWrites(
  writes: readonly NodeWrite[],
  embedder: Embedder,
  chunking: ChunkOptions,
  signal?: AbortSignal,
): Promise<Float32Array[][]> {
  const texts: string[] = [];
  const spans = writes.map((write) => {
    if (write.vectors) return undefined;
    const mine = embeddingTexts(write.node, chunking, write.lead);
    texts.push(...mine);
    return mine.length;
  });
  const vectors = texts.length > 0 ? await embedder.embed(texts, signal ? { signal } : {}) : [];
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `embedder ${embedder.id} returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${texts.length} texts`,
    );
  }
  let at = 0;
  return writes.map((write, i) => {
    const count = spans[i];
    if (count === undefined) return write.vectors!;
    at += count;
    return vectors.slice(at - count, at);
  });
}

function record(write: NodeWrite, key: number, context: BatchContext): NodeRecord {
  const { node, previous } = write;
  const meta: Record<string, unknown> = { ...previous?.meta, ...write.meta, title: node.title };
  if (node.source !== undefined) meta.source = node.source;
  if (node.format !== undefined) meta.format = node.format;
  // Kept by the meta of an earlier version of the node, which may have been paged when this is not.
  if (node.pages !== undefined) meta.pages = [...node.pages];
  else delete meta.pages;
  if (node.identity !== undefined) meta.identity = node.identity;
  else if (node.source !== undefined) delete meta.identity;
  if (context.reason !== undefined) meta.reason = context.reason;
  const result: NodeRecord = {
    uri: node.uri,
    parent: parentUri(node.uri),
    name: basename(node.uri),
    kind: node.kind,
    contextType: previous?.contextType ?? context.contextType,
    key,
    l0: node.l0,
    l1: node.l1,
    summaryKind: node.summaryKind,
    hash: node.contentHash,
    meta,
    createdAt: previous?.createdAt ?? context.now,
    updatedAt: context.now,
    useCount: previous?.useCount ?? 0,
  };
  if (node.kind === 'file') result.l2 = node.content ?? '';
  if (previous?.lastUsedAt !== undefined) result.lastUsedAt = previous.lastUsedAt;
  return result;
}

function posting(write: NodeWrite, key: number): PostingRecord {
  const { node } = write;
  const parts = node.kind === 'file' ? [write.lead, node.content] : [node.l0, node.l1];
  return { key, title: node.title, headings: [...node.headings], body: parts.filter(Boolean).join('\n\n') };
}

/** Hands out `count` consecutive keys, resolving with the first. */
export type KeySource = (count: number) => Promise<number>;

/**
 * Keys from `store.allocateKeys`, reserved `block` at a time: in IndexedDB every reservation is a
 * transaction of its own, which would add one per document. Keys left over when the pool is
 * dropped are never used; keys only need to be unique, not dense.
 *
 * @example
 * const keys = keyPool(store);
 * const first = await keys(3); // first, first + 1, first + 2 are this caller's
 */
export function keyPool(store: Store, block = 1024): KeySource {
  let next = 0;
  let end = 0;
  return async (count) => {
    if (end - next < count) {
      const size = Math.max(count, block);
      next = await store.allocateKeys(size);
      end = next + size;
    }
    next += count;
    return next - count;
  };
}

/**
 * Builds one batch: each write's node (keeping its stored key, else a new one), posting and
 * vectors (replacing any it had), and the deletion of `deleteUris` with everything they own.
 *
 * @example
 * await store.commit(await buildBatch(keyPool(store), writes, await embedWrites(writes, …), removed, context));
 */
export async function buildBatch(
  keys: KeySource,
  writes: readonly NodeWrite[],
  vectors: readonly Float32Array[][],
  deleteUris: readonly string[],
  context: BatchContext,
): Promise<WriteBatch> {
  const needed = writes.reduce((sum, w, i) => sum + (w.previous ? 0 : 1) + vectors[i]!.length, 0);
  let next = needed > 0 ? await keys(needed) : 0;
  const putNodes: NodeRecord[] = [];
  const putPostings: PostingRecord[] = [];
  const putVectors: VectorRecord[] = [];
  const deleteVectorsOfNodes: number[] = [];
  writes.forEach((write, i) => {
    const key = write.previous?.key ?? next++;
    if (write.previous) deleteVectorsOfNodes.push(key);
    putNodes.push(record(write, key, context));
    putPostings.push(posting(write, key));
    vectors[i]!.forEach((vector, chunk) => {
      putVectors.push({ key: next++, nodeKey: key, chunk, vector });
    });
  });
  return { putNodes, putPostings, putVectors, deleteVectorsOfNodes, deleteNodes: [...deleteUris] };
}

/** Whether a batch from {@link buildBatch} writes nothing. */
export function isEmptyBatch(batch: WriteBatch): boolean {
  return (batch.putNodes?.length ?? 0) === 0 && (batch.deleteNodes?.length ?? 0) === 0;
}

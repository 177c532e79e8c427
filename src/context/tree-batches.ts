// What the tree's writes commit: node records with their postings and vectors, summarised and
// embedded (docs/guide/retrieval.md, "Layers and what is embedded"), and the records of a moved subtree.
import type { Embedder } from '../embed/embedder.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord, RelationRecord, SummaryKind, WriteBatch } from '../store/store.js';
import { storedTypeOf } from './namespace.js';
import type { Summarizer } from './summarize.js';
import type { MkdirOptions, WriteOptions } from './tree.js';
import { basename, join, parentOf, relativeTo, type VikingUri } from './uri.js';

type Batch<K extends keyof WriteBatch> = Required<Pick<WriteBatch, K>>;

function directoryRecord(uri: VikingUri, key: number, o: MkdirOptions, time: number): NodeRecord {
  return {
    uri,
    parent: parentOf(uri) ?? null,
    name: basename(uri),
    kind: 'dir',
    contextType: storedTypeOf(uri)!,
    key,
    l0: o.abstract ?? basename(uri),
    ...(o.overview !== undefined ? { l1: o.overview } : {}),
    summaryKind: o.abstract !== undefined ? 'llm' : 'extractive',
    meta: o.meta ?? {},
    createdAt: time,
    updatedAt: time,
    useCount: 0,
  };
}

/**
 * Directories with their postings and one vector each, embedded from the URI, L0 and L1; `o`
 * applies to `last` only (the directory asked for, not the parents made on the way).
 */
export async function directoriesBatch(
  parts: { store: FullStore; embedder: Embedder; time: number },
  uris: VikingUri[],
  o: MkdirOptions,
  last: VikingUri | undefined,
): Promise<Batch<'putNodes' | 'putVectors' | 'putPostings'>> {
  const records = uris.map((uri) => directoryRecord(uri, 0, uri === last ? o : {}, parts.time));
  const texts = records.map((r) => [r.l0, r.l1].filter(Boolean).join('\n'));
  const vectors = await parts.embedder.embed(
    records.map((r, i) => `directory: ${r.uri}\n${texts[i]}`),
    { signal: o.signal },
  );
  const first = await parts.store.allocateKeys(records.length * 2);
  const batch: Batch<'putNodes' | 'putVectors' | 'putPostings'> = {
    putNodes: [],
    putVectors: [],
    putPostings: [],
  };
  records.forEach((record, i) => {
    const key = first + 2 * i;
    batch.putNodes.push({ ...record, key });
    batch.putVectors.push({ key: key + 1, nodeKey: key, chunk: 0, vector: vectors[i]! });
    batch.putPostings.push({ key, title: record.name, body: texts[i]! });
  });
  return batch;
}

/** A file's L0 and L1: the caller's, else the summarizer's, else the first sentence and the opening. */
export async function fileSummaries(
  summarizer: Summarizer | undefined,
  uri: VikingUri,
  content: string,
  o: WriteOptions,
): Promise<{ l0: string; l1: string; kind: SummaryKind }> {
  if (o.abstract !== undefined && o.overview !== undefined) {
    return { l0: o.abstract, l1: o.overview, kind: 'llm' as const };
  }
  const made = summarizer
    ? await summarizer.summarize({ title: basename(uri), headings: [], text: content }, o.signal)
    : { l0: firstSentence(content) || basename(uri), l1: opening(content) };
  const kind: SummaryKind = o.abstract !== undefined ? 'llm' : (summarizer?.kind ?? 'extractive');
  return { l0: o.abstract ?? made.l0, l1: o.overview ?? made.l1, kind };
}

/** `uri` moved from below `from` to below `to`; unchanged when it is not below `from`. */
export function relocated(uri: string, from: VikingUri, to: VikingUri): VikingUri {
  const rest = relativeTo(uri as VikingUri, from);
  return rest === undefined ? (uri as VikingUri) : rest === '' ? to : join(to, rest);
}

/**
 * The records of `nodes` at their `moved` URIs: the same keys, vectors and postings, the relations
 * among and into them rewritten; a posting titled by the old name follows it. `top` (moved by
 * hand) gets `time` as its update.
 */
export async function movedBatch(
  store: FullStore,
  nodes: readonly NodeRecord[],
  moved: (uri: string) => VikingUri,
  time: number,
  top?: string,
): Promise<Batch<'putNodes' | 'putVectors' | 'putPostings' | 'putRelations'>> {
  const batch: Batch<'putNodes' | 'putVectors' | 'putPostings' | 'putRelations'> = {
    putNodes: [],
    putVectors: [],
    putPostings: [],
    putRelations: [],
  };
  const relations = new Map<string, RelationRecord>();
  for (const node of nodes) {
    const uri = moved(node.uri);
    batch.putNodes.push({
      ...node,
      uri,
      parent: parentOf(uri)!,
      name: basename(uri),
      contextType: storedTypeOf(uri)!,
      ...(node.uri === top ? { updatedAt: time } : {}),
    });
    batch.putVectors.push(...(await store.vectorsOfNode(node.key)));
    const posting = await store.posting(node.key);
    if (posting) {
      batch.putPostings.push(posting.title === node.name ? { ...posting, title: basename(uri) } : posting);
    }
    for (const r of await store.relations(node.uri)) relations.set(`${r.from}\u0000${r.to}`, r);
  }
  for (const r of relations.values()) batch.putRelations.push({ ...r, from: moved(r.from), to: moved(r.to) });
  return batch;
}

// L0 and L1 of a file written without a summarizer: plain cuts of its text.

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Cuts at a word boundary with an ellipsis. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${space > max / 2 ? room.slice(0, space) : room}…`;
}

/** The L0 without a summarizer: the first sentence, at most 256 characters. */
function firstSentence(content: string): string {
  const text = flat(content.replace(/^#+\s*/gm, ''));
  const end = text.search(/[.!?](\s|$)/);
  return cut(end >= 0 ? text.slice(0, end + 1) : text, 256);
}

/** The L1 without a summarizer: the opening of the content. */
function opening(content: string): string {
  return cut(flat(content), 1500);
}

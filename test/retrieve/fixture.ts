// Small trees for retrieval tests, built straight into a MemoryStore with the indexes beside it,
// and a bag-of-words embedder whose similarities mean something (shared words), deterministically.

import { roots } from '../../src/context/namespace.js';
import { contextTypeOf, isVikingUri, parentOf, type VikingUri } from '../../src/context/uri.js';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { createLexicalIndex } from '../../src/lexical/bm25-index.js';
import type { RetrievalSources } from '../../src/retrieve/sources.js';
import type { FullStore } from '../../src/store/full-store.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { NodeRecord, PostingRecord, RelationRecord, VectorRecord } from '../../src/store/store.js';
import { createVectorIndex } from '../../src/vector/usearch-index.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';

export const DIMENSIONS = 128;
const STOP = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'and',
  'or',
  'in',
  'on',
  'for',
  'is',
  'how',
  'do',
  'i',
  'what',
]);

/** Lower-case words (identifiers kept whole), stopwords out. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => !STOP.has(w));
}

function fnv(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619) >>> 0;
  return hash;
}

/** Each word adds 1 to a hashed dimension; L2-normalised. A blank text gets a fixed direction. */
export function bagOfWords(text: string): Float32Array {
  const vector = new Float32Array(DIMENSIONS);
  for (const word of words(text)) vector[fnv(word) % DIMENSIONS]! += 1;
  let norm = Math.hypot(...vector);
  if (norm === 0) {
    vector[0] = 1;
    norm = 1;
  }
  return vector.map((x) => x / norm);
}

export interface EmbedCounter {
  calls: number;
}

export function bagOfWordsEmbedder(counter: EmbedCounter = { calls: 0 }) {
  return functionEmbedder({
    id: 'test/bag-of-words',
    dimensions: DIMENSIONS,
    embed: async (texts) => {
      counter.calls++;
      return texts.map(bagOfWords);
    },
  });
}

/** One node to build. Ancestors that are not listed are made as directories named after themselves. */
export interface NodeSpec {
  uri: string;
  kind?: 'dir' | 'file';
  /** A file's content (L2); embedded and indexed. */
  text?: string;
  /** Chunks embedded separately (default: the whole text as one). */
  chunks?: string[];
  l0?: string;
  l1?: string;
  meta?: Record<string, unknown>;
  useCount?: number;
  updatedAt?: number;
  lastUsedAt?: number;
}

export interface Tree {
  sources: RetrievalSources;
  store: FullStore;
  embeds: EmbedCounter;
  node(uri: string): NodeRecord;
}

let usearch: Promise<UsearchModule> | undefined;

const typeRoots = new Set<string>(Object.values(roots).flat());

export async function buildTree(
  specs: readonly NodeSpec[],
  options: { relations?: [string, string, string][]; withKeyMap?: boolean } = {},
): Promise<Tree> {
  const store = await openMemoryStore({ embedder: { id: 'test/bag-of-words', dimensions: DIMENSIONS } });
  const bySpec = new Map(specs.map((spec) => [spec.uri, spec]));
  const uris = new Set<string>();
  for (const spec of specs) {
    if (!isVikingUri(spec.uri)) throw new Error(`not canonical: ${spec.uri}`);
    let uri: VikingUri | undefined = spec.uri as VikingUri;
    while (uri && uri !== 'viking://' && !uris.has(uri)) {
      uris.add(uri);
      if (typeRoots.has(uri)) break;
      uri = parentOf(uri);
    }
  }
  const sorted = [...uris].sort();
  const isDir = (uri: string) => sorted.some((other) => other.startsWith(`${uri}/`));
  const first = await store.allocateKeys(sorted.length * 10 + 1);
  let next = first;
  const now = Date.UTC(2025, 0, 1);
  const nodes: NodeRecord[] = [];
  const postings: PostingRecord[] = [];
  const vectors: VectorRecord[] = [];
  const embeds: EmbedCounter = { calls: 0 };
  for (const uri of sorted) {
    const spec = bySpec.get(uri) ?? { uri };
    const kind = spec.kind ?? (isDir(uri) ? 'dir' : 'file');
    const name = uri.slice(uri.lastIndexOf('/') + 1);
    const parent =
      typeRoots.has(uri) || !uris.has(parentOf(uri as VikingUri)!) ? null : parentOf(uri as VikingUri)!;
    const text = spec.text ?? '';
    const l0 = spec.l0 ?? (kind === 'file' ? text.slice(0, 120) : name);
    const l1 = spec.l1 ?? '';
    const key = next++;
    nodes.push({
      uri,
      parent,
      name,
      kind,
      contextType: contextTypeOf(uri as VikingUri) ?? 'resource',
      key,
      l0,
      l1,
      ...(kind === 'file' ? { l2: text } : {}),
      summaryKind: 'extractive',
      meta: spec.meta ?? {},
      createdAt: now,
      updatedAt: spec.updatedAt ?? now,
      useCount: spec.useCount ?? 0,
      ...(spec.lastUsedAt === undefined ? {} : { lastUsedAt: spec.lastUsedAt }),
    });
    const body = kind === 'file' ? text : `${l0}\n${l1}`;
    postings.push({ key, title: name, body });
    const chunks = spec.chunks ?? [kind === 'file' ? text || l0 : `${l0} ${l1}`];
    chunks.forEach((chunk, i) => {
      vectors.push({ key: next++, nodeKey: key, chunk: i, vector: bagOfWords(chunk) });
    });
  }
  const now2 = Date.now();
  const relations: RelationRecord[] = (options.relations ?? []).map(([from, to, reason]) => ({
    from,
    to,
    reason,
    createdAt: now2,
  }));
  await store.commit({
    putNodes: nodes,
    putPostings: postings,
    putVectors: vectors,
    putRelations: relations,
  });

  usearch ??= loadUsearch();
  const index = createVectorIndex(await usearch, { dimensions: DIMENSIONS });
  const lexical = createLexicalIndex();
  const nodeOfVector = new Map<number, number>();
  const vectorsOfNode = new Map<number, number[]>();
  for (const record of vectors) {
    index.add(record.key, record.vector);
    nodeOfVector.set(record.key, record.nodeKey);
    vectorsOfNode.set(record.nodeKey, [...(vectorsOfNode.get(record.nodeKey) ?? []), record.key]);
  }
  for (const posting of postings)
    lexical.add({ key: posting.key, title: posting.title ?? '', body: posting.body });
  const byUri = new Map(nodes.map((node) => [node.uri, node]));
  const sources: RetrievalSources = {
    store,
    vectors: index,
    lexical,
    embedder: bagOfWordsEmbedder(embeds),
    vectorKeyToNodeKey: (key) => nodeOfVector.get(key),
    ...(options.withKeyMap === false
      ? {}
      : { vectorKeysOfNode: (key: number) => vectorsOfNode.get(key) ?? [] }),
  };
  return {
    sources,
    store,
    embeds,
    node: (uri) => {
      const found = byUri.get(uri);
      if (!found) throw new Error(`no node ${uri}`);
      return found;
    },
  };
}

/** Every URI in a result, in order: memories, resources, skills. */
export function urisOf(result: {
  memories: { uri: string }[];
  resources: { uri: string }[];
  skills: { uri: string }[];
}): string[] {
  return [...result.memories, ...result.resources, ...result.skills].map((item) => item.uri);
}

// Embeds the ObliQA tree with the bundled model (cached in a temp file outside the repository,
// keyed by a hash of each text, so reruns embed nothing) and builds the retriever's sources over it.
import { chunkText } from '../../src/embed/chunk.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { createLexicalIndex } from '../../src/lexical/bm25-index.js';
import type { LexicalIndex } from '../../src/lexical/lexical-index.js';
import type { RetrievalSources, RetrievalStore } from '../../src/retrieve/sources.js';
import type { NodeRecord } from '../../src/store/store.js';
import { createVectorIndex } from '../../src/vector/usearch-index.js';
import { loadUsearch } from '../../src/vector/usearch-module.js';
import type { EmbeddingCache } from './embedding-cache.js';
import { type BenchNode, subtreeText } from './obliqa-data.js';

/** Most chunks embedded per node: one passage of ObliQA is 24k words (a table), the median 40. */
const MAX_CHUNKS = 16;
/** USE-lite reads 128 tokens; the chunker's estimate undercounts subwords, so leave headroom. */
const CHUNK_TOKENS = 96;

export interface BenchIndex {
  nodes: NodeRecord[];
  /** Lexical variants: directories as summary (L0/L1) or as the text of their whole subtree. */
  lexical: { summary: LexicalIndex; subtree: LexicalIndex };
  sources(lexical: LexicalIndex, embedder: Pick<Embedder, 'embed'>): RetrievalSources;
  vectorCount: number;
}

/** The text a node is embedded from: a file's passage; a directory's L0 and L1. */
function embeddedChunks(node: BenchNode): string[] {
  const text = node.kind === 'file' ? node.text : `${node.l0}\n${node.l1}`;
  const chunks = chunkText(text, { maxTokens: CHUNK_TOKENS }).slice(0, MAX_CHUNKS);
  return chunks.length > 0 ? chunks : [node.title];
}

export async function buildIndex(
  tree: readonly BenchNode[],
  embedder: Embedder,
  cache: EmbeddingCache,
): Promise<BenchIndex> {
  const chunksOf = tree.map(embeddedChunks);
  const vectors = await cache.embed(embedder, chunksOf.flat(), { label: 'nodes' });
  const index = createVectorIndex(await loadUsearch(), { dimensions: embedder.dimensions });
  const nodes: NodeRecord[] = [];
  const nodeOfVector = new Map<number, number>();
  const vectorsOfNode = new Map<number, number[]>();
  let vectorKey = 1_000_000;
  let v = 0;
  index.reserve(vectors.length);
  tree.forEach((node, key) => {
    nodes.push({
      uri: node.uri,
      parent: node.parent,
      name: node.name,
      kind: node.kind,
      contextType: 'resource',
      key,
      l0: node.l0,
      l1: node.l1,
      ...(node.kind === 'file' ? { l2: node.text } : {}),
      summaryKind: 'extractive',
      meta: node.goldKey ? { gold: node.goldKey } : {},
      createdAt: 0,
      updatedAt: 0,
      useCount: 0,
    });
    const keys: number[] = [];
    for (let c = 0; c < chunksOf[key]!.length; c++) {
      index.add(vectorKey, vectors[v++]!);
      nodeOfVector.set(vectorKey, key);
      keys.push(vectorKey++);
    }
    vectorsOfNode.set(key, keys);
  });

  const subtree = subtreeText(tree);
  const summary = createLexicalIndex();
  const whole = createLexicalIndex();
  tree.forEach((node, key) => {
    const headings = node.headings.join(' › ');
    if (node.kind === 'file') {
      const doc = { key, title: node.title, headings, body: node.text };
      summary.add(doc);
      whole.add(doc);
    } else {
      summary.add({ key, title: node.title, headings, body: `${node.l0}\n${node.l1}` });
      whole.add({ key, title: node.title, headings, body: subtree.get(node.uri) ?? node.l0 });
    }
  });

  const store = memoisedStore(nodes);
  return {
    nodes,
    lexical: { summary, subtree: whole },
    vectorCount: vectors.length,
    sources: (lexical, queryEmbedder) => ({
      store,
      vectors: index,
      lexical: memoisedLexical(lexical),
      embedder: queryEmbedder,
      vectorKeyToNodeKey: (key) => nodeOfVector.get(key),
      vectorKeysOfNode: (key) => vectorsOfNode.get(key) ?? [],
    }),
  };
}

const memos = new WeakMap<LexicalIndex, Pick<LexicalIndex, 'search'>>();

/**
 * BM25 answers remembered per query: every setting measured asks the same index the same question
 * over the same scope, and on these long questions one search takes 150–250 ms (MiniSearch walks
 * posting lists of thousands of documents), which would dominate a sweep of dozens of settings.
 * Timings in the report therefore leave out BM25's own cost; see the note there.
 */
function memoisedLexical(lexical: LexicalIndex): Pick<LexicalIndex, 'search'> {
  let memo = memos.get(lexical);
  if (memo) return memo;
  const answers = new Map<string, ReturnType<LexicalIndex['search']>>();
  memo = {
    search: (query, options = {}) => {
      const allow = options.allow;
      const scope = allow === undefined ? 'all' : typeof allow === 'function' ? 'fn' : String(allow.size);
      const key = `${query}\u0000${options.limit}\u0000${scope}`;
      let hits = answers.get(key);
      if (!hits) {
        hits = lexical.search(query, options);
        answers.set(key, hits);
      }
      return hits;
    },
  };
  memos.set(lexical, memo);
  return memo;
}

/** The store reads retrieval makes, over plain maps: the bench measures retrieval, not a store. */
function memoisedStore(nodes: readonly NodeRecord[]): RetrievalStore {
  const byUri = new Map(nodes.map((n) => [n.uri, n]));
  const descendants = new Map<string, NodeRecord[]>();
  return {
    meta: async () => ({ schemaVersion: 0, seq: 0, nextKey: 0 }),
    node: async (uri) => byUri.get(uri),
    descendants: async (uri) => {
      let found = descendants.get(uri);
      if (!found) {
        found = nodes.filter((n) => n.uri.startsWith(`${uri}/`)).sort((a, b) => (a.uri < b.uri ? -1 : 1));
        descendants.set(uri, found);
      }
      return found;
    },
    vectorsOfNode: async () => [],
    relations: async () => [],
  };
}

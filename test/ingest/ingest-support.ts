/** Stores, a deterministic embedder and store dumps for the ingestion and queue tests. */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { Embedder } from '../../src/embed/embedder.js';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { LongshipError } from '../../src/errors.js';
import type { FullStore } from '../../src/store/full-store.js';
import { openIdbStore } from '../../src/store/idb/idb-open.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type {
  NodeRecord,
  PostingRecord,
  StoreMeta,
  VectorRecord,
  WriteBatch,
} from '../../src/store/store.js';
import { prose } from './fixtures.js';

export const stores: [string, () => Promise<FullStore>][] = [
  ['MemoryStore', () => openMemoryStore()],
  ['IdbStore', () => openIdbStore('ingest-test', { indexedDB: new IDBFactory() })],
];

/** A vector that depends only on the text: equal texts, equal vectors. */
function vectorOf(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    vector[i % dimensions]! += (h >>> 0) / 2 ** 32 - 0.5;
  }
  return vector;
}

/** An embedder of hash vectors that records every text it embeds. */
export function hashEmbedder(dimensions = 8): { embedder: Embedder; texts: string[] } {
  const texts: string[] = [];
  const embedder = functionEmbedder({
    id: 'test/hash',
    dimensions,
    embed: async (batch) => {
      texts.push(...batch);
      return batch.map((t) => vectorOf(t, dimensions));
    },
  });
  return { embedder, texts };
}

export interface Dump {
  meta: StoreMeta;
  nodes: Map<string, NodeRecord>;
  vectors: VectorRecord[];
  postings: Map<number, PostingRecord>;
}

async function all<T extends 'nodes' | 'vectors' | 'postings'>(store: FullStore, table: T) {
  const rows = [];
  for await (const batch of store.scan(table)) rows.push(...batch);
  return rows;
}

/** Everything the store holds that ingestion writes. */
export async function dump(store: FullStore): Promise<Dump> {
  return {
    meta: await store.meta(),
    nodes: new Map((await all(store, 'nodes')).map((n) => [n.uri, n as NodeRecord])),
    vectors: (await all(store, 'vectors')) as VectorRecord[],
    postings: new Map((await all(store, 'postings')).map((p) => [p.key, p as PostingRecord])),
  };
}

/** URIs whose node record, posting or vectors differ between two dumps (added and removed ones too). */
export function touched(before: Dump, after: Dump): string[] {
  const vectorsOf = (d: Dump, key: number) =>
    JSON.stringify(d.vectors.filter((v) => v.nodeKey === key).map((v) => [v.key, v.chunk, [...v.vector]]));
  const uris = new Set([...before.nodes.keys(), ...after.nodes.keys()]);
  return [...uris]
    .filter((uri) => {
      const a = before.nodes.get(uri);
      const b = after.nodes.get(uri);
      if (!a || !b) return true;
      return (
        JSON.stringify(a) !== JSON.stringify(b) ||
        JSON.stringify(before.postings.get(a.key)) !== JSON.stringify(after.postings.get(b.key)) ||
        vectorsOf(before, a.key) !== vectorsOf(after, b.key)
      );
    })
    .sort();
}

/** A store that calls `before` and `after` each commit (to fail or to cancel at a chosen one), numbered from 1. */
export function hookedStore(
  store: FullStore,
  before?: (commit: number, batch: WriteBatch) => void,
  after?: (commit: number, batch: WriteBatch) => void,
): FullStore {
  let commits = 0;
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'commit') {
        return async (batch: WriteBatch, signal?: AbortSignal) => {
          const commit = ++commits;
          before?.(commit, batch);
          const seq = await target.commit(batch, signal);
          after?.(commit, batch);
          return seq;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A store whose commit number `failing` throws QUOTA_EXCEEDED, as IndexedDB does when the disk is full. */
export function quotaStore(store: FullStore, failing: (commit: number) => boolean): FullStore {
  return hookedStore(store, (commit) => {
    if (failing(commit)) {
      throw new LongshipError('QUOTA_EXCEEDED', 'the storage quota is used up', {
        cause: new Error('QuotaExceededError'),
      });
    }
  });
}

/** A guide that splits into a directory of three section files (each over 512 tokens). */
export function guide(usage = prose('usage', 80)): string {
  return [
    '# Guide',
    prose('intro', 5),
    '## Install',
    prose('install', 60),
    '## Usage',
    usage,
    '## FAQ',
    prose('faq', 45),
  ].join('\n\n');
}

/** A small Markdown document about `topic`. */
export function note(topic: string, sentences = 4): string {
  return `# ${topic}\n\n${prose(topic, sentences)}\n`;
}

/** A folder of `count` one-node notes: more than one embedding call's worth when over nodesPerEmbedCall. */
export function notes(count: number): { path: string; content: string }[] {
  return Array.from({ length: count }, (_, i) => ({ path: `note-${i}.md`, content: note(`topic ${i}`) }));
}

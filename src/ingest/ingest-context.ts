// What every step of an ingestion job reads: the store and the parts that fill it, the key pool,
// and the one-time check that the store was made with this embedder.

import type { Summarizer } from '../context/summarize.js';
import type { ChunkOptions } from '../embed/chunk.js';
import type { Embedder } from '../embed/embedder.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';
import { defaultChunkTokens, type KeySource, keyPool } from './commit/write-batch.js';
import type { IngestorParts, IngestProgress } from './ingest.js';
import type { PreviousNode } from './plan.js';
import { extractiveSummarizer } from './summary/extractive-summarizer.js';

export interface IngestContext {
  readonly store: FullStore;
  readonly embedder: Embedder;
  readonly summarizer: Summarizer;
  readonly chunking: ChunkOptions;
  readonly keys: KeySource;
  /** Resolves once the store has accepted the embedder (`EMBEDDER_MISMATCH` otherwise); asked once. */
  checkEmbedder(): Promise<unknown>;
}

/** What a job's steps report to: the caller's onProgress, if any. */
export type Report = (progress: IngestProgress) => void;

export function ingestContext(parts: IngestorParts): IngestContext {
  const { store, embedder } = parts;
  let embedderChecked: Promise<unknown> | undefined;
  return {
    store,
    embedder,
    summarizer: parts.summarizer ?? extractiveSummarizer,
    chunking: { maxTokens: parts.chunkTokens ?? defaultChunkTokens },
    keys: keyPool(store),
    checkEmbedder() {
      embedderChecked ??= store
        .useEmbedder({ id: embedder.id, dimensions: embedder.dimensions })
        .catch((error: unknown) => {
          embedderChecked = undefined;
          throw error;
        });
      return embedderChecked;
    },
  };
}

/** A stored node as the planner compares against it. */
export const asPrevious = (node: NodeRecord): PreviousNode => ({
  contentHash: node.hash ?? '',
  l0: node.l0,
  l1: node.l1 ?? '',
  summaryKind: node.summaryKind,
});

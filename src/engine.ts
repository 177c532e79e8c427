// The in-process API: it picks the defaults and wires the parts together, nothing more. Every
// writer (the tree, ingestion) writes through the derived indexes' store, so that a write is
// searchable once it resolves.

import { type DerivedIndexes, openDerivedIndexes } from './context/derived-indexes.js';
import { createContextTree } from './context/store-tree.js';
import type { ContextTree } from './context/tree.js';
import type { Embedder } from './embed/embedder.js';
import { TransformersEmbedder } from './embed/transformers-embedder.js';
import { defaultIndexedDB } from './env/indexeddb.js';
import { loadUsearch, type UsearchModule, type WasmSource } from './index/usearch-module.js';
import { extractiveSummarizer } from './ingest/extractive-summarizer.js';
import { type AddResourceOptions, type AddSkillOptions, createIngestor } from './ingest/ingest.js';
import type { ResourceInput } from './ingest/input.js';
import { createIngestQueue, type QueuedJob, type QueueProgress, type QueueSummary } from './ingest/queue.js';
import type { SkillInput } from './ingest/skill.js';
import { createRetriever, type FindResult } from './retrieve/retriever.js';
import type { FindOptions } from './retrieve/settings.js';
import type { RetrievalSources } from './retrieve/sources.js';
import { openIdbStore } from './store/idb-open.js';
import { openMemoryStore } from './store/memory-store.js';
import type { Store, VerifyReport } from './store/store.js';

export interface LongshipOptions {
  /** Where everything is kept. Default: IndexedDB where the runtime has it, else memory. Closed by `close()`. */
  store?: Store;
  /** The IndexedDB to open the default store in. Default: the runtime's. */
  indexedDB?: IDBFactory;
  /** The database name of the default IndexedDB store. Default `'longship'`. */
  name?: string;
  /** Default: the bundled USE-lite, on the device. */
  embedder?: Embedder;
  /** The USearch module, or where to load it from (on workerd: the imported `WebAssembly.Module`). */
  usearch?: UsearchModule | WasmSource;
}

/** Options of {@link Longship.addResource}: those of ingestion, with progress for this job only. */
export type AddOptions<T extends AddResourceOptions | AddSkillOptions> = Omit<T, 'onProgress'> & {
  onProgress?: (progress: QueueProgress) => void;
};

/** One Longship: the viking:// filesystem, ingestion, and the indexes behind them. */
export interface Longship extends ContextTree {
  readonly store: Store;
  readonly embedder: Embedder;
  /** The vector and BM25 indexes, kept in step with the store. */
  readonly indexes: DerivedIndexes;
  /**
   * Finds the context that best matches `query`: THINKING (default) walks the tree from the best
   * directories down, QUICK searches every node in scope at once; both fuse BM25 and vectors.
   */
  find(query: string, options?: FindOptions): Promise<FindResult>;
  /** Queues a document, a folder or a URL to be read, split, summarised, embedded and written. */
  addResource(input: ResourceInput, options?: AddOptions<AddResourceOptions>): QueuedJob;
  /** Queues a skill for `viking://agent/skills/<slug>`. */
  addSkill(skill: SkillInput, options?: AddOptions<AddSkillOptions>): QueuedJob;
  /** Hears the progress of every queued job; returns the function that stops listening. */
  onProgress(listener: (progress: QueueProgress) => void): () => void;
  /** Resolves once every queued job has finished. */
  waitProcessed(): Promise<QueueSummary>;
  /** The store's invariants, and the indexes' agreement with it. Reads everything: for tests and repair. */
  verify(): Promise<VerifyReport>;
  /** Cancels queued jobs, snapshots the indexes, closes the store. */
  close(): Promise<void>;
}

/**
 * Opens Longship in this thread (a worker, Node, Deno, workerd).
 *
 * @example
 * const longship = await openLongship();
 * await longship.write('viking://resources/notes/today.md', 'Met Ana about the Q3 plan.', { parents: true });
 * await longship.addResource(readme, { name: 'README.md' });
 * await longship.ls('viking://resources');
 */
export async function openLongship(options: LongshipOptions = {}): Promise<Longship> {
  const ownEmbedder = options.embedder === undefined;
  const embedder = options.embedder ?? new TransformersEmbedder();
  const info = { id: embedder.id, dimensions: embedder.dimensions };
  const opened: Array<() => Promise<unknown>> = [];
  try {
    const [usearch, store] = await Promise.all([
      isModule(options.usearch) ? options.usearch : loadUsearch(options.usearch),
      openStore(options, info),
    ]);
    opened.push(() => store.close());
    const indexes = await openDerivedIndexes({ store, usearch, dimensions: embedder.dimensions });
    opened.push(() => indexes.close());
    const tree = await createContextTree({
      store: indexes.store,
      embedder,
      summarizer: extractiveSummarizer,
    });
    const queue = createIngestQueue(
      createIngestor({ store: indexes.store, embedder, summarizer: extractiveSummarizer }),
    );
    const following = (job: QueuedJob, listener?: (progress: QueueProgress) => void): QueuedJob => {
      if (listener) {
        const stop = queue.onProgress((progress) => progress.jobId === job.id && listener(progress));
        job.then(stop, stop);
      }
      return job;
    };
    const sources: RetrievalSources = {
      store: indexes.store,
      // Getters: the derived indexes replace their index objects when they rebuild.
      get vectors() {
        return indexes.vectors;
      },
      get lexical() {
        return indexes.lexical;
      },
      embedder,
      vectorKeyToNodeKey: (key) => indexes.nodeOfVector(key),
      vectorKeysOfNode: (key) => indexes.vectorKeysOfNode(key),
    };
    const retriever = createRetriever(sources);
    return {
      ...tree,
      find: (query, findOptions) => retriever.find(query, findOptions),
      store: indexes.store,
      embedder,
      indexes,
      addResource: (input, { signal, onProgress, ...rest } = {}) =>
        following(
          queue.enqueue({ kind: 'resource', input, options: rest, ...(signal ? { signal } : {}) }),
          onProgress,
        ),
      addSkill: (skill, { signal, onProgress, ...rest } = {}) =>
        following(
          queue.enqueue({ kind: 'skill', skill, options: rest, ...(signal ? { signal } : {}) }),
          onProgress,
        ),
      onProgress: (listener) => queue.onProgress(listener),
      waitProcessed: () => queue.waitProcessed(),
      verify: () => indexes.verify(),
      async close() {
        queue.cancel();
        await queue.waitProcessed();
        await indexes.close();
        await store.close();
        if (ownEmbedder) await (embedder as TransformersEmbedder).dispose();
      },
    };
  } catch (error) {
    for (const close of opened.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

async function openStore(
  options: LongshipOptions,
  embedder: { id: string; dimensions: number },
): Promise<Store> {
  if (options.store) {
    await options.store.useEmbedder(embedder);
    return options.store;
  }
  const factory = options.indexedDB ?? defaultIndexedDB();
  return factory
    ? openIdbStore(options.name ?? 'longship', { indexedDB: factory, embedder })
    : openMemoryStore({ embedder });
}

function isModule(value: LongshipOptions['usearch']): value is UsearchModule {
  return typeof value === 'object' && value !== null && 'exports' in value && 'memory' in value;
}

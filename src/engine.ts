// The in-process API: it picks the defaults and wires the parts together, nothing more. Every
// writer (the tree, ingestion) writes through the derived indexes' store, so that a write is
// searchable once it resolves.

import * as v from 'valibot';
import { assembleContext } from './assemble/assemble.js';
import type { AssembledContext, ContextOptions } from './assemble/context-options.js';
import { type AssetUrls, assetUrls } from './assets.js';
import { migrateLayout } from './context/layout-migration.js';
import { checkNamespace, expandHome, type Namespace, namespaceRoots } from './context/namespace.js';
import { openTreeWriter, treeOf } from './context/store-tree.js';
import type { Summarizer } from './context/summarize.js';
import type { ContextTree } from './context/tree.js';
import { placeProblems } from './context/tree-checks.js';
import { ensureRoots } from './context/tree-roots.js';
import type { TreeWriter } from './context/tree-writes.js';
import {
  type DerivedIndexes,
  type DerivedIndexesOptions,
  openDerivedIndexes,
} from './derived/derived-indexes.js';
import { bundledModel } from './embed/bundled-model.js';
import { checkedEmbedder } from './embed/checked-embedder.js';
import type { Embedder } from './embed/embedder.js';
import { TransformersEmbedder, type TransformersEmbedderOptions } from './embed/transformers-embedder.js';
import { defaultIndexedDB } from './env/indexeddb.js';
import { pageLocation } from './env/runtime.js';
import { LongshipError } from './errors.js';
import {
  type AddResourceOptions,
  type AddSkillOptions,
  addResourceOptionsSchema,
  addSkillOptionsSchema,
} from './ingest/ingest.js';
import { createIngestor } from './ingest/ingestor.js';
import type { ResourceInput } from './ingest/input.js';
import {
  createIngestQueue,
  type IngestQueue,
  type QueuedJob,
  type QueueProgress,
  type QueueSummary,
} from './ingest/queue.js';
import type { SkillInput } from './ingest/skill/skill.js';
import { getSkill, listSkills, type SkillInfo, type SkillSummary } from './ingest/skill/skill-reads.js';
import { extractiveSummarizer } from './ingest/summary/extractive-summarizer.js';
import { bm25Indexes } from './lexical/bm25-index.js';
import type { LLM, Reranker } from './llm/llm.js';
import type { ConsolidateOptions, Consolidation } from './memory/consolidate.js';
import type { SweepResult } from './memory/expiry.js';
import { type MemoryLifecycle, openMemoryLifecycle } from './memory/memory-lifecycle.js';
import { type MemoryOptions, memoryOptionsSchema } from './memory/memory-options.js';
import { checkOptions } from './options.js';
import type { ExportOptions, ImportOptions, ImportResult, PackInput } from './ovpack/pack-options.js';
import { createRetriever, type FindResult } from './retrieve/retriever.js';
import { type ContextSearchOptions, search as runSearch, type SearchResult } from './retrieve/search.js';
import { type FindOptions, findDefaults } from './retrieve/settings.js';
import type { AgeJudge, RetrievalSources } from './retrieve/sources.js';
import { sessionsRootOf } from './session/archive.js';
import { readDelivered, recordDelivered } from './session/delivered.js';
import { type Remembered, type RememberOptions, remember } from './session/remember.js';
import type { DeletedSession, Session, SessionInfo, SessionOptions } from './session/session.js';
import { createSessions, type Sessions } from './session/sessions.js';
import { openFileStore } from './store/file/file-open.js';
import { type FullStore, fullStore } from './store/full-store.js';
import { openIdbStore } from './store/idb/idb-open.js';
import { openMemoryStore } from './store/memory/memory-store.js';
import { STORE_METHODS, type Store, type VerifyReport } from './store/store.js';
import { usearchIndexes } from './vector/usearch-index.js';
import { loadUsearch, type UsearchModule, type WasmSource } from './vector/usearch-module.js';
import type { VectorIndexOptions } from './vector/vector-index.js';
import type { IndexedDBFactory } from './web-types.js';

export interface LongshipOptions {
  /**
   * Where everything is kept; closed by `close()`. A Store, or where Longship opens one:
   * - a folder (Node and Deno): `'./agent-context'`, a `file:` URL, or `{ path }`; created if missing
   *   (docs/guide/file-store.md);
   * - `{ indexedDB: 'notes' }`: the IndexedDB database of that name, in the runtime's IndexedDB or
   *   in `factory`;
   * - `'memory'`: in memory, gone at close (`persistent: false`).
   *
   * Default: the IndexedDB database `'longship'` where the runtime has IndexedDB, else memory. A
   * store of your own needs the nine methods of {@link Store}; without a change log of its own
   * (ChangeLog) the indexes are rebuilt from it at every open (docs/guide/custom-store.md).
   */
  store?: Store | string | URL | { path: string | URL } | { indexedDB: string; factory?: IndexedDBFactory };
  /**
   * Turns text into vectors: an Embedder, or `{ transformers: { … } }` for another on-device
   * transformers.js model, which Longship makes and disposes of. Default: the bundled USE-lite, on
   * the device.
   */
  embedder?: Embedder | { transformers: TransformersEmbedderOptions };
  /** The USearch module, or where to load it from (on workerd: the imported `WebAssembly.Module`). */
  usearch?: UsearchModule | WasmSource;
  /**
   * The folder where the package's asset files lie as in the package (`wasm/dist/usearch.wasm`,
   * `model/use-lite/…`, `dist/ort/…`): a URL, or a string relative to the page. Every asset not
   * named on its own (`usearch`, the embedder's `model` and `wasmPaths`) is loaded from there.
   * Default: the package itself (docs/guide/assets.md).
   */
  assets?: string | URL;
  /**
   * The HNSW index's settings (its dimensions are the embedder's). Quantization defaults to `'i8'`.
   * A snapshot made with other settings is rebuilt from the stored vectors.
   */
  vectorIndex?: Omit<VectorIndexOptions, 'dimensions'>;
  /**
   * When the indexes are snapshotted to the store: once they have gone `delayMs` without a change
   * (default 2,000), or `maxDelayMs` after the first change a snapshot lacks while changes keep
   * coming (default 30,000: what an open after a crash replays). `delayMs: Infinity`: only at close().
   * `afterChanges`: only once that many records (nodes, vectors, postings) changed since the last
   * snapshots (default 0); fewer wait for close(), and an open replays them instead (docs/internals/snapshots.md).
   */
  snapshots?: { delayMs?: number; maxDelayMs?: number; afterChanges?: number };
  /**
   * An optional chat model (e.g. `openAiCompatibleLlm(…)`): search() plans typed queries with it,
   * and session commits extract memories with it. Without one both work offline, without it.
   */
  llm?: LLM;
  /** An optional reranker (`remoteReranker(…)`, or `llmReranker(llm)`) for search() in THINKING mode. */
  reranker?: Reranker;
  /** Writes L0/L1 for ingestion and `write()`. Default: extractive; `llmSummarizer(llm)` for an LLM's. */
  summarizer?: Summarizer;
  /**
   * The current user: `viking://~` is `viking://user/{user}`, where its memories and sessions go
   * (docs/guide/namespaces.md). One URI segment; default `'default'`.
   */
  user?: string;
  /** The current agent: its own notes go under `viking://agent/{agent}/memories`. Default `'default'`. */
  agent?: string;
  /** How long memories live and how event memories age in ranking (docs/guide/memory-lifecycle.md). */
  memory?: MemoryOptions;
}

/** An object with these methods: how the parts a caller plugs in are recognised. */
const withMethods = (what: string, ...methods: string[]) =>
  v.custom<object>(
    (x) =>
      typeof x === 'object' &&
      x !== null &&
      methods.every((m) => typeof (x as Record<string, unknown>)[m] === 'function'),
    `must be ${what} (an object with ${methods.join(', ')})`,
  );

const count = v.optional(v.pipe(v.number(), v.minValue(0)));

/** {@link LongshipOptions}, key by key: what openLongship accepts. @internal */
export const longshipOptionsSchema = v.strictObject({
  store: v.optional(
    v.custom<NonNullable<LongshipOptions['store']>>(
      (x) => storeChoice(x) !== undefined,
      "must be a Store, a folder, { path }, { indexedDB: 'name', factory? } or 'memory'",
    ),
  ),
  // The embedder checks each of its transformers options itself.
  embedder: v.optional(
    v.custom<NonNullable<LongshipOptions['embedder']>>(
      (x) => isEmbedder(x) || isTransformersChoice(x),
      'must be an Embedder (an object with embed) or { transformers: { … } }',
    ),
  ),
  usearch: v.optional(
    v.custom<object>((x) => typeof x === 'object' && x !== null, 'must be a module or a source'),
  ),
  // Checked by assetUrls(), which says what is wrong with it.
  assets: v.optional(v.unknown()),
  vectorIndex: v.optional(
    v.strictObject({
      metric: v.optional(v.picklist(['cos', 'ip', 'l2sq'])),
      quantization: v.optional(v.picklist(['f32', 'f16', 'i8'])),
      connectivity: v.optional(v.number()),
      expansionAdd: v.optional(v.number()),
      expansionSearch: v.optional(v.number()),
    }),
  ),
  snapshots: v.optional(v.strictObject({ delayMs: count, maxDelayMs: count, afterChanges: count })),
  llm: v.optional(withMethods('an LLM', 'complete')),
  reranker: v.optional(withMethods('a Reranker', 'rerank')),
  summarizer: v.optional(withMethods('a Summarizer', 'summarize')),
  // checkNamespace() says what is wrong with an id.
  user: v.optional(v.string('must be a string')),
  agent: v.optional(v.string('must be a string')),
  memory: v.optional(memoryOptionsSchema),
});

/** What as() takes: the ids to change. @internal */
const asOptionsSchema = v.strictObject({
  user: v.optional(v.string('must be a string')),
  agent: v.optional(v.string('must be a string')),
});

/** Options of {@link Longship.addResource}: those of ingestion, with progress for this job only. */
export type AddOptions<T extends AddResourceOptions | AddSkillOptions> = Omit<T, 'onProgress'> & {
  onProgress?: (progress: QueueProgress) => void;
};

/** One Longship: the viking:// filesystem, ingestion, and the indexes behind them. */
export interface Longship extends ContextTree {
  /** The store, with every operation the engine derives from the one given (docs/internals/store.md). */
  readonly store: FullStore;
  /** Whether what it holds outlives the process (IndexedDB, a folder); false for the in-memory default. */
  readonly persistent: boolean;
  /** Whose space `viking://~` is, and whose memories and sessions these are (docs/guide/namespaces.md). */
  readonly namespace: Namespace;
  /**
   * The same engine for another user or agent (the ids not given stay): its `viking://~`, its
   * memories and sessions, find() in its spaces. Views share everything else; `close()` on any
   * closes the engine. INVALID_ARGUMENT for an id that is not one URI segment or is reserved.
   */
  as(namespace: { user?: string; agent?: string }): Promise<Longship>;
  readonly embedder: Embedder;
  /**
   * Finds the context that best matches `query`: QUICK (default) searches every node in scope at
   * once, THINKING walks the tree from the best directories down; both fuse BM25 and vectors.
   */
  find(query: string, options?: FindOptions): Promise<FindResult>;
  /**
   * Context-aware retrieval: with an LLM, intent analysis turns the query (and the session's recent
   * messages) into typed queries, each walked in its context type; without one, or when it fails,
   * the query is searched in every type. Optional rerank. `limit` defaults to 3.
   */
  search(query: string, options?: ContextSearchOptions): Promise<SearchResult>;
  /**
   * The context for an agent's next prompt, within `budget.tokens`: the best memories, resources
   * and skills, each at the richest layer that fits, as a prompt-ready block with its parts, their
   * URIs to cite, and what was left out and why; minus what `session` was already given
   * (docs/guide/context.md).
   */
  context(query: string, options: ContextOptions): Promise<AssembledContext>;
  /**
   * A session: its messages (each stored once added), the context it used, and commit() to archive
   * them and extract memories, by hand or by `autoCommit`. A new id when none is given.
   */
  session(id?: string, options?: SessionOptions): Session;
  /** Every session in the store, with its pending messages and archives counted. */
  listSessions(): Promise<SessionInfo[]>;
  /** One session's counts and times; NOT_FOUND for an id with no session. */
  sessionInfo(id: string): Promise<SessionInfo>;
  /** Whether a session `id` is in the store (a message, a use or an archive made it). */
  sessionExists(id: string): Promise<boolean>;
  /**
   * Deletes a session: its pending messages, its archives and its state, after cancelling its
   * commits. The memories extracted from it stay. NOT_FOUND for an id with no session.
   */
  deleteSession(id: string): Promise<DeletedSession>;
  /**
   * Writes a memory of `kind` where extraction would, adding to one of the same name; never drops it
   * (docs/guide/retrieval.md, "Remember"). `await longship.remember('Prefers tabs.', { kind: 'preferences' })`
   */
  remember(content: string, options: RememberOptions): Promise<Remembered>;
  /** Queues a document, a folder or a URL to be read, split, summarised, embedded and written. */
  addResource(input: ResourceInput, options?: AddOptions<AddResourceOptions>): QueuedJob;
  /**
   * Queues a skill: the text of a `SKILL.md`, a skill folder (`{ files: { 'SKILL.md': …, 'scripts/x.py':
   * … } }`) or fields (`{ name, description, content }`). A skill of the same name is replaced. An
   * invalid `SKILL.md` fails the job with `INVALID_ARGUMENT` naming the field, writing nothing
   * (docs/guide/skills.md).
   */
  addSkill(skill: SkillInput, options?: AddOptions<AddSkillOptions>): QueuedJob;
  /** The skills under `viking://agent/skills`, in URI order, with their descriptions. */
  listSkills(): Promise<SkillSummary[]>;
  /** One skill: its front matter, instructions and files. `NOT_FOUND` when there is none. */
  getSkill(name: string): Promise<SkillInfo>;
  /**
   * Queues the removal of a skill with its files, after the jobs queued before it; the job fails
   * with `NOT_FOUND` when there is no such skill then.
   */
  removeSkill(name: string): QueuedJob;
  /** Hears the progress of every queued job; returns the function that stops listening. */
  onProgress(listener: (progress: QueueProgress) => void): () => void;
  /** Resolves once every queued job has finished. */
  waitProcessed(): Promise<QueueSummary>;
  /**
   * Removes the memories that have expired (their `meta.expiresAt`, or their kind's `memory.ttl`), in
   * one commit; an open does it too. find() leaves them out from the moment they expire
   * (docs/guide/memory-lifecycle.md).
   *
   * @example
   * const { removed } = await longship.sweepMemories();
   */
  sweepMemories(options?: { signal?: AbortSignal }): Promise<SweepResult>;
  /**
   * Merges the duplicate memories of each kind: with the LLM, into its rewrite; without one, into
   * every distinct sentence, newest first. Keeps the newest memory's URI, removes the rest in one
   * commit, and says what merged into what (docs/guide/memory-lifecycle.md, "Consolidation").
   *
   * @example
   * const { merges } = await longship.consolidateMemories();
   */
  consolidateMemories(options?: ConsolidateOptions): Promise<Consolidation>;
  /** The directory `uri` and all below it as an OVPack (a ZIP), streamed as read (docs/guide/ovpack.md). */
  export(uri: string, options?: ExportOptions): Promise<ReadableStream<Uint8Array>>;
  /** Checks the OVPack whole, then writes it under `parentUri` as `parentUri/<its root name>`. */
  import(pack: PackInput, parentUri: string, options?: ImportOptions): Promise<ImportResult>;
  /** The store's invariants, and the indexes' agreement with it. Reads everything: for tests and repair. */
  verify(): Promise<VerifyReport>;
  /** Cancels queued jobs, snapshots the indexes, closes the store. */
  close(): Promise<void>;
}

/** Each open Longship's derived indexes: not part of its public face (issue 34). */
const indexesByLongship = new WeakMap<Longship, DerivedIndexes>();

/**
 * The vector and BM25 indexes behind `longship`, kept in step with its store: for tests and
 * benchmarks, which look at what the public API does not show. Not exported by the package.
 *
 * @internal
 */
export function indexesOf(longship: Longship): DerivedIndexes {
  const indexes = indexesByLongship.get(longship);
  if (!indexes)
    throw new LongshipError('INVALID_ARGUMENT', 'indexesOf() needs a Longship openLongship() made');
  return indexes;
}

/** What each view's find() reads: not part of its public face either. */
const sourcesByLongship = new WeakMap<Longship, RetrievalSources>();

/**
 * What `longship.find()` reads (its store, indexes and embedder, searching its namespace's roots):
 * a shard of a corpus answers from it (src/shard/). Not exported by the package.
 *
 * @internal
 */
export function retrievalSourcesOf(longship: Longship): RetrievalSources {
  const sources = sourcesByLongship.get(longship);
  if (!sources)
    throw new LongshipError('INVALID_ARGUMENT', 'retrievalSourcesOf() needs a Longship openLongship() made');
  return sources;
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
  refuseReplacedOptions(options);
  checkOptions(longshipOptionsSchema, options, 'openLongship()');
  const ownEmbedder = !isEmbedder(options.embedder);
  const { embedder, usearchSource } = embedderAndUsearch(options);
  // close() fires this: an embedding under way is abandoned, whether or not the embedder listens.
  const closing = new AbortController();
  const checked = checkedEmbedder(embedder, closing.signal);
  const info = { id: embedder.id, dimensions: embedder.dimensions };
  const opened: Array<() => Promise<unknown>> = [];
  try {
    const [usearch, store] = await allOrClose([
      isModule(usearchSource) ? usearchSource : loadUsearch(usearchSource),
      openStore(options.store, info),
      // A model that cannot load fails the open, loudly, rather than every job after it.
      modelLoaded(embedder),
    ] as const);
    opened.push(() => store.close());
    const indexes = await openDerivedIndexes(derivedOptions(options, store, usearch, embedder.dimensions));
    opened.push(() => indexes.close());
    const summarizer = options.summarizer ?? extractiveSummarizer;
    const namespace = checkNamespace({ user: options.user, agent: options.agent }, 'openLongship()');
    // A store from before namespaces moves into this one's spaces first, in one commit.
    await migrateLayout(indexes.store, namespace, Date.now());
    const writer = await openTreeWriter({ store: indexes.store, embedder: checked, summarizer, namespace });
    // One count for every job of this engine, so a page's jobs (ingestion, commits) never share an id.
    const jobId = counter();
    const ingestor = createIngestor({ store: indexes.store, embedder: checked, summarizer });
    const queue = createIngestQueue(ingestor, { nextId: jobId });
    const memory = await openMemoryLifecycle(
      { store: indexes.store, tree: treeOf(writer), llm: options.llm },
      options.memory,
    );
    const viewOf = engineViews({
      indexes,
      persistent: store.persistent,
      embedder,
      checked,
      writer,
      queue,
      jobId,
      sources: (roots) => retrievalSources(indexes, checked, roots, memory.ageing),
      memory,
      llm: options.llm,
      reranker: options.reranker,
      made: (view) => indexesByLongship.set(view, indexes),
      async close(sessions) {
        // Jobs first: they are cancelled (ABORTED), what else is embedding is cut short (STORE_CLOSED).
        queue.cancel();
        closing.abort(new LongshipError('STORE_CLOSED', 'Longship was closed while this was under way'));
        await queue.waitProcessed();
        // Commits under way stop; their messages stay pending, in the store, for the next commit.
        for (const each of sessions) await each.close();
        await indexes.close();
        await store.close();
        if (ownEmbedder) await embedder.dispose?.();
      },
    });
    return viewOf(namespace);
  } catch (error) {
    for (const close of opened.reverse()) await close().catch(() => undefined);
    if (ownEmbedder) await embedder.dispose?.();
    throw error;
  }
}

/** What retrieval reads: the store and the derived indexes, and the checked embedder for queries. */
function retrievalSources(
  indexes: DerivedIndexes,
  embedder: Embedder,
  roots: RetrievalSources['roots'],
  ageing: () => AgeJudge,
): RetrievalSources {
  return {
    ageing,
    store: indexes.store,
    ...(roots ? { roots } : {}),
    // Getters: the derived indexes replace their index objects when they rebuild.
    get vectors() {
      return indexes.vectors;
    },
    get lexical() {
      return indexes.lexical;
    },
    get nodes() {
      return indexes.nodes;
    },
    embedder,
    vectorKeyToNodeKey: (key) => indexes.nodeOfVector(key),
    vectorKeysOfNode: (key) => indexes.vectorKeysOfNode(key),
    vectorCountOfNode: (key) => indexes.vectorCountOfNode(key),
  };
}

/**
 * The derived indexes as the engine wires them: the implementations it chose (USearch, BM25), the
 * tree's own check for verify() (nodes in their roots), and the caller's settings.
 */
function derivedOptions(
  options: LongshipOptions,
  store: Store,
  usearch: UsearchModule,
  dimensions: number,
): DerivedIndexesOptions {
  const { snapshots } = options;
  return {
    store,
    factories: { vector: usearchIndexes(usearch), lexical: bm25Indexes },
    checks: [placeProblems],
    dimensions,
    ...(options.vectorIndex ? { vectorIndex: options.vectorIndex } : {}),
    ...(snapshots?.delayMs !== undefined ? { snapshotDelayMs: snapshots.delayMs } : {}),
    ...(snapshots?.maxDelayMs !== undefined ? { snapshotMaxDelayMs: snapshots.maxDelayMs } : {}),
    ...(snapshots?.afterChanges !== undefined ? { snapshotAfterChanges: snapshots.afterChanges } : {}),
  };
}

/** Loads an on-device model now (an embedding of one word); other embedders are left alone. */
async function modelLoaded(embedder: Embedder): Promise<void> {
  if (embedder instanceof TransformersEmbedder) await embedder.embed(['Longship']);
}

/**
 * Like Promise.all, but waits for every part, and when one fails closes the parts that opened (a
 * store left open would hold its database), then throws the first failure.
 */
async function allOrClose<T extends readonly unknown[]>(
  parts: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(parts);
  const failure = settled.find((part) => part.status === 'rejected');
  if (!failure) return settled.map((part) => (part as PromiseFulfilledResult<unknown>).value) as never;
  for (const part of settled) {
    const value = part.status === 'fulfilled' ? (part.value as { close?: unknown }) : undefined;
    if (typeof value?.close === 'function') await (value as Store).close().catch(() => undefined);
  }
  throw failure.reason;
}

// Issue 34: one key per component. The keys that chose a part before say what replaced them.
const replacedOptions: Readonly<Record<string, string>> = {
  path: "store: './folder' (or store: { path })",
  indexedDB: "store: { indexedDB: 'name', factory }",
  name: "store: { indexedDB: 'name' }",
  transformers: 'embedder: { transformers: { … } }',
};

/** The embedder, made unless given, and where USearch comes from: as named, or from `assets`. */
function embedderAndUsearch(options: LongshipOptions): {
  embedder: Embedder;
  usearchSource: LongshipOptions['usearch'];
} {
  const assets =
    options.assets === undefined
      ? undefined
      : assetUrls(options.assets, pageLocation()?.href, 'openLongship()');
  const given = options.embedder;
  const embedder = isEmbedder(given)
    ? given
    : new TransformersEmbedder(assets ? fromAssets(given?.transformers, assets) : given?.transformers);
  return { embedder, usearchSource: options.usearch ?? assets?.usearch };
}

/**
 * The embedder's options with what they leave out taken from the `assets` folder: the bundled
 * model's files (under its own id, so that stores made either way match) and onnxruntime-web's.
 * WebGPU needs onnxruntime-web's `.asyncify` files, which the folder lacks: it keeps its own.
 */
function fromAssets(
  options: TransformersEmbedderOptions | undefined,
  assets: AssetUrls,
): TransformersEmbedderOptions {
  const given = options ?? {};
  const { id, dimensions } = bundledModel;
  return {
    ...given,
    model: given.model ?? { id, dimensions, directory: assets.model },
    ...(given.wasmPaths === undefined && given.device !== 'webgpu' ? { wasmPaths: assets.ort } : {}),
  };
}

function refuseReplacedOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null) return;
  const key = Object.keys(options).find((k) => Object.hasOwn(replacedOptions, k));
  if (key === undefined) return;
  throw new LongshipError(
    'INVALID_ARGUMENT',
    `openLongship(): option '${key}' is gone; use ${replacedOptions[key]}`,
  );
}

type StoreChoice =
  | { kind: 'store'; store: Store }
  | { kind: 'memory' }
  | { kind: 'folder'; path: string | URL }
  | { kind: 'indexedDB'; name: string; factory?: IndexedDBFactory };

/** What a `store` option chooses, or undefined for a value that chooses nothing. */
function storeChoice(value: unknown): StoreChoice | undefined {
  if (value === 'memory') return { kind: 'memory' };
  if ((typeof value === 'string' && value !== '') || value instanceof URL)
    return { kind: 'folder', path: value };
  if (typeof value !== 'object' || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  if (STORE_METHODS.every((m) => typeof fields[m] === 'function')) {
    return { kind: 'store', store: value as Store };
  }
  const keys = Object.keys(fields);
  if (
    keys.length === 1 &&
    (typeof fields.path === 'string' || fields.path instanceof URL) &&
    fields.path !== ''
  ) {
    return { kind: 'folder', path: fields.path };
  }
  const factory = fields.factory;
  const goodFactory =
    factory === undefined || (typeof factory === 'object' && factory !== null && 'open' in factory);
  if (
    typeof fields.indexedDB === 'string' &&
    fields.indexedDB !== '' &&
    goodFactory &&
    keys.every((k) => k === 'indexedDB' || k === 'factory')
  ) {
    return {
      kind: 'indexedDB',
      name: fields.indexedDB,
      ...(factory === undefined ? {} : { factory: factory as IndexedDBFactory }),
    };
  }
  return undefined;
}

function isEmbedder(value: unknown): value is Embedder {
  return typeof value === 'object' && value !== null && typeof (value as Embedder).embed === 'function';
}

function isTransformersChoice(value: unknown): value is { transformers: TransformersEmbedderOptions } {
  if (typeof value !== 'object' || value === null) return false;
  const { transformers, ...rest } = value as { transformers?: unknown };
  return typeof transformers === 'object' && transformers !== null && Object.keys(rest).length === 0;
}

async function openStore(
  option: LongshipOptions['store'],
  embedder: { id: string; dimensions: number },
): Promise<FullStore> {
  const choice: StoreChoice | undefined = option === undefined ? undefined : storeChoice(option);
  switch (choice?.kind) {
    case 'store': {
      const store = fullStore(choice.store);
      await store.useEmbedder(embedder);
      return store;
    }
    case 'memory':
      return openMemoryStore({ embedder });
    case 'folder':
      return openFileStore(choice.path, { embedder });
    case 'indexedDB': {
      const factory = choice.factory ?? defaultIndexedDB();
      if (!factory) {
        throw new LongshipError(
          'INVALID_ARGUMENT',
          `openLongship(): this runtime has no IndexedDB for store: { indexedDB: '${choice.name}' }; give its factory`,
        );
      }
      return openIdbStore(choice.name, { indexedDB: factory, embedder });
    }
    default: {
      const factory = defaultIndexedDB();
      return factory
        ? openIdbStore('longship', { indexedDB: factory, embedder })
        : openMemoryStore({ embedder });
    }
  }
}

/** 1, 2, 3, … */
function counter(): () => number {
  let n = 0;
  return () => ++n;
}

function isModule(value: LongshipOptions['usearch']): value is UsearchModule {
  return typeof value === 'object' && value !== null && 'exports' in value && 'memory' in value;
}

/** What every view of one open engine shares. */
interface EngineParts {
  indexes: DerivedIndexes;
  persistent: boolean;
  /** The embedder as given (or made), and the one checked for each call, which close() cuts short. */
  embedder: Embedder;
  checked: Embedder;
  writer: TreeWriter;
  queue: IngestQueue;
  jobId: () => number;
  /** What retrieval reads, searching each context type from `roots` by default. */
  sources(roots: RetrievalSources['roots']): RetrievalSources;
  llm?: LLM | undefined;
  reranker?: Reranker | undefined;
  /** How memories age: find()'s judge, the sweep, and consolidation per namespace. */
  memory: MemoryLifecycle;
  /** Called with each view made, before it is handed out. */
  made(view: Longship): void;
  /** Closes the engine: the queue, the sessions of every view, the indexes, the store. */
  close(sessions: readonly Sessions[]): Promise<void>;
}

/**
 * The views of one engine, one per namespace, made on first use and kept.
 *
 * @example
 * const views = engineViews(parts);
 * const longship = views(namespace);
 */
function engineViews(parts: EngineParts): (namespace: Namespace) => Longship {
  const views = new Map<string, Longship>();
  const sessions: Sessions[] = [];
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= parts.close(sessions);
    return closed;
  };
  const viewOf = (namespace: Namespace): Longship => {
    const key = JSON.stringify([namespace.user, namespace.agent]);
    let view = views.get(key);
    if (!view) {
      view = makeView(parts, namespace, { viewOf, close, sessions });
      parts.made(view);
      views.set(key, view);
    }
    return view;
  };
  return viewOf;
}

interface Shared {
  viewOf(namespace: Namespace): Longship;
  close(): Promise<void>;
  /** Every view's sessions, for close(). */
  sessions: Sessions[];
}

function makeView(parts: EngineParts, namespace: Namespace, shared: Shared): Longship {
  const { indexes, queue, llm, reranker } = parts;
  const store = indexes.store;
  const home = (uri: string) => expandHome(uri, namespace);
  const tree = treeOf({ ...parts.writer, namespace });
  const sources = parts.sources(namespaceRoots(namespace));
  const retriever = createRetriever(sources);
  const find = async (query: string, options?: FindOptions) =>
    retriever.find(
      query,
      options?.targetUri === undefined ? options : { ...options, targetUri: home(options.targetUri) },
    );
  const sessionsRoot = sessionsRootOf(namespace);
  const sessions = createSessions({
    store,
    sessionsRoot,
    namespace,
    embedder: parts.checked,
    tree,
    find,
    jobId: parts.jobId,
    ...(llm ? { llm } : {}),
  });
  shared.sessions.push(sessions);
  const searchDeps = {
    find,
    node: (uri: string) => store.node(uri),
    ...(llm ? { llm } : {}),
    ...(reranker ? { reranker } : {}),
  };
  const search = (query: string, options: ContextSearchOptions = {}) => runSearch(searchDeps, query, options);
  const contextDeps = {
    store,
    search,
    // The calibration was measured with the bundled model: another embedder's scores mean less.
    noGoodMatch: parts.embedder.id === bundledModel.id ? findDefaults.noGoodMatch : 0,
    // Each session's deliveries are kept with its state in the store, so a reopened session is
    // not sent again what it already has.
    delivered: {
      readDelivered: (_: unknown, id: string) => readDelivered(store, sessionsRoot, id),
      recordDelivered: (_: unknown, id: string, entries: readonly { uri: string; hash: string }[]) =>
        recordDelivered(store, sessionsRoot, id, entries),
    },
    ...(llm ? { llm } : {}),
  };
  const following = (job: QueuedJob, listener?: (progress: QueueProgress) => void): QueuedJob => {
    if (listener) {
      const stop = queue.onProgress((progress) => progress.jobId === job.id && listener(progress));
      job.then(stop, stop);
    }
    return job;
  };
  const view: Longship = {
    ...tree,
    namespace,
    async as(other) {
      const given = checkOptions(asOptionsSchema, other, 'as()');
      const next = checkNamespace({ ...namespace, ...given }, 'as()');
      await ensureRoots(store, parts.writer.now, next);
      return shared.viewOf(next);
    },
    find,
    search,
    context: (query, options) => assembleContext(contextDeps, query, options),
    session: (id, options) => sessions.open(id, options),
    listSessions: () => sessions.list(),
    sessionInfo: (id) => sessions.info(id),
    sessionExists: (id) => sessions.exists(id),
    deleteSession: (id) => sessions.delete(id),
    remember: (content, options) => remember({ store, tree, namespace }, content, options),
    store,
    persistent: parts.persistent,
    embedder: parts.embedder,
    addResource: (input, options?: AddOptions<AddResourceOptions>) => {
      checkOptions(addResourceOptionsSchema, options, 'addResource()');
      const { signal, onProgress, target, ...rest } = options ?? {};
      const where = target === undefined ? {} : { target: home(target) };
      return following(
        queue.enqueue({
          kind: 'resource',
          input,
          options: { ...rest, ...where },
          ...(signal ? { signal } : {}),
        }),
        onProgress,
      );
    },
    addSkill: (skill, options?: AddOptions<AddSkillOptions>) => {
      checkOptions(addSkillOptionsSchema, options, 'addSkill()');
      const { signal, onProgress, ...rest } = options ?? {};
      return following(
        queue.enqueue({ kind: 'skill', skill, options: rest, ...(signal ? { signal } : {}) }),
        onProgress,
      );
    },
    listSkills: () => listSkills(store),
    getSkill: (name) => getSkill(store, name),
    removeSkill: (name) => {
      if (typeof name !== 'string') throw new LongshipError('INVALID_ARGUMENT', 'removeSkill() needs a name');
      return queue.enqueue({ kind: 'remove-skill', name });
    },
    onProgress: (listener) => queue.onProgress(listener),
    waitProcessed: () => queue.waitProcessed(),
    ...parts.memory.methods(namespaceRoots(namespace).memory),
    // Loaded on first use, as the document readers are: a zip library is no part of every app.
    export: async (uri, o) =>
      (await import('./ovpack/export-pack.js')).exportPack({ store, embedder: parts.checked }, home(uri), o),
    import: async (pack, parent, o) =>
      (await import('./ovpack/import-pack.js')).importPack(
        { store, embedder: parts.checked },
        pack,
        home(parent),
        o,
      ),
    verify: () => indexes.verify(),
    close: shared.close,
  };
  sourcesByLongship.set(view, sources);
  return view;
}

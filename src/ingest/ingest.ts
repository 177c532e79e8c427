/**
 * Ingestion from input to committed store writes: read → plan (against what the store holds, so
 * unchanged nodes are skipped) → embed → commit the documents of each embedding call together, so
 * a crash or a cancellation leaves each document whole or absent, and a commit's fixed cost (an
 * IndexedDB transaction, a change record, an index catch-up) is paid once per call, not per
 * document. The queue (queue.ts) runs these one job at a time.
 */
import * as v from 'valibot';
import { throwIfAborted } from '../abort.js';
import { contextTypeOf, isWithin, join, parseUri, roots, type VikingUri } from '../context/uri.js';
import type { ChunkOptions } from '../embed/chunk.js';
import type { Embedder } from '../embed/embedder.js';
import { LongshipError } from '../errors.js';
import { functionSchema, signalSchema, wholeNumber } from '../options.js';
import { SerialQueue } from '../serial-queue.js';
import type { ContextType, NodeRecord, Store } from '../store/store.js';
import { chainOf, missingDirectories, refreshChain } from './ancestors.js';
import { extractiveSummarizer } from './extractive-summarizer.js';
import {
  type InputBatch,
  type InputDocument,
  type InputOptions,
  type ResourceInput,
  readInput,
} from './input.js';
import { parseDocument, parseProblem } from './parse.js';
import { type PreviousNode, planResource, type ResourceNode } from './plan.js';
import { planSkill, type SkillInput } from './skill.js';
import { safeName, slugify } from './slug.js';
import type { SplitOptions } from './split.js';
import type { Summarizer } from './summarize.js';
import {
  type BatchContext,
  buildBatch,
  defaultChunkTokens,
  embedWrites,
  isEmptyBatch,
  keyPool,
  type NodeWrite,
} from './write-batch.js';

export interface IngestorParts {
  store: Store;
  /** Must be the embedder the store recorded (id and dimensions), else `EMBEDDER_MISMATCH`. */
  embedder: Embedder;
  /** Writes L0/L1; default the extractive summariser. */
  summarizer?: Summarizer;
  /** Most estimated tokens per embedded chunk: the model's window with headroom. Default 90 (USE-lite's 128). */
  chunkTokens?: number;
}

export type IngestPhase = 'read' | 'plan' | 'embed' | 'write';

/**
 * Where a job is. `total` counts documents (0 until they are read); `done` counts documents
 * finished: committed, or found unchanged. `write` comes as a document's commit starts, then again
 * once it is finished with `done` counting it: from then on that document stays, whatever happens
 * to the job.
 */
export interface IngestProgress {
  phase: IngestPhase;
  done: number;
  total: number;
  uri?: string;
}

export interface AddResourceOptions extends Omit<InputOptions, 'signal'>, SplitOptions {
  /** The directory to add under; default `viking://resources`. Missing directories are created. */
  target?: string;
  /** Why it was added; kept as `meta.reason` on every node written. */
  reason?: string;
  /**
   * Default true: re-summarise and re-embed the directories from the target up to its root once
   * the job is done. The queue turns it off and does it once per busy spell instead
   * (`Ingestor.refreshParents`), so a hundred small adds do not re-embed the root a hundred times.
   */
  refreshParents?: boolean;
  /** Stops between steps; documents already committed stay (see {@link IngestProgress}). */
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

export interface AddSkillOptions {
  reason?: string;
  /** As for {@link AddResourceOptions.refreshParents}: `viking://agent/skills` and `viking://agent`. */
  refreshParents?: boolean;
  maxBytes?: number;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

const ingestEntries = {
  reason: v.optional(v.string()),
  refreshParents: v.optional(v.boolean()),
  maxBytes: v.optional(wholeNumber(1)),
  signal: v.optional(signalSchema),
  onProgress: v.optional(functionSchema),
};

/** {@link AddResourceOptions}, key by key. @internal */
export const addResourceOptionsSchema = v.strictObject({
  ...ingestEntries,
  target: v.optional(v.string()),
  name: v.optional(v.string()),
  fetch: v.optional(functionSchema),
  maxTokens: v.optional(wholeNumber(1)),
  mergeBelow: v.optional(wholeNumber(0)),
});

/** {@link AddSkillOptions}, key by key. @internal */
export const addSkillOptionsSchema = v.strictObject(ingestEntries);

/** What one job wrote. Counts are of planned nodes; the directories above the target are kept up to date but not counted. */
export interface IngestResult {
  /** Each document's node (a file, or the directory it was split into), in input order; or the skill's. */
  uris: string[];
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  /** Folder entries left out as binary or too large. */
  skipped: { path: string; error: LongshipError }[];
}

export interface Ingestor {
  /**
   * Reads, plans, embeds and commits `input` under `options.target`, each document whole or not at all.
   * Adding the same input again writes only what changed, and nothing when nothing did; what the
   * store holds below each document's node (or below a named folder's directory) and the input no
   * longer has is deleted. Throws what readInput throws, `ABORTED`, `EMBEDDER_MISMATCH`, and the
   * store's errors (`QUOTA_EXCEEDED`…) for the document being written; earlier documents stay.
   */
  addResource(input: ResourceInput, options?: AddResourceOptions): Promise<IngestResult>;
  /** Adds or updates a skill at `viking://agent/skills/<slug of its name>`. */
  addSkill(skill: SkillInput, options?: AddSkillOptions): Promise<IngestResult>;
  /**
   * Brings the summaries and vectors of `uri` and the directories above it up to date with their
   * children; writes nothing where they already are.
   */
  refreshParents(uri: string, options?: { signal?: AbortSignal }): Promise<void>;
}

/**
 * Embedding is batched across documents up to about this many nodes, then they are committed together.
 * A commit's cost is partly per commit (its durable flush): in Chromium at 100k, store + index took
 * 1.04-1.20 ms a document in commits of 64 against 1.20-1.53 in commits of 32 (medians of 3 processes).
 */
export const nodesPerEmbedCall = 64;

/** One commit: a document's writes and deletions (or, last, what belongs to no single document). */
export interface Unit {
  uri?: string;
  writes: NodeWrite[];
  deletions: string[];
}

/**
 * The units in commits of as many as can share one. One batch's deletions and writes are not applied
 * in unit order, so a unit starts a new commit when a URI it deletes is, is within or holds one an
 * earlier unit of the commit writes or deletes, or when it writes one that is or is within such a
 * deletion. (Different documents never overlap so: this is a guard, not the common path.)
 */
export function commitParts(units: readonly Unit[]): Unit[][] {
  const parts: Unit[][] = [];
  let part: Unit[] = [];
  let touched: VikingUri[] = [];
  let deleted: VikingUri[] = [];
  const overlap = (a: VikingUri, b: VikingUri) => isWithin(a, b) || isWithin(b, a);
  for (const unit of units) {
    const writes = unit.writes.map((write) => write.node.uri);
    const deletions = unit.deletions as VikingUri[];
    const clash =
      deletions.some((uri) => touched.some((other) => overlap(uri, other))) ||
      writes.some((uri) => deleted.some((other) => isWithin(uri, other)));
    if (clash) {
      parts.push(part);
      part = [];
      touched = [];
      deleted = [];
    }
    part.push(unit);
    touched.push(...writes, ...deletions);
    deleted.push(...deletions);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

const asPrevious = (node: NodeRecord): PreviousNode => ({
  contentHash: node.hash ?? '',
  l0: node.l0,
  l1: node.l1 ?? '',
  summaryKind: node.summaryKind,
});

/** A resource's target: viking://resources or a folder in it, as write() and mkdir() keep to the roots. */
function resolveTarget(target: string | undefined): VikingUri {
  const root = roots.resource[0]!;
  const uri = target === undefined ? root : parseUri(target);
  if (uri === 'viking://') throw new LongshipError('INVALID_ARGUMENT', 'cannot add at the top viking://');
  if (!isWithin(uri, root)) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `a resource's target must be ${root} or inside it, not ${uri}`,
    );
  }
  return uri;
}

/**
 * The documents a parser would refuse (JSON nested too deep) join the skipped files, named with
 * their reason; the others are ingested. Nothing left to ingest: the first refusal is the job's.
 */
function withoutUnparsable(read: InputBatch): InputBatch {
  const documents: InputDocument[] = [];
  const skipped = [...read.skipped];
  for (const document of read.documents) {
    const problem = parseProblem(document);
    if (problem) skipped.push({ path: document.path, error: problem });
    else documents.push(document);
  }
  if (documents.length === 0 && skipped.length > 0) throw skipped[0]!.error;
  return { documents, skipped };
}

/** The name a document's top node gets under the target, as plan.ts names it (barring clashes). */
function topName(document: InputDocument): string {
  const first = document.path.split('/').find((p) => p !== '');
  return first !== undefined ? safeName(first) : slugify(parseDocument(document).title, 'untitled');
}

/**
 * Creates an {@link Ingestor} writing to `parts.store`. Jobs on one ingestor run one at a time.
 *
 * @example
 * const ingestor = createIngestor({ store, embedder: new TransformersEmbedder() });
 * const { uris } = await ingestor.addResource('# Notes\n…', { name: 'notes.md', reason: 'onboarding' });
 */
export function createIngestor(parts: IngestorParts): Ingestor {
  const { store, embedder } = parts;
  const summarizer = parts.summarizer ?? extractiveSummarizer;
  const chunking: ChunkOptions = { maxTokens: parts.chunkTokens ?? defaultChunkTokens };
  const keys = keyPool(store);
  let embedderChecked: Promise<unknown> | undefined;
  // Two jobs at once would both create a missing parent directory, with different keys.
  const jobs = new SerialQueue();
  const exclusive = <T>(run: () => Promise<T>): Promise<T> => jobs.run(run);

  const checkEmbedder = () => {
    embedderChecked ??= store
      .useEmbedder({ id: embedder.id, dimensions: embedder.dimensions })
      .catch((error: unknown) => {
        embedderChecked = undefined;
        throw error;
      });
    return embedderChecked;
  };

  async function loadSubtrees(uris: Iterable<string>, into: Map<string, NodeRecord>): Promise<void> {
    // One read for the tops (a folder of 256 notes took 256 reads, ~80 ms in Chromium); only a
    // directory has anything below it.
    for (const node of await store.nodes([...uris])) {
      if (!node) continue;
      into.set(node.uri, node);
      if (node.kind === 'dir')
        for (const below of await store.descendants(node.uri)) into.set(below.uri, below);
    }
  }

  /** Plans against the stored subtrees the documents land on, so `removed` never reaches beyond them. */
  async function planAgainstStore(
    documents: readonly InputDocument[],
    target: VikingUri,
    options: AddResourceOptions,
  ) {
    const stored = new Map<string, NodeRecord>();
    const loaded = new Set(documents.map((d) => join(target, topName(d))));
    await loadSubtrees(loaded, stored);
    for (;;) {
      const previous = new Map([...stored].map(([uri, node]) => [uri, asPrevious(node)]));
      const plan = await planResource(documents, {
        target,
        summarizer,
        previous,
        ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
        ...(options.mergeBelow !== undefined ? { mergeBelow: options.mergeBelow } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      // A name clash inside the input (two entries both named "a.md" once made safe) moves a
      // document to "a-2.md"; what the store holds there must be planned against too.
      const tops = plan.nodes.filter((n) => n.relativePath.length === 1 && !loaded.has(n.uri));
      if (tops.length === 0) return { plan, stored };
      for (const n of tops) loaded.add(n.uri);
      await loadSubtrees(
        tops.map((n) => n.uri),
        stored,
      );
    }
  }

  /** Vectors of a stored node with the same content: a renamed section need not be embedded again. */
  async function reusable(node: ResourceNode, stored: ReadonlyMap<string, NodeRecord>) {
    const source = node.sameContentAs === undefined ? undefined : stored.get(node.sameContentAs);
    if (node.kind !== 'file' || source?.kind !== 'file') return undefined;
    const vectors = await store.vectorsOfNode(source.key);
    return vectors.length > 0 && vectors.every((v, i) => v.chunk === i)
      ? vectors.map((v) => v.vector)
      : undefined;
  }

  /** Embeds and commits the units in order, embedding several documents per call. */
  async function commitUnits(
    units: readonly Unit[],
    context: { contextType: ContextType; reason?: string; now: number },
    stored: ReadonlyMap<string, NodeRecord>,
    report: (progress: IngestProgress) => void,
    signal: AbortSignal | undefined,
    total: number,
  ): Promise<void> {
    let done = 0;
    for (let start = 0; start < units.length; ) {
      let end = start;
      let nodes = 0;
      while (end < units.length && (end === start || nodes < nodesPerEmbedCall)) {
        nodes += units[end]!.writes.length;
        end++;
      }
      const group = units.slice(start, end);
      throwIfAborted(signal, 'ingestion');
      const first = group.find((unit) => unit.writes.length > 0);
      if (first) report({ phase: 'embed', done, total, ...(first.uri ? { uri: first.uri } : {}) });
      const writes: NodeWrite[] = [];
      for (const unit of group) {
        for (const write of unit.writes) {
          const planned = write.node as ResourceNode;
          if (!write.vectors && planned.sameContentAs !== undefined) {
            const vectors = await reusable(planned, stored);
            if (vectors) write.vectors = vectors;
          }
          writes.push(write);
        }
      }
      const vectors = await embedWrites(writes, embedder, chunking, signal);
      let at = 0;
      for (const part of commitParts(group)) {
        const partWrites = part.flatMap((unit) => unit.writes);
        const mine = vectors.slice(at, at + partWrites.length);
        at += partWrites.length;
        const deletions = part.flatMap((unit) => unit.deletions);
        const batch = await buildBatch(keys, partWrites, mine, deletions, context);
        if (!isEmptyBatch(batch)) {
          throwIfAborted(signal, 'ingestion');
          const uri = part.find((unit) => unit.uri !== undefined)?.uri;
          report({ phase: 'write', done, total, ...(uri ? { uri } : {}) });
          await store.commit(batch, signal);
        }
        for (const unit of part) {
          if (unit.uri === undefined) continue;
          done++;
          report({ phase: 'write', done, total, uri: unit.uri });
        }
      }
      start = end;
    }
  }

  async function refreshAbove(
    target: VikingUri,
    context: { contextType: ContextType; now: number },
    signal?: AbortSignal,
  ) {
    const writes = await refreshChain(store, chainOf(target), summarizer, signal);
    if (writes.length === 0) return;
    const vectors = await embedWrites(writes, embedder, chunking, signal);
    throwIfAborted(signal, 'ingestion');
    await store.commit(await buildBatch(keys, writes, vectors, [], context), signal);
  }

  /** Once every document is in, a cancellation only skips the parents' refresh: the job did its work. */
  async function refreshAfter(target: VikingUri, context: BatchContext, signal: AbortSignal | undefined) {
    if (signal?.aborted) return;
    try {
      await refreshAbove(target, { contextType: context.contextType, now: context.now }, signal);
    } catch (error) {
      if (!(signal?.aborted && error instanceof LongshipError && error.code === 'ABORTED')) throw error;
    }
  }

  async function addResource(input: ResourceInput, options: AddResourceOptions): Promise<IngestResult> {
    const { signal } = options;
    const report = (progress: IngestProgress) => options.onProgress?.(progress);
    const target = resolveTarget(options.target);
    const contextType = contextTypeOf(target) ?? 'resource';
    report({ phase: 'read', done: 0, total: 0 });
    const read = await readInput(input, {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(signal ? { signal } : {}),
    });
    const { documents, skipped } = withoutUnparsable(read);
    const total = documents.length;
    report({ phase: 'plan', done: 0, total });
    await checkEmbedder();
    const chain = chainOf(target);
    const missing = await missingDirectories(store, chain, summarizer.kind);
    const { plan, stored } = await planAgainstStore(documents, target, options);

    const bySource = new Map<string, ResourceNode[]>();
    for (const n of plan.nodes) {
      if (n.source === undefined) continue;
      const same = bySource.get(n.source);
      if (same) same.push(n);
      else bySource.set(n.source, [n]);
    }
    // The document node is the first planned node of its source (parents come first).
    const docs = documents.map((d) => bySource.get(d.path)![0]!);
    const folderDirs = plan.nodes.filter((n) => n.source === undefined && n.change !== 'unchanged');
    const pending = new Set(folderDirs);
    let removed = plan.removed;
    const toWrite = (node: ResourceNode): NodeWrite => {
      const previous = stored.get(node.uri);
      return previous ? { node, previous } : { node };
    };
    const units: Unit[] = docs.map((top) => {
      const own = bySource.get(top.source!)!.filter((n) => n.change !== 'unchanged');
      const deletions = removed.filter((uri) => isWithin(uri as VikingUri, top.uri));
      if (deletions.length > 0) removed = removed.filter((uri) => !isWithin(uri as VikingUri, top.uri));
      const writes: NodeWrite[] = [];
      if (own.length > 0 || deletions.length > 0) {
        // The first document written below a new or changed folder directory brings it along.
        writes.push(...missing.splice(0));
        for (const dir of folderDirs) {
          if (pending.has(dir) && isWithin(top.uri, dir.uri)) {
            pending.delete(dir);
            writes.push(toWrite(dir));
          }
        }
        writes.push(...own.map(toWrite));
      }
      return { uri: top.uri, writes, deletions };
    });
    // Folder directories whose documents are all unchanged, and documents gone from the folder.
    units.push({ writes: [...missing, ...[...pending].map(toWrite)], deletions: removed });

    const context = {
      contextType,
      now: Date.now(),
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
    };
    await commitUnits(units, context, stored, report, signal, total);
    if (options.refreshParents !== false) await refreshAfter(target, context, signal);
    const count = (change: ResourceNode['change']) => plan.nodes.filter((n) => n.change === change).length;
    return {
      uris: docs.map((n) => n.uri),
      added: count('added'),
      changed: count('changed'),
      unchanged: count('unchanged'),
      removed: plan.removed.length,
      skipped,
    };
  }

  async function addSkill(skill: SkillInput, options: AddSkillOptions): Promise<IngestResult> {
    const { signal } = options;
    const report = (progress: IngestProgress) => options.onProgress?.(progress);
    report({ phase: 'plan', done: 0, total: 1 });
    const slug = typeof skill?.name === 'string' ? slugify(skill.name.trim(), '') : '';
    const root = roots.skill[0]!;
    const previous = slug === '' ? undefined : await store.node(join(root, slug));
    const node = await planSkill(skill, {
      summarizer,
      ...(previous ? { previous: asPrevious(previous) } : {}),
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(signal ? { signal } : {}),
    });
    const result: IngestResult = {
      uris: [node.uri],
      added: node.change === 'added' ? 1 : 0,
      changed: node.change === 'changed' ? 1 : 0,
      unchanged: node.change === 'unchanged' ? 1 : 0,
      removed: 0,
      skipped: [],
    };
    if (node.change === 'unchanged') {
      report({ phase: 'write', done: 1, total: 1, uri: node.uri });
      return result;
    }
    await checkEmbedder();
    const write: NodeWrite = {
      node,
      meta: { description: skill.description.trim() },
      lead: `${node.title}: ${node.l0}`,
      ...(previous ? { previous } : {}),
    };
    const missing = await missingDirectories(store, chainOf(root), summarizer.kind);
    // A skill replaces whatever is at its URI; a directory's contents go with it, as below a document.
    const deletions = previous?.kind === 'dir' ? (await store.descendants(node.uri)).map((n) => n.uri) : [];
    const context = {
      contextType: 'skill' as const,
      now: Date.now(),
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
    };
    await commitUnits(
      [{ uri: node.uri, writes: [...missing, write], deletions }],
      context,
      new Map(),
      report,
      signal,
      1,
    );
    if (options.refreshParents !== false) await refreshAfter(root, context, signal);
    return result;
  }

  return {
    addResource: (input, options = {}) => exclusive(() => addResource(input, options)),
    addSkill: (skill, options = {}) => exclusive(() => addSkill(skill, options)),
    refreshParents: (uri, options = {}) =>
      exclusive(() =>
        refreshAbove(
          parseUri(uri),
          { contextType: contextTypeOf(parseUri(uri)) ?? 'resource', now: Date.now() },
          options.signal,
        ),
      ),
  };
}

// addResource(): read the input, plan it against the stored subtrees it lands on, then embed and
// commit it document by document (commit/commit-units.ts) and refresh the directories above.
import { roots } from '../context/namespace.js';
import { contextTypeOf, isWithin, join, parseUri, type VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import type { NodeRecord } from '../store/store.js';
import { chainOf, missingDirectories } from './commit/ancestors.js';
import type { Unit } from './commit/commit-parts.js';
import { commitUnits } from './commit/commit-units.js';
import { refreshAfter } from './commit/refresh-parents.js';
import type { NodeWrite } from './commit/write-batch.js';
import type { AddResourceOptions, IngestResult } from './ingest.js';
import { asPrevious, type IngestContext, type Report } from './ingest-context.js';
import { type InputBatch, type InputDocument, type ResourceInput, readInput } from './input.js';
import { parseDocument, parseProblem } from './parse/parse.js';
import { planResource, type ResourceNode, type ResourcePlan } from './plan.js';
import { safeName, slugify } from './slug.js';

export async function addResource(
  ctx: IngestContext,
  input: ResourceInput,
  options: AddResourceOptions,
): Promise<IngestResult> {
  const { signal } = options;
  const report: Report = (progress) => options.onProgress?.(progress);
  const target = resolveTarget(options.target);
  const contextType = contextTypeOf(target) ?? 'resource';
  report({ phase: 'read', done: 0, total: 0 });
  const read = await readInput(
    input,
    {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(signal ? { signal } : {}),
    },
    (done, total) => report({ phase: 'read', done, total }),
  );
  const { documents, skipped } = withoutUnparsable(read);
  const total = documents.length;
  report({ phase: 'plan', done: 0, total });
  await ctx.checkEmbedder();
  const missing = await missingDirectories(ctx.store, chainOf(target), ctx.summarizer.kind);
  const { plan, stored } = await planAgainstStore(ctx, documents, target, options);
  const { docs, units } = unitsOf(documents, plan, stored, missing);
  const context = {
    contextType,
    now: Date.now(),
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
  };
  await commitUnits(ctx, units, context, stored, report, signal, total);
  if (options.refreshParents !== false) await refreshAfter(ctx, target, context, signal);
  const count = (change: ResourceNode['change']) => plan.nodes.filter((n) => n.change === change).length;
  const scannedPages = documents
    .filter((d) => (d.paged?.scannedPages.length ?? 0) > 0)
    .map((d) => ({ path: d.path, pages: d.paged!.scannedPages }));
  return {
    uris: docs.map((n) => n.uri),
    added: count('added'),
    changed: count('changed'),
    unchanged: count('unchanged'),
    removed: plan.removed.length,
    skipped,
    ...(scannedPages.length > 0 ? { scannedPages } : {}),
  };
}

/** A resource's target: viking://resources or a folder in it, as write() and mkdir() keep to the roots. */
export function resolveTarget(target: string | undefined): VikingUri {
  const root = roots.resource[0]!;
  const uri = target === undefined ? root : parseUri(target);
  if (uri === 'viking://') throw new LongshipError('INVALID_ARGUMENT', 'cannot add at the top viking://');
  // Shared resources, a user's own (`viking://user/{id}/resources`) or a peer's: any place whose
  // shape says resource (docs/guide/namespaces.md).
  if (contextTypeOf(uri) !== 'resource') {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `a resource's target must be ${root}, a user's resources (viking://~/resources) or inside them, not ${uri}`,
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

async function loadSubtrees(
  ctx: IngestContext,
  uris: Iterable<string>,
  into: Map<string, NodeRecord>,
): Promise<void> {
  // One read for the tops (a folder of 256 notes took 256 reads, ~80 ms in Chromium); only a
  // directory has anything below it.
  for (const node of await ctx.store.nodes([...uris])) {
    if (!node) continue;
    into.set(node.uri, node);
    if (node.kind === 'dir')
      for (const below of await ctx.store.descendants(node.uri)) into.set(below.uri, below);
  }
}

/** Plans against the stored subtrees the documents land on, so `removed` never reaches beyond them. */
async function planAgainstStore(
  ctx: IngestContext,
  documents: readonly InputDocument[],
  target: VikingUri,
  options: AddResourceOptions,
): Promise<{ plan: ResourcePlan; stored: Map<string, NodeRecord> }> {
  const stored = new Map<string, NodeRecord>();
  const loaded = new Set(documents.map((d) => join(target, topName(d))));
  await loadSubtrees(ctx, loaded, stored);
  for (;;) {
    const previous = new Map([...stored].map(([uri, node]) => [uri, asPrevious(node)]));
    const plan = await planResource(documents, {
      target,
      summarizer: ctx.summarizer,
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
      ctx,
      tops.map((n) => n.uri),
      stored,
    );
  }
}

/**
 * One unit per document, in input order: its changed nodes, the deletions below it, and the
 * missing or changed directories above it that its commit brings along; last, a unit for what
 * belongs to no document. `docs` is each document's top node.
 */
function unitsOf(
  documents: readonly InputDocument[],
  plan: ResourcePlan,
  stored: ReadonlyMap<string, NodeRecord>,
  missing: NodeWrite[],
): { docs: ResourceNode[]; units: Unit[] } {
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
    if (!previous) return { node };
    return { node, previous: node.source === undefined ? withoutDocumentMeta(previous) : previous };
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
  return { docs, units };
}

/**
 * A stored node that a folder directory replaces, without the meta that marks a document's nodes:
 * kept, a folder added where a document of its name was would read as that document (read() of a
 * directory with `meta.source`, docs/guide/retrieval.md "Reading a whole document").
 */
function withoutDocumentMeta(previous: NodeRecord): NodeRecord {
  const { source: _source, format: _format, ...meta } = previous.meta;
  return { ...previous, meta };
}

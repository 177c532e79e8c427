// consolidateMemories() (docs/guide/memory-lifecycle.md, "Consolidation"): memories of one kind in one
// directory that say the same thing become one. With an LLM it writes the merged memory; without
// one, or when its answer fails, the merge is extractive: every distinct sentence, newest first.
// Each group's merged memory is written first, then every merged-away memory goes in one commit: a
// consolidation cut short leaves duplicates whose text the merged memory holds, which the next one
// merges again, and never a memory lost.
import * as v from 'valibot';
import { throwIfAborted } from '../abort.js';
import { clampText } from '../context/summarize.js';
import type { ContextTree } from '../context/tree.js';
import type { LLM } from '../llm/llm.js';
import { memoryMergePrompt } from '../llm/prompts.js';
import { runPrompt } from '../llm/run-prompt.js';
import { signalSchema } from '../options.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';
import { duplicateGroups } from './duplicates.js';
import { isExpired } from './expiry.js';
import { mergeSentences } from './extractive-merge.js';
import type { MemorySettings } from './memory-options.js';
import { memoryKindOf, memoryTimeOf } from './memory-time.js';

export interface ConsolidateOptions {
  /**
   * The Jaccard similarity of two memories' sets of words (stemmed, stop words left out) at which
   * they are duplicates, in (0, 1]. Memories with the same name or the same words always are.
   * Default 0.8 (docs/guide/memory-lifecycle.md, "Consolidation", says how it was chosen).
   */
  similarity?: number;
  signal?: AbortSignal;
}

/** @internal */
export const consolidateOptionsSchema = v.strictObject({
  similarity: v.optional(
    v.pipe(v.number(), v.gtValue(0, 'must be above 0'), v.maxValue(1, 'must be at most 1')),
  ),
  signal: v.optional(signalSchema),
});

export const defaultSimilarity = 0.8;

/** One merge: the memories `from` merged into `into`, then removed. */
export interface MemoryMerge {
  into: string;
  from: string[];
  kind: string;
  /** Who wrote the merged text: the LLM, or the extractive merge (no LLM, or its answer failed). */
  via: 'llm' | 'extractive';
  /** Why the LLM's merge was not used, when it failed. */
  error?: string;
}

export interface Consolidation {
  merges: MemoryMerge[];
  /** Memories removed: every `from` of every merge. */
  removed: number;
}

export interface ConsolidateDeps {
  store: Pick<FullStore, 'descendants' | 'commit'>;
  tree: Pick<ContextTree, 'write'>;
  /** Where memories are: every memory below these is considered. */
  memoryRoots: readonly string[];
  settings: Pick<MemorySettings, 'ttl' | 'now'>;
  llm?: LLM;
}

/**
 * Merges the duplicate memories of each kind in each directory (expired ones are left to the sweep).
 *
 * @example
 * const { merges } = await consolidateMemories(deps, { similarity: 0.8 });
 */
export async function consolidateMemories(
  deps: ConsolidateDeps,
  options: ConsolidateOptions = {},
): Promise<Consolidation> {
  const { signal } = options;
  throwIfAborted(signal, 'consolidateMemories()');
  const similarity = options.similarity ?? defaultSimilarity;
  const now = deps.settings.now();
  const groups = new Map<string, NodeRecord[]>();
  for (const root of deps.memoryRoots) {
    for (const node of await deps.store.descendants(root)) {
      const kind = memoryKindOf(node);
      if (kind === undefined || isExpired(node, deps.settings.ttl, now)) continue;
      // One directory: memories of two users (or agents) never merge.
      const key = `${node.parent}\u0000${kind}`;
      const group = groups.get(key);
      if (group) group.push(node);
      else groups.set(key, [node]);
    }
  }
  const merges: MemoryMerge[] = [];
  for (const nodes of groups.values()) {
    const found = duplicateGroups(
      nodes.map((node) => ({ name: nameOf(node), text: textOf(node) })),
      similarity,
    );
    for (const members of found) {
      throwIfAborted(signal, 'consolidateMemories()');
      merges.push(await merge(deps, newestFirst(members.map((i) => nodes[i]!)), signal));
    }
  }
  const removed = merges.flatMap((m) => m.from);
  if (removed.length > 0) await deps.store.commit({ deleteNodes: removed }, signal);
  return { merges, removed: removed.length };
}

/** Writes the merge of `nodes` (newest first) over the newest. */
async function merge(
  deps: ConsolidateDeps,
  nodes: readonly NodeRecord[],
  signal: AbortSignal | undefined,
): Promise<MemoryMerge> {
  const [newest, ...rest] = nodes as [NodeRecord, ...NodeRecord[]];
  const kind = memoryKindOf(newest)!;
  const result: MemoryMerge = { into: newest.uri, from: rest.map((n) => n.uri), kind, via: 'extractive' };
  let abstract = newest.l0;
  let content = mergeSentences(nodes.map(textOf));
  if (deps.llm) {
    try {
      const { output } = await runPrompt(
        deps.llm,
        memoryMergePrompt,
        {
          kind,
          memories: nodes.map((node) => ({
            uri: node.uri,
            content: textOf(node),
            ...(typeof node.meta.occurredAt === 'number'
              ? { occurredAt: new Date(memoryTimeOf(node)).toISOString() }
              : {}),
          })),
        },
        signal ? { signal } : {},
      );
      ({ abstract, content } = output);
      result.via = 'llm';
    } catch (error) {
      if (signal?.aborted) throw error;
      result.error = error instanceof Error ? error.message : String(error);
    }
  }
  await deps.tree.write(newest.uri, content, {
    abstract,
    // A memory is short: its text is its overview, as extraction writes it.
    overview: clampText(content, 1500),
    meta: mergedMeta(nodes),
    ...(signal ? { signal } : {}),
  });
  return result;
}

/**
 * The newest memory's meta, with the union of every memory's `sources`, the earliest `occurredAt`,
 * and the latest `expiresAt` when each has one (else none: the merged memory lives as long as its
 * longest-lived part).
 */
export function mergedMeta(nodes: readonly NodeRecord[]): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...nodes[0]!.meta };
  const sources = nodes.flatMap((node) =>
    Array.isArray(node.meta.sources) ? node.meta.sources.filter((s) => typeof s === 'string') : [],
  );
  if (sources.length > 0) meta.sources = [...new Set(sources)];
  const occurred = nodes.map((n) => n.meta.occurredAt).filter((t): t is number => typeof t === 'number');
  if (occurred.length > 0) meta.occurredAt = Math.min(...occurred);
  const expires = nodes.map((n) => n.meta.expiresAt).filter((t): t is number => typeof t === 'number');
  if (expires.length === nodes.length) meta.expiresAt = Math.max(...expires);
  else delete meta.expiresAt;
  return meta;
}

function newestFirst(nodes: NodeRecord[]): NodeRecord[] {
  return nodes.sort(
    (a, b) =>
      memoryTimeOf(b) - memoryTimeOf(a) ||
      b.updatedAt - a.updatedAt ||
      (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0),
  );
}

function nameOf(node: NodeRecord): string {
  return typeof node.meta.title === 'string' ? node.meta.title : node.name;
}

function textOf(node: NodeRecord): string {
  return node.l2 ?? node.l1 ?? node.l0;
}

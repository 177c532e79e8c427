/**
 * The directories above an ingestion's target (`viking://resources`, `viking://resources/docs`):
 * created when missing, so every written node has its parent, and re-summarised bottom-up once
 * their children changed, so a hierarchical search can still tell what is inside them.
 */

import { throwIfAborted } from '../../abort.js';
import { clampText, type Summarizer } from '../../context/summarize.js';
import { join, segments, type VikingUri } from '../../context/uri.js';
import { LongshipError } from '../../errors.js';
import type { FullStore } from '../../store/full-store.js';
import { contentHash } from '../hash.js';
import { type NodeWrite, titleOf } from './write-batch.js';

/**
 * `target` and every directory above it, the root first.
 *
 * @example
 * chainOf(parseUri('viking://resources/docs')); // ['viking://resources', 'viking://resources/docs']
 */
export function chainOf(target: VikingUri): VikingUri[] {
  const parts = segments(target);
  return parts.map((_, i) => join('viking://' as VikingUri, parts.slice(0, i + 1).join('/')));
}

/**
 * The directories of `chain` the store lacks, as writes with empty summaries and no vectors
 * (refreshChain fills both in). Throws `INVALID_ARGUMENT` when one of them is a file.
 *
 * @example
 * const missing = await missingDirectories(store, chainOf(target), 'extractive');
 */
export async function missingDirectories(
  store: FullStore,
  chain: readonly VikingUri[],
  summaryKind: Summarizer['kind'],
): Promise<NodeWrite[]> {
  const missing: NodeWrite[] = [];
  for (const uri of chain) {
    const node = await store.node(uri);
    if (node?.kind === 'file') {
      throw new LongshipError('INVALID_ARGUMENT', `cannot add under ${chain.at(-1)}: ${uri} is a file`);
    }
    if (node) continue;
    const title = segments(uri).at(-1)!;
    missing.push({
      node: { uri, kind: 'dir', title, headings: [], l0: '', l1: '', summaryKind, contentHash: '' },
      vectors: [],
    });
  }
  return missing;
}

/**
 * Re-summarises the directories of `chain`, deepest first, whose children changed since their
 * summaries were written: a directory's hash covers its title and its children's names, kinds and
 * hashes (as plan.ts hashes the directories it plans), so an unchanged subtree costs reads only.
 * Returns the writes to commit; directories the store lacks are left out.
 *
 * @example
 * const writes = await refreshChain(store, chainOf(target), extractiveSummarizer, signal);
 */
export async function refreshChain(
  store: FullStore,
  chain: readonly VikingUri[],
  summarizer: Summarizer,
  signal?: AbortSignal,
): Promise<NodeWrite[]> {
  const writes: NodeWrite[] = [];
  const fresh = new Map<string, { hash: string; l0: string }>();
  for (const uri of [...chain].reverse()) {
    throwIfAborted(signal, 'summarising the parent directories');
    const node = await store.node(uri);
    // Gone, or a file now (a failed job's target under a file, or one written since): not ours to rewrite.
    if (node?.kind !== 'dir') continue;
    const children = await store.children(uri);
    const title = titleOf(node);
    const hash = await contentHash(
      [title, ...children.map((c) => `${c.name}\t${c.kind}\t${fresh.get(c.uri)?.hash ?? c.hash ?? ''}`)].join(
        '\n',
      ),
    );
    if (hash === node.hash && node.summaryKind === summarizer.kind) continue;
    const summary = await summarizer.summarize(
      {
        title,
        headings: [],
        text: '',
        children: children.map((c) => ({ title: titleOf(c), l0: fresh.get(c.uri)?.l0 ?? c.l0 })),
      },
      signal,
    );
    const l0 = clampText(summary.l0);
    fresh.set(uri, { hash, l0 });
    writes.push({
      node: {
        uri,
        kind: 'dir',
        title,
        headings: [],
        l0,
        l1: summary.l1,
        summaryKind: summarizer.kind,
        contentHash: hash,
      },
      previous: node,
    });
  }
  return writes;
}

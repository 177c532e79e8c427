// The Ingestor over a store: its jobs (add-resource.ts, skill/add-skill.ts, removeSkill below,
// commit/refresh-parents.ts) run one at a time.
import { roots } from '../context/namespace.js';
import { contextTypeOf, parseUri } from '../context/uri.js';
import { SerialQueue } from '../serial-queue.js';
import { addResource } from './add-resource.js';
import { refreshAbove, refreshAfter } from './commit/refresh-parents.js';
import type { Ingestor, IngestorParts, IngestResult, RemoveSkillOptions } from './ingest.js';
import type { IngestContext } from './ingest-context.js';
import { ingestContext } from './ingest-context.js';
import { addSkill } from './skill/add-skill.js';
import { skillNode } from './skill/skill-reads.js';

/**
 * Creates an {@link Ingestor} writing to `parts.store`. Jobs on one ingestor run one at a time.
 *
 * @example
 * const ingestor = createIngestor({ store, embedder: transformersEmbedder() });
 * const { uris } = await ingestor.addResource('# Notes\n…', { name: 'notes.md', reason: 'onboarding' });
 */
export function createIngestor(parts: IngestorParts): Ingestor {
  const ctx = ingestContext(parts);
  // Two jobs at once would both create a missing parent directory, with different keys.
  const jobs = new SerialQueue();
  return {
    addResource: (input, options = {}) => jobs.run(() => addResource(ctx, input, options)),
    addSkill: (skill, options = {}) => jobs.run(() => addSkill(ctx, skill, options)),
    removeSkill: (name, options = {}) => jobs.run(() => removeSkill(ctx, name, options)),
    refreshParents: (uri, options = {}) =>
      jobs.run(() =>
        refreshAbove(
          ctx,
          parseUri(uri),
          { contextType: contextTypeOf(parseUri(uri)) ?? 'resource', now: Date.now() },
          options.signal,
        ),
      ),
  };
}

// removeSkill(): the skill's node and everything below it go in one commit, then the directories
// above are brought up to date (their summaries named it).
async function removeSkill(
  ctx: IngestContext,
  name: string,
  options: RemoveSkillOptions,
): Promise<IngestResult> {
  const node = await skillNode(ctx.store, name);
  const below = node.kind === 'dir' ? await ctx.store.descendants(node.uri) : [];
  // Deepest first, as rm() deletes: a child never outlives its parent, even within one batch.
  const uris = [node, ...below].map((n) => n.uri).sort((a, b) => b.length - a.length);
  options.onProgress?.({ phase: 'write', done: 0, total: 1, uri: node.uri });
  await ctx.store.commit({ deleteNodes: uris }, options.signal);
  options.onProgress?.({ phase: 'write', done: 1, total: 1, uri: node.uri });
  const context = { contextType: 'skill' as const, now: Date.now() };
  if (options.refreshParents !== false) await refreshAfter(ctx, roots.skill[0]!, context, options.signal);
  return { uris: [node.uri], added: 0, changed: 0, unchanged: 0, removed: uris.length, skipped: [] };
}

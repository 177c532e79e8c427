// removeSkill(): the skill's node and everything below it go in one commit, then the directories
// above are brought up to date (their summaries named it).
import { roots } from '../context/uri.js';
import { refreshAfter } from './commit/refresh-parents.js';
import type { IngestResult, RemoveSkillOptions } from './ingest.js';
import type { IngestContext } from './ingest-context.js';
import { skillNode } from './skill/skill-reads.js';

export async function removeSkill(
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

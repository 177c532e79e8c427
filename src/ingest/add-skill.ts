// addSkill(): a skill is one file at viking://agent/skills/<slug of its name>, planned against
// what is stored there, then embedded and committed like a document.
import { join, roots } from '../context/uri.js';
import { chainOf, missingDirectories } from './ancestors.js';
import { commitUnits } from './commit-units.js';
import type { AddSkillOptions, IngestResult } from './ingest.js';
import { asPrevious, type IngestContext, type Report } from './ingest-context.js';
import { refreshAfter } from './refresh-parents.js';
import { planSkill, type SkillInput } from './skill.js';
import { slugify } from './slug.js';
import type { NodeWrite } from './write-batch.js';

export async function addSkill(
  ctx: IngestContext,
  skill: SkillInput,
  options: AddSkillOptions,
): Promise<IngestResult> {
  const { store, summarizer } = ctx;
  const { signal } = options;
  const report: Report = (progress) => options.onProgress?.(progress);
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
  await ctx.checkEmbedder();
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
    ctx,
    [{ uri: node.uri, writes: [...missing, write], deletions }],
    context,
    new Map(),
    report,
    signal,
    1,
  );
  if (options.refreshParents !== false) await refreshAfter(ctx, root, context, signal);
  return result;
}

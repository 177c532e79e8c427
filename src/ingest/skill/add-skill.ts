// addSkill(): a skill given as fields is one file at viking://agent/skills/<slug of its name>; a
// SKILL.md or a skill folder is a directory there (plan-skill-folder.ts). Either is planned against
// what is stored there, then embedded and committed in one commit, whole or not at all.
import { roots } from '../../context/namespace.js';
import { join } from '../../context/uri.js';
import type { NodeRecord } from '../../store/store.js';
import { chainOf, missingDirectories } from '../commit/ancestors.js';
import { commitUnits } from '../commit/commit-units.js';
import { refreshAfter } from '../commit/refresh-parents.js';
import type { NodeWrite } from '../commit/write-batch.js';
import type { AddSkillOptions, IngestResult } from '../ingest.js';
import { asPrevious, type IngestContext, type Report } from '../ingest-context.js';
import type { ResourceNode } from '../plan.js';
import { planSkillFolder } from './plan-skill-folder.js';
import { planSkill, type SkillFields, type SkillInput, skillUri } from './skill.js';
import { isAgentSkill, readSkill } from './skill-folder.js';

export async function addSkill(
  ctx: IngestContext,
  skill: SkillInput,
  options: AddSkillOptions,
): Promise<IngestResult> {
  const report: Report = (progress) => options.onProgress?.(progress);
  report(isAgentSkill(skill) ? { phase: 'read', done: 0, total: 0 } : { phase: 'plan', done: 0, total: 1 });
  const planned = isAgentSkill(skill)
    ? await planFolder(ctx, skill, options)
    : await planFile(ctx, skill, options);
  const { nodes, removed, stored, described, lead } = planned;
  const top = nodes[0]!;
  const count = (change: ResourceNode['change']) => nodes.filter((n) => n.change === change).length;
  const result: IngestResult = {
    uris: [top.uri],
    added: count('added'),
    changed: count('changed'),
    unchanged: count('unchanged'),
    removed: removed.length,
    skipped: planned.skipped,
  };
  if (result.unchanged === nodes.length && removed.length === 0) {
    report({ phase: 'write', done: 1, total: 1, uri: top.uri });
    return result;
  }
  await ctx.checkEmbedder();
  const root = roots.skill[0]!;
  const missing = await missingDirectories(ctx.store, chainOf(root), ctx.summarizer.kind);
  const writes = nodes
    .filter((n) => n.change !== 'unchanged')
    .map((node): NodeWrite => {
      const previous = stored.get(node.uri);
      return {
        node,
        ...(previous ? { previous } : {}),
        ...(described.includes(node.uri) ? { meta: { description: planned.description } } : {}),
        ...(lead !== undefined && node === top ? { lead } : {}),
      };
    });
  const context = {
    contextType: 'skill' as const,
    now: Date.now(),
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
  };
  const unit = { uri: top.uri, writes: [...missing, ...writes], deletions: removed };
  await commitUnits(ctx, [unit], context, stored, report, options.signal, 1);
  if (options.refreshParents !== false) await refreshAfter(ctx, root, context, options.signal);
  return result;
}

interface Planned {
  /** The skill's own node first. */
  nodes: ResourceNode[];
  removed: string[];
  stored: Map<string, NodeRecord>;
  description: string;
  /** The nodes that keep the description in their meta: the skill's, and its SKILL.md. */
  described: string[];
  /** Text before the skill's content where it is embedded. */
  lead?: string;
  skipped: IngestResult['skipped'];
}

/** The node at `uri` and, for a directory, everything below it, by URI. */
async function storedAt(ctx: IngestContext, uri: string): Promise<Map<string, NodeRecord>> {
  const node = await ctx.store.node(uri);
  const below = node?.kind === 'dir' ? await ctx.store.descendants(uri) : [];
  return new Map([...(node ? [node] : []), ...below].map((n) => [n.uri, n]));
}

async function planFile(ctx: IngestContext, skill: SkillFields, options: AddSkillOptions): Promise<Planned> {
  const { summarizer } = ctx;
  const { signal } = options;
  // Where it would go, if the name is usable at all (planSkill names the problem otherwise).
  let uri: string | undefined;
  try {
    uri = skillUri(skill?.name);
  } catch {
    uri = undefined;
  }
  const stored = uri ? await storedAt(ctx, uri) : new Map<string, NodeRecord>();
  const previous = uri ? stored.get(uri) : undefined;
  const node = await planSkill(skill, {
    summarizer,
    ...(previous ? { previous: asPrevious(previous) } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(signal ? { signal } : {}),
  });
  // A skill replaces whatever is at its URI; a directory's contents go with it, as below a document.
  const removed = [...stored.keys()].filter((u) => u !== node.uri);
  return {
    nodes: [node],
    removed,
    stored,
    description: skill.description.trim(),
    described: [node.uri],
    // Its name and description lead its content where it is embedded: the content may not say them.
    lead: `${node.title}: ${node.l0}`,
    skipped: [],
  };
}

async function planFolder(
  ctx: IngestContext,
  input: Exclude<SkillInput, SkillFields>,
  options: AddSkillOptions,
): Promise<Planned> {
  const { signal } = options;
  const skill = await readSkill(input, {
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(signal ? { signal } : {}),
  });
  options.onProgress?.({ phase: 'plan', done: 0, total: 1 });
  const stored = await storedAt(ctx, join(roots.skill[0]!, skill.name));
  const plan = await planSkillFolder(skill, {
    summarizer: ctx.summarizer,
    stored,
    ...(signal ? { signal } : {}),
  });
  const [dir, main] = plan.nodes;
  return {
    ...plan,
    stored,
    description: skill.description,
    described: [dir!.uri, main!.uri],
    skipped: skill.skipped,
  };
}

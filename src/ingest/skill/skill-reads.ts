// The skills under viking://agent/skills, read back: listed with their descriptions, or one whole
// (its SKILL.md's front matter and body, and its files). Reads only; writes go through the queue.
import { roots } from '../../context/namespace.js';
import { join, relativeTo, type VikingUri } from '../../context/uri.js';
import { LongshipError } from '../../errors.js';
import type { FullStore } from '../../store/full-store.js';
import type { NodeRecord } from '../../store/store.js';
import { skillUri } from './skill.js';
import { SKILL_MD } from './skill-folder.js';
import { parseSkillMd } from './skill-md.js';

/** A skill as `Longship.listSkills()` lists it. */
export interface SkillSummary {
  name: string;
  description: string;
  /** The skill's node: a directory for one in the Agent Skills format, a file for one given as fields. */
  uri: VikingUri;
}

/** A skill as `Longship.getSkill()` returns it. */
export interface SkillInfo extends SkillSummary {
  /** Every field of its front matter; a skill given as fields has `name` and `description`. */
  frontmatter: Record<string, unknown>;
  /** The instructions: `SKILL.md` after its front matter, or a skill's `content`. */
  body: string;
  /** Its files, paths relative to its directory, `SKILL.md` first; none for a skill given as fields. */
  files: string[];
}

const describedBy = (node: NodeRecord): string =>
  typeof node.meta.description === 'string' ? node.meta.description : node.l0;
const nameOf = (node: NodeRecord): string =>
  typeof node.meta.title === 'string' ? node.meta.title : node.name;

/**
 * The skills, in URI order: each file directly under `viking://agent/skills`, and each directory there
 * with a `SKILL.md` (a directory without one is not a skill).
 *
 * @example
 * (await listSkills(store)).map((s) => s.name); // ['pdf-tools', 'Write an RFC'] (…/write-an-rfc)
 */
export async function listSkills(store: FullStore): Promise<SkillSummary[]> {
  const children = await store.children(roots.skill[0]!);
  const dirs = children.filter((c) => c.kind === 'dir');
  const mains = await store.nodes(dirs.map((d) => join(d.uri as VikingUri, SKILL_MD)));
  const withMain = new Set(dirs.filter((_, i) => mains[i]?.kind === 'file').map((d) => d.uri));
  return children
    .filter((c) => c.kind === 'file' || withMain.has(c.uri))
    .map((c) => ({ name: nameOf(c), description: describedBy(c), uri: c.uri as VikingUri }))
    .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

/** The node of the skill called `name`: `NOT_FOUND` when there is none. */
export async function skillNode(store: FullStore, name: string): Promise<NodeRecord> {
  const uri = skillUri(name);
  const node = await store.node(uri);
  const main = node?.kind === 'dir' ? await store.node(join(uri, SKILL_MD)) : undefined;
  if (!node || (node.kind === 'dir' && main?.kind !== 'file')) {
    throw new LongshipError('NOT_FOUND', `there is no skill ${JSON.stringify(name)} (at ${uri})`);
  }
  return node;
}

/**
 * The skill called `name`, whole. `NOT_FOUND` when there is none; `INVALID_ARGUMENT` when its
 * stored `SKILL.md` was since overwritten with one that does not parse.
 *
 * @example
 * const { frontmatter, body, files } = await getSkill(store, 'pdf-tools');
 */
export async function getSkill(store: FullStore, name: string): Promise<SkillInfo> {
  const node = await skillNode(store, name);
  const uri = node.uri as VikingUri;
  if (node.kind === 'file') {
    const fields = { name: nameOf(node), description: describedBy(node) };
    return { ...fields, uri, frontmatter: { ...fields }, body: node.l2 ?? '', files: [] };
  }
  const below = await store.descendants(uri);
  const main = below.find((n) => n.uri === join(uri, SKILL_MD))!;
  const skill = parseSkillMd(main.l2 ?? '');
  const files = below
    .filter((n) => n.kind === 'file' && n !== main)
    .map((n) => relativeTo(n.uri as VikingUri, uri)!)
    .sort();
  return {
    name: skill.name,
    description: skill.description,
    uri,
    frontmatter: skill.frontmatter,
    body: skill.body,
    files: [SKILL_MD, ...files],
  };
}

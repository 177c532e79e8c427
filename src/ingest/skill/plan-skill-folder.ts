/**
 * The nodes of a skill in the Agent Skills format, as OpenViking lays one out: a directory
 * `viking://agent/skills/<name>` whose L0 is the description, `SKILL.md` in it as given, and the
 * other files below, each one file (never split into sections: a script or a reference is read
 * whole, by the path `SKILL.md` names it by).
 */

import { roots } from '../../context/namespace.js';
import type { Summarizer } from '../../context/summarize.js';
import { clampText } from '../../context/summarize.js';
import { join, type VikingUri } from '../../context/uri.js';
import type { NodeRecord } from '../../store/store.js';
import { contentHash } from '../hash.js';
import { asPrevious } from '../ingest-context.js';
import { headingsOf } from '../parse/document.js';
import { parseMarkdown } from '../parse/parse-markdown.js';
import { planResource, type ResourceNode } from '../plan.js';
import { type ReadSkill, SKILL_MD } from './skill-folder.js';

export interface SkillFolderPlan {
  /** The directory first, then `SKILL.md`, then the other files and their folders, parents first. */
  nodes: ResourceNode[];
  /** Stored nodes below the directory that the skill no longer has. */
  removed: string[];
}

/** So large that no file is split: a skill's files keep the paths its instructions use. */
const WHOLE = Number.MAX_SAFE_INTEGER;

const changeOf = (old: NodeRecord | undefined, hash: string): ResourceNode['change'] =>
  old === undefined ? 'added' : old.hash === hash ? 'unchanged' : 'changed';

/**
 * Plans `skill` against what is stored at and below its directory (`stored`, by URI): unchanged
 * files keep their summaries, and `SKILL.md`'s summary (the directory's too) is made only when it
 * changed.
 *
 * @example
 * const { nodes } = await planSkillFolder(await readSkill(text), { summarizer, stored: new Map() });
 * nodes.map((n) => n.uri); // ['viking://agent/skills/pdf-tools', 'viking://agent/skills/pdf-tools/SKILL.md']
 */
export async function planSkillFolder(
  skill: ReadSkill,
  options: { summarizer: Summarizer; stored: ReadonlyMap<string, NodeRecord>; signal?: AbortSignal },
): Promise<SkillFolderPlan> {
  const { summarizer, stored, signal } = options;
  const dir = join(roots.skill[0]!, skill.name);
  const previous = new Map([...stored].map(([uri, node]) => [uri, asPrevious(node)]));
  const files =
    skill.documents.length === 0
      ? []
      : (
          await planResource(skill.documents, {
            target: dir,
            summarizer,
            previous,
            maxTokens: WHOLE,
            ...(signal ? { signal } : {}),
          })
        ).nodes.map((n) => ({ ...n, relativePath: [skill.name, ...n.relativePath] }));
  const main = await planSkillMd(skill, join(dir, SKILL_MD), stored, summarizer, signal);
  const tops = [main, ...files.filter((n) => n.relativePath.length === 2)];
  const hash = await contentHash(
    [
      skill.name,
      skill.description,
      ...tops.map((c) => `${c.relativePath.at(-1)}\t${c.kind}\t${c.contentHash}`),
    ].join('\n'),
  );
  const paths = files
    .filter((n) => n.kind === 'file')
    .map((n) => n.relativePath.slice(1).join('/'))
    .sort();
  const folder: ResourceNode = {
    uri: dir,
    relativePath: [skill.name],
    kind: 'dir',
    title: skill.name,
    headings: main.headings,
    l0: main.l0,
    // An agent that reads the overview learns which files it may read next.
    l1: paths.length === 0 ? main.l1 : `${main.l1}\n\nFiles: ${paths.join(', ')}`,
    summaryKind: summarizer.kind,
    contentHash: hash,
    change: changeOf(stored.get(dir), hash),
  };
  const planned = new Set<string>([dir, main.uri, ...files.map((n) => n.uri)]);
  return { nodes: [folder, main, ...files], removed: [...stored.keys()].filter((uri) => !planned.has(uri)) };
}

async function planSkillMd(
  skill: ReadSkill,
  uri: VikingUri,
  stored: ReadonlyMap<string, NodeRecord>,
  summarizer: Summarizer,
  signal: AbortSignal | undefined,
): Promise<ResourceNode> {
  const hash = await contentHash(skill.text);
  const headings = parseMarkdown(skill.body).sections.flatMap(headingsOf);
  const old = stored.get(uri);
  const l1 =
    old?.kind === 'file' && old.hash === hash && old.summaryKind === summarizer.kind
      ? (old.l1 ?? '')
      : (
          await summarizer.summarize(
            {
              title: skill.name,
              headings,
              text: `${skill.description}\n\n${skill.body}`,
              format: 'markdown',
            },
            signal,
          )
        ).l1;
  return {
    uri,
    relativePath: [skill.name, SKILL_MD],
    kind: 'file',
    title: skill.name,
    headings,
    content: skill.text,
    format: 'markdown',
    source: SKILL_MD,
    l0: clampText(skill.description),
    l1,
    summaryKind: summarizer.kind,
    contentHash: hash,
    change: changeOf(old, hash),
  };
}

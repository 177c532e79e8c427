/**
 * Skills: instructions an agent can load, under `viking://agent/skills/` (docs/guide/skills.md). A skill
 * given as fields is one file there; a `SKILL.md` or a skill folder is a directory (skill-folder.ts).
 * The caller's description is the L0 verbatim (cut to 256 characters): it is what an agent reads
 * when deciding to load the skill, so no summariser should rewrite it.
 */

import { roots } from '../../context/namespace.js';
import { clampText, type Summarizer } from '../../context/summarize.js';
import { checkStringSize, checkText, defaultMaxBytes } from '../../context/text-checks.js';
import { basename, join, type VikingUri } from '../../context/uri.js';
import { LongshipError } from '../../errors.js';
import { contentHash } from '../hash.js';
import type { FolderEntry } from '../input.js';
import { headingsOf } from '../parse/document.js';
import { parseMarkdown } from '../parse/parse-markdown.js';
import type { PreviousNode, ResourceNode } from '../plan.js';
import { slugify } from '../slug.js';
import { extractiveSummarizer } from '../summary/extractive-summarizer.js';
import { skillNameProblem } from './skill-md.js';

/** A skill as fields: one file at `viking://agent/skills/<slug of name>`. */
export interface SkillFields {
  name: string;
  description: string;
  /** The instructions, usually Markdown. */
  content: string;
}

/**
 * A skill folder in the Agent Skills format: `SKILL.md` at its top (or at the top of its one
 * folder, whose name must then be the skill's), and any other files, by path.
 */
export interface SkillFolder {
  files: Readonly<Record<string, string | Uint8Array | Blob>> | readonly FolderEntry[];
}

/** What `addSkill` takes: fields, the text of a `SKILL.md`, or a skill folder. */
export type SkillInput = SkillFields | string | SkillFolder;

/**
 * Where the skill called `name` is: `viking://agent/skills/<name>` for a name the Agent Skills
 * format allows, else the slug a skill given as fields was stored under. `INVALID_ARGUMENT` when
 * nothing is left of it.
 *
 * @example
 * skillUri('pdf-tools');    // 'viking://agent/skills/pdf-tools'
 * skillUri('Write an RFC'); // 'viking://agent/skills/write-an-rfc'
 */
export function skillUri(name: string): VikingUri {
  if (typeof name !== 'string') throw new LongshipError('INVALID_ARGUMENT', 'a skill name must be a string');
  const trimmed = name.trim().normalize('NFKC');
  const segment = skillNameProblem(trimmed) === undefined ? trimmed : slugify(trimmed, '');
  if (segment === '') {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `skill name ${JSON.stringify(name)} has no letters or digits`,
    );
  }
  return join(roots.skill[0]!, segment);
}

export interface SkillOptions {
  summarizer?: Summarizer;
  /** The stored node at the skill's URI, if any: unchanged skills keep their L1. */
  previous?: PreviousNode;
  maxBytes?: number;
  signal?: AbortSignal;
}

function required(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new LongshipError('INVALID_ARGUMENT', `a skill needs a non-empty ${field} string`);
  }
  return value.trim();
}

/**
 * Plans the node for a skill at `viking://agent/skills/<slug of name>`: L0 is the description,
 * L1 is summarised from the description and content, and the hash covers all three fields so
 * editing any of them counts as a change.
 *
 * @example
 * const node = await planSkill({ name: 'Write an RFC', description: 'Drafts RFCs in our format.', content });
 * node.uri; // 'viking://agent/skills/write-an-rfc'
 */
export async function planSkill(skill: SkillFields, options: SkillOptions = {}): Promise<ResourceNode> {
  const name = required(skill?.name, 'name');
  const description = required(skill.description, 'description');
  if (typeof skill.content !== 'string')
    throw new LongshipError('INVALID_ARGUMENT', 'a skill needs a content string');
  checkStringSize(`skill ${name}`, skill.content, options.maxBytes ?? defaultMaxBytes);
  checkText(`skill ${name}`, skill.content);
  const uri = skillUri(name);
  const summarizer = options.summarizer ?? extractiveSummarizer;
  const hash = await contentHash(`${name}\n${description}\n${skill.content}`);
  const headings = parseMarkdown(skill.content).sections.flatMap(headingsOf);
  const old = options.previous;
  const l1 =
    old && old.contentHash === hash && old.summaryKind === summarizer.kind
      ? old.l1
      : (
          await summarizer.summarize(
            { title: name, headings, text: `${description}\n\n${skill.content}`, format: 'markdown' },
            options.signal,
          )
        ).l1;
  return {
    uri,
    relativePath: [basename(uri)],
    kind: 'file',
    title: name,
    headings,
    content: skill.content,
    format: 'markdown',
    l0: clampText(description),
    l1,
    summaryKind: summarizer.kind,
    contentHash: hash,
    change: old === undefined ? 'added' : old.contentHash === hash ? 'unchanged' : 'changed',
  };
}

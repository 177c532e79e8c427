/**
 * Skills: instructions an agent can load, stored one file each under `viking://agent/skills/`.
 * The caller's description is the L0 verbatim (cut to 256 characters): it is what an agent reads
 * when deciding to load the skill, so no summariser should rewrite it.
 */

import { clampText, type Summarizer } from '../context/summarize.js';
import { checkStringSize, checkText, defaultMaxBytes } from '../context/text-checks.js';
import { join, roots } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import { headingsOf } from './document.js';
import { extractiveSummarizer } from './extractive-summarizer.js';
import { contentHash } from './hash.js';
import { parseMarkdown } from './parse-markdown.js';
import type { PreviousNode, ResourceNode } from './plan.js';
import { slugify } from './slug.js';

export interface SkillInput {
  name: string;
  description: string;
  /** The instructions, usually Markdown. */
  content: string;
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
export async function planSkill(skill: SkillInput, options: SkillOptions = {}): Promise<ResourceNode> {
  const name = required(skill?.name, 'name');
  const description = required(skill.description, 'description');
  if (typeof skill.content !== 'string')
    throw new LongshipError('INVALID_ARGUMENT', 'a skill needs a content string');
  checkStringSize(`skill ${name}`, skill.content, options.maxBytes ?? defaultMaxBytes);
  checkText(`skill ${name}`, skill.content);
  const slug = slugify(name, '');
  if (slug === '')
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `skill name ${JSON.stringify(name)} has no letters or digits`,
    );
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
    uri: join(roots.skill[0]!, slug),
    relativePath: [slug],
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

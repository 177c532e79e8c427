/**
 * A skill in the Agent Skills format, read: the text of a `SKILL.md`, or a folder of files with one
 * at its top. Every file is decoded and checked as addResource's folders are (binary and oversized
 * files are skipped and listed); `SKILL.md` is parsed and checked (skill-md.ts). Nothing is written.
 */

import { LongshipError } from '../../errors.js';
import type { IngestResult } from '../ingest.js';
import { type FolderEntry, type InputDocument, readInput } from '../input.js';
import type { SkillFolder, SkillInput } from './skill.js';
import { parseSkillMd, type SkillMd } from './skill-md.js';

export const SKILL_MD = 'SKILL.md';

/** A checked skill in the Agent Skills format, ready to plan. */
export interface ReadSkill extends SkillMd {
  /** The `SKILL.md` as given, front matter and all: what is stored as its content. */
  text: string;
  /** The other files, paths relative to the skill's folder. */
  documents: InputDocument[];
  skipped: IngestResult['skipped'];
}

/** Whether `skill` is in the Agent Skills format (a `SKILL.md` or a folder), not fields. */
export function isAgentSkill(skill: SkillInput): skill is string | SkillFolder {
  return typeof skill === 'string' || (typeof skill === 'object' && skill !== null && 'files' in skill);
}

function entriesOf(folder: SkillFolder): FolderEntry[] {
  const extra = Object.keys(folder).filter((key) => key !== 'files');
  if (extra.length > 0) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `a skill folder is { files } only; it has ${extra.map((k) => JSON.stringify(k)).join(', ')} too`,
    );
  }
  const { files } = folder;
  if (Array.isArray(files)) return [...files];
  if (typeof files !== 'object' || files === null) {
    throw new LongshipError('INVALID_ARGUMENT', 'a skill folder\'s "files" must map paths to contents');
  }
  return Object.entries(files).map(([path, content]) => ({ path, content }));
}

/**
 * Where `SKILL.md` is: at the top (`''`), or at the top of the one folder everything is in (a
 * folder dropped whole), whose name the skill's must match.
 */
function topOf(paths: readonly string[]): string {
  if (paths.includes(SKILL_MD)) return '';
  const tops = new Set(paths.map((path) => path.split('/')[0]!));
  const [only] = tops;
  if (tops.size === 1 && paths.includes(`${only}/${SKILL_MD}`)) return only!;
  throw new LongshipError(
    'INVALID_ARGUMENT',
    `a skill folder needs ${SKILL_MD} at its top (or at the top of its one folder); it has ${paths.length} files and none there`,
  );
}

/**
 * Reads a `SKILL.md` text or a skill folder. Throws `INVALID_ARGUMENT` for a folder without
 * `SKILL.md` or an invalid one (naming the field), and what readInput throws (`BINARY_INPUT`,
 * `INPUT_TOO_LARGE`, `ABORTED`).
 *
 * @example
 * const skill = await readSkill({ files: { 'SKILL.md': text, 'scripts/fill.py': script } });
 * skill.documents.map((d) => d.path); // ['scripts/fill.py']
 */
export async function readSkill(
  input: string | SkillFolder,
  options: { maxBytes?: number; signal?: AbortSignal } = {},
): Promise<ReadSkill> {
  const entries = typeof input === 'string' ? [{ path: SKILL_MD, content: input }] : entriesOf(input);
  if (entries.length === 0) throw new LongshipError('INVALID_ARGUMENT', 'the skill folder is empty');
  const read = await readInput(entries, options);
  const top = topOf([...read.documents, ...read.skipped].map((d) => d.path));
  const inside = (path: string) => (top === '' ? path : path.slice(top.length + 1));
  const own = read.skipped.find((s) => inside(s.path) === SKILL_MD);
  if (own) throw own.error;
  const main = read.documents.find((d) => inside(d.path) === SKILL_MD)!;
  const parsed = parseSkillMd(main.content, top === '' ? {} : { folder: top });
  return {
    ...parsed,
    text: main.content,
    documents: read.documents.filter((d) => d !== main).map((d) => ({ ...d, path: inside(d.path) })),
    skipped: read.skipped.map((s) => ({ ...s, path: inside(s.path) })),
  };
}

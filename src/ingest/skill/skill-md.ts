/**
 * `SKILL.md`, the file of the Agent Skills format (docs/guide/skills.md): YAML front matter between `---`
 * lines, then the Markdown instructions. The front matter is parsed by `js-yaml` (YAML 1.2, core
 * schema: no dates or custom tags, so every value is plain data; its ES module needs no Node
 * built-in, so it bundles for browsers, workerd and Deno) and checked as the format's specification
 * says; anything it refuses is `INVALID_ARGUMENT` naming the field.
 */

import { load, YAMLException } from 'js-yaml';
import { LongshipError } from '../../errors.js';

/** The limits of the specification, in characters. */
export const skillLimits = { name: 64, description: 1024, compatibility: 500 } as const;

/** A parsed and checked `SKILL.md`. */
export interface SkillMd {
  /** As the front matter has it, in Unicode NFKC. */
  name: string;
  description: string;
  /**
   * Every front matter field, those of the specification (`license`, `compatibility`, `metadata`,
   * `allowed-tools`) and any other a client added (kept, as agents other than ours may read them).
   */
  frontmatter: Record<string, unknown>;
  /** The Markdown after the front matter. */
  body: string;
}

// A letter or digit of any script, lower-case where the script has case: the reference validator
// reads the specification's "lowercase alphanumeric" so, for names in other languages.
const NAME = /^[\p{Ll}\p{Lm}\p{Lo}\p{N}]+(?:-[\p{Ll}\p{Lm}\p{Lo}\p{N}]+)*$/u;
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

function refuse(message: string): never {
  throw new LongshipError('INVALID_ARGUMENT', `SKILL.md: ${message}`);
}

/**
 * Whether `name` is a skill name as the specification allows: 1-64 lower-case letters, digits and
 * single hyphens inside; returns the problem, or undefined.
 *
 * @example
 * skillNameProblem('pdf-tools'); // undefined
 * skillNameProblem('PDF');       // 'has upper-case letters'
 */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if ([...name].length > skillLimits.name) return `is over ${skillLimits.name} characters`;
  if (name !== name.toLowerCase()) return 'has upper-case letters';
  if (name.startsWith('-') || name.endsWith('-')) return 'starts or ends with a hyphen';
  if (name.includes('--')) return 'has two hyphens in a row';
  if (!NAME.test(name)) return 'may hold only lower-case letters, digits and hyphens';
  return undefined;
}

function requiredString(fields: Record<string, unknown>, field: string): string {
  const value = fields[field];
  if (value === undefined || value === null) refuse(`the front matter has no "${field}"`);
  if (typeof value !== 'string') refuse(`"${field}" must be a string, not ${describe(value)}`);
  if (value.trim() === '') refuse(`"${field}" is empty`);
  return value;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/** The optional fields of the specification, each of the type it gives. */
function checkOptional(fields: Record<string, unknown>): void {
  const { license, compatibility, metadata } = fields;
  if (license !== undefined && typeof license !== 'string')
    refuse(`"license" must be a string, not ${describe(license)}`);
  if (compatibility !== undefined) {
    if (typeof compatibility !== 'string' || compatibility.trim() === '')
      refuse(`"compatibility" must be a non-empty string, not ${describe(compatibility)}`);
    if ([...compatibility].length > skillLimits.compatibility)
      refuse(`"compatibility" is over ${skillLimits.compatibility} characters`);
  }
  if (metadata !== undefined && describe(metadata) !== 'a mapping')
    refuse(`"metadata" must be a mapping of keys to values, not ${describe(metadata)}`);
  const tools = fields['allowed-tools'];
  const isList = Array.isArray(tools) && tools.every((tool) => typeof tool === 'string');
  if (tools !== undefined && typeof tools !== 'string' && !isList)
    refuse('"allowed-tools" must be a space-separated string or a list of strings');
}

/**
 * The size of `root` as a serialiser writes it: one per value (mapping, list, scalar, key) and one
 * per character of each string, keys included; a value reached through several aliases counts each
 * time, and a cycle forever. Stops counting once past `limit`, so a bomb costs no more than that.
 */
function expandedSize(root: unknown, limit: number): number {
  let size = 1;
  const pending: unknown[] = [root];
  while (pending.length > 0 && size <= limit) {
    const value = pending.pop();
    if (typeof value === 'string') size += value.length;
    else if (Array.isArray(value)) {
      size += value.length;
      for (const item of value) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        size += 2 + key.length;
        pending.push(item);
      }
    }
  }
  return size;
}

function frontMatterOf(yaml: string): Record<string, unknown> {
  let fields: unknown = null;
  try {
    // The core schema is the default; duplicate keys throw. Few aliases: a front matter needs none.
    if (yaml.trim() !== '') fields = load(yaml, { maxAliases: 100 });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    const what = error.toString(true).replace(/^YAMLException: /, '');
    throw new LongshipError('INVALID_ARGUMENT', `SKILL.md: the front matter is not valid YAML: ${what}`, {
      cause: error,
    });
  }
  // A few aliases nested a few deep still expand to billions of values ("billion laughs") for
  // whoever serialises the front matter: bound what they expand to (docs/guide/skills.md, issue 33).
  // Without aliases a front matter is at most about twice its length by this count.
  const limit = 2 * yaml.length + expansionAllowance;
  if (expandedSize(fields, limit) > limit) {
    refuse(
      `the front matter's aliases expand it past ${limit} values and characters ` +
        '(twice its length and 65,536 more); write the repeated values out, or repeat them less',
    );
  }
  if (describe(fields) !== 'a mapping') refuse(`the front matter must be a mapping, not ${describe(fields)}`);
  return fields as Record<string, unknown>;
}

/** What aliases may add to a front matter beyond twice its length: plenty for a few reused values. */
const expansionAllowance = 65_536;

/**
 * Parses and checks a `SKILL.md`. With `folder` (the name of the skill's directory), the name must
 * be the folder's, as the specification requires. Throws `INVALID_ARGUMENT` naming the field.
 *
 * @example
 * const skill = parseSkillMd('---\nname: pdf-tools\ndescription: Fills PDF forms.\n---\n# Steps\n…');
 * skill.name; // 'pdf-tools'
 * skill.body; // '# Steps\n…'
 */
export function parseSkillMd(text: string, options: { folder?: string } = {}): SkillMd {
  if (typeof text !== 'string') refuse(`expected text, got ${describe(text)}`);
  const match = FRONT_MATTER.exec(text);
  if (!match) refuse('it must start with YAML front matter between two "---" lines');
  const frontmatter = frontMatterOf(match[1] ?? '');
  const name = requiredString(frontmatter, 'name').trim().normalize('NFKC');
  const problem = skillNameProblem(name);
  if (problem) refuse(`"name" ${JSON.stringify(name)} ${problem}`);
  const description = requiredString(frontmatter, 'description').trim();
  if ([...description].length > skillLimits.description)
    refuse(`"description" is over ${skillLimits.description} characters`);
  checkOptional(frontmatter);
  const folder = options.folder?.normalize('NFKC');
  if (folder !== undefined && folder !== name)
    refuse(`"name" ${JSON.stringify(name)} must be the name of its folder, ${JSON.stringify(folder)}`);
  return {
    name,
    description,
    frontmatter: { ...frontmatter, name, description },
    body: text.slice(match[0].length),
  };
}

import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { parseSkillMd, skillNameProblem } from '../../src/ingest/skill/skill-md.js';

const valid = `---
name: pdf-tools
description: Fills PDF forms and extracts their tables. Use when the user mentions PDFs.
license: Apache-2.0
compatibility: Requires Python 3.12 and pypdf
allowed-tools: Bash(python:*) Read
metadata:
  author: example-org
  version: "1.0"
x-client-field: kept
---
# Filling a form

Run scripts/fill.py with the form and the values.
`;

/** The message of the INVALID_ARGUMENT that parsing `text` throws. */
function refusal(text: string, options?: { folder?: string }): string {
  try {
    parseSkillMd(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
    return (error as LongshipError).message;
  }
  throw new Error('expected parseSkillMd to refuse');
}

const withFields = (fields: string) => `---\n${fields}\n---\nBody.\n`;

describe('parseSkillMd', () => {
  it('reads the front matter with every field, and the body after it', () => {
    const skill = parseSkillMd(valid);
    expect(skill.name).toBe('pdf-tools');
    expect(skill.description).toBe(
      'Fills PDF forms and extracts their tables. Use when the user mentions PDFs.',
    );
    expect(skill.frontmatter).toEqual({
      name: 'pdf-tools',
      description: skill.description,
      license: 'Apache-2.0',
      compatibility: 'Requires Python 3.12 and pypdf',
      'allowed-tools': 'Bash(python:*) Read',
      metadata: { author: 'example-org', version: '1.0' },
      'x-client-field': 'kept',
    });
    expect(skill.body).toBe('# Filling a form\n\nRun scripts/fill.py with the form and the values.\n');
  });

  it('takes CRLF line ends, a byte order mark, a list of allowed tools and an empty body', () => {
    const skill = parseSkillMd(
      '\uFEFF---\r\nname: a1\r\ndescription: >\r\n  Folded\r\n  text.\r\nallowed-tools:\r\n  - Read\r\n---',
    );
    expect(skill).toMatchObject({ name: 'a1', description: 'Folded text.', body: '' });
    expect(skill.frontmatter['allowed-tools']).toEqual(['Read']);
  });

  it('keeps YAML 1.2 types plain: no dates, numbers as numbers', () => {
    const skill = parseSkillMd(withFields('name: a\ndescription: d\nmetadata:\n  since: 2025-01-02\n  n: 3'));
    expect(skill.frontmatter.metadata).toEqual({ since: '2025-01-02', n: 3 });
  });

  it('refuses a file without front matter, or with it unclosed', () => {
    expect(refusal('# Just Markdown\n')).toMatch(/must start with YAML front matter/);
    expect(refusal('---\nname: a\ndescription: d\n# no closing line\n')).toMatch(/front matter/);
  });

  it('refuses front matter that is not YAML, or not a mapping', () => {
    expect(refusal(withFields('name: [unclosed\ndescription: d'))).toMatch(/not valid YAML: .*\(\d+:\d+\)/);
    expect(refusal(withFields('name: a\nname: b\ndescription: d'))).toMatch(/not valid YAML/);
    expect(refusal(withFields('- a\n- b'))).toMatch(/must be a mapping, not a list/);
    expect(refusal('---\n---\nBody')).toMatch(/must be a mapping, not null/);
  });

  it('refuses more aliases than a front matter needs (a "billion laughs" would follow)', () => {
    const aliases = Array.from({ length: 101 }, (_, i) => `k${i}: *a`).join('\n');
    expect(refusal(withFields(`name: a\ndescription: d\nbase: &a [x, x]\n${aliases}`))).toMatch(
      /not valid YAML/,
    );
    expect(parseSkillMd(withFields('name: a\ndescription: d\nbase: &a x\nk: *a')).frontmatter.k).toBe('x');
  });

  describe('refuses aliases that expand the front matter past its bound, however few they are', () => {
    const expanded = /^SKILL\.md: the front matter's aliases expand it past \d+ values and characters/;

    it('90 aliases nested 9 deep (10^9 leaves)', () => {
      const levels = ['l0: &l0 [x]'];
      for (let i = 1; i <= 9; i++) {
        const aliases = Array(10)
          .fill(`*l${i - 1}`)
          .join(', ');
        levels.push(`l${i}: &l${i} [${aliases}]`);
      }
      expect(refusal(withFields(`name: a\ndescription: d\n${levels.join('\n')}`))).toMatch(expanded);
    });

    it('the classic "billion laughs"', () => {
      const names = 'abcdefghi';
      const levels = [`a: &a [${Array(9).fill('"lol"').join(',')}]`];
      for (let i = 1; i < names.length; i++) {
        const [name, before] = [names[i], names[i - 1]];
        levels.push(`${name}: &${name} [${Array(9).fill(`*${before}`).join(',')}]`);
      }
      expect(refusal(withFields(`name: a\ndescription: d\nx-lol:\n  ${levels.join('\n  ')}`))).toMatch(
        expanded,
      );
    });

    it('a long string repeated by aliases, and an alias inside the list it names (a cycle)', () => {
      const repeated = Array.from({ length: 50 }, (_, i) => `k${i}: *s`).join('\n');
      expect(
        refusal(withFields(`name: a\ndescription: d\ns: &s ${'y'.repeat(10_000)}\n${repeated}`)),
      ).toMatch(expanded);
      expect(refusal(withFields('name: a\ndescription: d\nloop: &l [*l]'))).toMatch(expanded);
    });

    it('but takes a front matter that reuses a few values by alias', () => {
      const skill = parseSkillMd(
        withFields(
          [
            'name: a',
            'description: d',
            'metadata:',
            '  defaults: &d {retries: 3, timeoutMs: 500}',
            '  dev: *d',
            '  prod: *d',
            'allowed-tools: &t [Read, Bash]',
            'x-review-tools: *t',
          ].join('\n'),
        ),
      );
      const defaults = { retries: 3, timeoutMs: 500 };
      expect(skill.frontmatter.metadata).toEqual({ defaults, dev: defaults, prod: defaults });
      expect(skill.frontmatter['x-review-tools']).toEqual(['Read', 'Bash']);
    });
  });

  it('refuses a missing, empty or non-string name or description, naming the field', () => {
    expect(refusal(withFields('description: d'))).toMatch(/no "name"/);
    expect(refusal(withFields('name: a'))).toMatch(/no "description"/);
    expect(refusal(withFields('name: ""\ndescription: d'))).toMatch(/"name" is empty/);
    expect(refusal(withFields('name: a\ndescription: "  "'))).toMatch(/"description" is empty/);
    expect(refusal(withFields('name: 12\ndescription: d'))).toMatch(/"name" must be a string, not a number/);
    expect(refusal(withFields('name: a\ndescription: [x]'))).toMatch(
      /"description" must be a string, not a list/,
    );
  });

  it('refuses names the specification does not allow', () => {
    for (const [name, problem] of [
      ['PDF-Tools', /upper-case/],
      ['-pdf', /starts or ends with a hyphen/],
      ['pdf-', /starts or ends with a hyphen/],
      ['pdf--tools', /two hyphens/],
      ['pdf_tools', /only lower-case letters, digits and hyphens/],
      ['pdf tools', /only lower-case letters, digits and hyphens/],
      ['a'.repeat(65), /over 64 characters/],
    ] as const) {
      expect(refusal(withFields(`name: "${name}"\ndescription: d`))).toMatch(problem);
    }
    expect(refusal(withFields(`name: "${'a'.repeat(65)}"\ndescription: d`))).toMatch(/"name"/);
    expect(parseSkillMd(withFields(`name: ${'a'.repeat(64)}\ndescription: d`)).name).toHaveLength(64);
    // Letters of scripts without case are lower-case enough, as the reference validator reads it.
    expect(parseSkillMd(withFields('name: 技能-2\ndescription: d')).name).toBe('技能-2');
  });

  it('refuses a description over 1,024 characters, and takes one of 1,024', () => {
    expect(refusal(withFields(`name: a\ndescription: ${'x'.repeat(1025)}`))).toMatch(
      /"description" is over 1024 characters/,
    );
    expect(parseSkillMd(withFields(`name: a\ndescription: ${'x'.repeat(1024)}`)).description).toHaveLength(
      1024,
    );
  });

  it('refuses optional fields of the wrong type or size', () => {
    expect(refusal(withFields('name: a\ndescription: d\nlicense: [MIT]'))).toMatch(
      /"license" must be a string/,
    );
    expect(refusal(withFields(`name: a\ndescription: d\ncompatibility: ${'x'.repeat(501)}`))).toMatch(
      /"compatibility" is over 500 characters/,
    );
    expect(refusal(withFields('name: a\ndescription: d\nmetadata: [a]'))).toMatch(
      /"metadata" must be a mapping/,
    );
    expect(refusal(withFields('name: a\ndescription: d\nallowed-tools: [1, 2]'))).toMatch(/"allowed-tools"/);
  });

  it('refuses a name that is not its folder’s', () => {
    expect(parseSkillMd(valid, { folder: 'pdf-tools' }).name).toBe('pdf-tools');
    expect(refusal(valid, { folder: 'pdf' })).toMatch(
      /"name" "pdf-tools" must be the name of its folder, "pdf"/,
    );
  });

  it('says what is wrong with a name, or nothing', () => {
    expect(skillNameProblem('code-review')).toBeUndefined();
    expect(skillNameProblem('')).toBe('is empty');
  });
});

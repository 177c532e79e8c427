import { describe, expect, it } from 'vitest';
import { planSkill } from '../../src/ingest/skill/skill.js';
import { rejectsWith } from './fixtures.js';

const skill = {
  name: 'Write an RFC',
  description: 'Drafts an RFC in the team format, with motivation, design and alternatives.',
  content:
    '# Steps\n\nCollect the motivation from the issue first.\n\n## Review\n\nAsk two reviewers to read it.\n',
};

describe('planSkill', () => {
  it('plans a file under viking://agent/skills with the description as L0', async () => {
    const node = await planSkill(skill);
    expect(node).toMatchObject({
      uri: 'viking://agent/skills/write-an-rfc',
      relativePath: ['write-an-rfc'],
      kind: 'file',
      title: 'Write an RFC',
      headings: ['Steps', 'Review'],
      content: skill.content,
      l0: skill.description,
      summaryKind: 'extractive',
      change: 'added',
    });
    expect(node.l1).toContain('Drafts an RFC in the team format');
    expect(node.l1).toContain('- Review: Ask two reviewers to read it.');
  });

  it('counts a changed description as a change, and keeps the L1 of an unchanged skill', async () => {
    const first = await planSkill(skill);
    const previous = {
      contentHash: first.contentHash,
      l0: first.l0,
      l1: 'stored L1',
      summaryKind: first.summaryKind,
    };
    expect(await planSkill(skill, { previous })).toMatchObject({ change: 'unchanged', l1: 'stored L1' });
    const edited = await planSkill({ ...skill, description: 'Something else entirely.' }, { previous });
    expect(edited.change).toBe('changed');
    expect(edited.contentHash).not.toBe(first.contentHash);
  });

  it('cuts a long description to 256 characters', async () => {
    const node = await planSkill({ ...skill, description: 'word '.repeat(100) });
    expect(node.l0.length).toBeLessThanOrEqual(256);
    expect(node.l0.endsWith('word…')).toBe(true);
  });

  it('refuses missing fields, names without letters, and binary content', async () => {
    await rejectsWith(() => planSkill({ ...skill, name: ' ' }), 'INVALID_ARGUMENT');
    await rejectsWith(() => planSkill({ ...skill, description: '' }), 'INVALID_ARGUMENT');
    await rejectsWith(() => planSkill({ ...skill, content: undefined as never }), 'INVALID_ARGUMENT');
    await rejectsWith(() => planSkill({ ...skill, name: '!!!' }), 'INVALID_ARGUMENT');
    await rejectsWith(() => planSkill({ ...skill, content: 'a\u0000b' }), 'BINARY_INPUT');
    await rejectsWith(() => planSkill(skill, { maxBytes: 10 }), 'INPUT_TOO_LARGE');
  });
});

// Skills in the Agent Skills format through the ingestor, on a memory store and IndexedDB: write,
// list, get, replace and remove, and every refusal leaving the store as it was.
import { describe, expect, it } from 'vitest';
import { createIngestor } from '../../src/ingest/ingestor.js';
import { getSkill, listSkills } from '../../src/ingest/skill/skill-reads.js';
import type { FullStore } from '../../src/store/full-store.js';
import { rejectsWith } from './fixtures.js';
import { dump, hashEmbedder, stores, touched } from './ingest-support.js';

const S = 'viking://agent/skills';
const skillMd = (name = 'pdf-tools', description = 'Fills PDF forms. Use when the user mentions PDFs.') =>
  `---\nname: ${name}\ndescription: ${description}\nlicense: MIT\nmetadata:\n  author: ana\n---\n# Filling\n\nRun scripts/fill.py, then read reference.md.\n`;
const fillPy = 'import sys\n\ndef fill(form):\n    return form\n';
const reference = '# Reference\n\nEvery field of the form, by name.\n';
const folder = (text = skillMd()) => ({
  files: { 'SKILL.md': text, 'scripts/fill.py': fillPy, 'reference.md': reference },
});

/** `rejectsWith`, and the message matches `message`. */
async function refused(run: () => Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const error = await rejectsWith(run, code);
  if (message) expect(error.message).toMatch(message);
}

async function setup(open: () => Promise<FullStore>) {
  const store = await open();
  const { embedder, texts } = hashEmbedder();
  return { store, texts, ingestor: createIngestor({ store, embedder }) };
}

describe.each(stores)('skills in a %s', (_, open) => {
  it('writes a folder as a directory: SKILL.md as given, its files below, the description as L0', async () => {
    const { store, ingestor } = await setup(open);
    const result = await ingestor.addSkill(folder());
    expect(result).toEqual({
      uris: [`${S}/pdf-tools`],
      added: 5,
      changed: 0,
      unchanged: 0,
      removed: 0,
      skipped: [],
    });
    const dir = (await store.node(`${S}/pdf-tools`))!;
    expect(dir).toMatchObject({
      kind: 'dir',
      contextType: 'skill',
      l0: 'Fills PDF forms. Use when the user mentions PDFs.',
    });
    expect(dir.l1).toContain('Files: reference.md, scripts/fill.py');
    expect(dir.meta.description).toBe(dir.l0);
    expect(await store.node(`${S}/pdf-tools/SKILL.md`)).toMatchObject({
      kind: 'file',
      l2: skillMd(),
      l0: dir.l0,
    });
    expect(await store.node(`${S}/pdf-tools/scripts/fill.py`)).toMatchObject({ kind: 'file', l2: fillPy });
    expect(await store.node(`${S}/pdf-tools/scripts`)).toMatchObject({ kind: 'dir' });
    expect(await store.node(`${S}/pdf-tools/reference.md`)).toMatchObject({ kind: 'file', l2: reference });
    expect((await store.node(S))!.l0).toContain('pdf-tools');
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('lists skills of both kinds by name, and gets one whole', async () => {
    const { store, ingestor } = await setup(open);
    await ingestor.addSkill(folder());
    await ingestor.addSkill({
      name: 'Write an RFC',
      description: 'Drafts RFCs.',
      content: '# RFC\n\nSteps.',
    });
    await ingestor.addSkill(skillMd('code-review', 'Reviews a diff.'));
    expect(await listSkills(store)).toEqual([
      { name: 'code-review', description: 'Reviews a diff.', uri: `${S}/code-review` },
      {
        name: 'pdf-tools',
        description: 'Fills PDF forms. Use when the user mentions PDFs.',
        uri: `${S}/pdf-tools`,
      },
      { name: 'Write an RFC', description: 'Drafts RFCs.', uri: `${S}/write-an-rfc` },
    ]);
    expect(await getSkill(store, 'pdf-tools')).toEqual({
      name: 'pdf-tools',
      description: 'Fills PDF forms. Use when the user mentions PDFs.',
      uri: `${S}/pdf-tools`,
      frontmatter: {
        name: 'pdf-tools',
        description: 'Fills PDF forms. Use when the user mentions PDFs.',
        license: 'MIT',
        metadata: { author: 'ana' },
      },
      body: '# Filling\n\nRun scripts/fill.py, then read reference.md.\n',
      files: ['SKILL.md', 'reference.md', 'scripts/fill.py'],
    });
    expect(await getSkill(store, 'code-review')).toMatchObject({ files: ['SKILL.md'] });
    expect(await getSkill(store, 'Write an RFC')).toEqual({
      name: 'Write an RFC',
      description: 'Drafts RFCs.',
      uri: `${S}/write-an-rfc`,
      frontmatter: { name: 'Write an RFC', description: 'Drafts RFCs.' },
      body: '# RFC\n\nSteps.',
      files: [],
    });
    await rejectsWith(() => getSkill(store, 'nope'), 'NOT_FOUND');
    await rejectsWith(() => getSkill(store, '!!!'), 'INVALID_ARGUMENT');
  });

  it('a folder skill takes a top folder whose name is the skill’s, and skips binary files', async () => {
    const { store, ingestor } = await setup(open);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]);
    const result = await ingestor.addSkill({
      files: [
        { path: 'pdf-tools/SKILL.md', content: skillMd() },
        { path: 'pdf-tools/assets/logo.png', content: png },
        { path: 'pdf-tools/reference.md', content: new Blob([reference]) },
      ],
    });
    expect(result.skipped.map((s) => [s.path, s.error.code])).toEqual([['assets/logo.png', 'BINARY_INPUT']]);
    expect((await getSkill(store, 'pdf-tools')).files).toEqual(['SKILL.md', 'reference.md']);
    const before = await dump(store);
    await refused(
      () => ingestor.addSkill({ files: { 'pdf/SKILL.md': skillMd(), 'pdf/reference.md': reference } }),
      'INVALID_ARGUMENT',
      /"name" "pdf-tools" must be the name of its folder, "pdf"/,
    );
    expect(touched(before, await dump(store))).toEqual([]);
  });

  it('replaces a skill of the same name: changed files rewritten, gone ones removed, the rest kept', async () => {
    const { store, ingestor, texts } = await setup(open);
    await ingestor.addSkill(folder());
    const before = await dump(store);
    texts.length = 0;
    expect(await ingestor.addSkill(folder())).toMatchObject({
      added: 0,
      changed: 0,
      unchanged: 5,
      removed: 0,
    });
    expect(texts).toEqual([]);
    expect(touched(before, await dump(store))).toEqual([]);

    const edited = skillMd('pdf-tools', 'Fills and flattens PDF forms.');
    const result = await ingestor.addSkill({ files: { 'SKILL.md': edited, 'scripts/fill.py': fillPy } });
    expect(result).toMatchObject({ changed: 2, unchanged: 2, removed: 1 });
    expect(touched(before, await dump(store))).toEqual([
      'viking://agent',
      `${S}`,
      `${S}/pdf-tools`,
      `${S}/pdf-tools/SKILL.md`,
      `${S}/pdf-tools/reference.md`,
    ]);
    expect(await getSkill(store, 'pdf-tools')).toMatchObject({
      description: 'Fills and flattens PDF forms.',
      files: ['SKILL.md', 'scripts/fill.py'],
    });
    // A skill given as fields under the same name takes the directory's place, and back.
    await ingestor.addSkill({ name: 'pdf-tools', description: 'Plain.', content: 'Do it.' });
    expect(await store.node(`${S}/pdf-tools`)).toMatchObject({ kind: 'file', l2: 'Do it.' });
    expect(await store.node(`${S}/pdf-tools/SKILL.md`)).toBeUndefined();
    await ingestor.addSkill(folder());
    expect((await getSkill(store, 'pdf-tools')).files).toHaveLength(3);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('removes a skill with its files, and says NOT_FOUND for one that is not there', async () => {
    const { store, ingestor } = await setup(open);
    await ingestor.addSkill(folder());
    await ingestor.addSkill({ name: 'tabs', description: 'Indents with tabs.', content: 'Use tabs.' });
    expect(await ingestor.removeSkill('pdf-tools')).toMatchObject({ uris: [`${S}/pdf-tools`], removed: 5 });
    expect(await store.descendants(`${S}/pdf-tools`)).toEqual([]);
    expect(await store.node(`${S}/pdf-tools`)).toBeUndefined();
    expect((await store.node(S))!.l0).not.toContain('pdf-tools');
    expect((await listSkills(store)).map((s) => s.name)).toEqual(['tabs']);
    expect(await ingestor.removeSkill('tabs')).toMatchObject({ removed: 1 });
    await rejectsWith(() => ingestor.removeSkill('tabs'), 'NOT_FOUND');
    expect(await listSkills(store)).toEqual([]);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('refuses an invalid skill, naming the field, and writes nothing', async () => {
    const { store, ingestor } = await setup(open);
    await ingestor.addSkill(folder());
    const before = await dump(store);
    const cases: [Parameters<typeof ingestor.addSkill>[0], RegExp][] = [
      ['# No front matter\n', /front matter/],
      ['---\nname: [x\n---\n', /not valid YAML/],
      ['---\ndescription: d\n---\n', /no "name"/],
      ['---\nname: a\ndescription: ""\n---\n', /"description" is empty/],
      [skillMd('PDF_Tools'), /"name" "PDF_Tools"/],
      [skillMd('pdf-tools', 'x'.repeat(1025)), /"description" is over 1024/],
      [{ files: { 'reference.md': reference } }, /needs SKILL.md at its top/],
      [{ files: { 'SKILL.md': skillMd(), '../x.md': 'x' } }, /contains ".."/],
      [{ files: { 'SKILL.md': skillMd() }, name: 'x' } as never, /\{ files \} only; it has "name"/],
      [{ files: 'SKILL.md' } as never, /"files" must map paths/],
      [{ files: {} }, /empty/],
    ];
    for (const [input, message] of cases)
      await refused(() => ingestor.addSkill(input), 'INVALID_ARGUMENT', message);
    await rejectsWith(
      () => ingestor.addSkill({ files: { 'SKILL.md': new Uint8Array([0, 1, 2, 0]) } }),
      'BINARY_INPUT',
    );
    expect(touched(before, await dump(store))).toEqual([]);
  });
});

// read() of a split document (docs/guide/retrieval.md, "Reading a whole document"): a document's
// directory, or one of its section directories, reads as its whole text, the files joined in
// document order; any other directory is IS_A_DIRECTORY.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TreeNode } from '../../src/context/tree.js';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { prose } from '../ingest/fixtures.js';
import { expectCode, hashEmbedder } from './fixtures.js';

const R = 'viking://resources';
const open = async () => openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });

/**
 * A long Markdown document with what a splitter could lose: front matter, a heading-only lead, a
 * large section with subsections (a section directory), a table, a fence holding `#` lines, CRLF
 * line ends, a paragraph on one line longer than a file, text that is not NFC, and no newline at
 * the end.
 */
const guide = [
  '---\ntitle: Field guide\n---\n',
  '# Field guide\n\n',
  `${prose('intro', 8)}\n\n`,
  '## Setup\n\n',
  `${prose('setup', 60)}\n\n`,
  '## Usage\n\n',
  `${prose('usage', 10)}\n\n`,
  '### Basics\n\n',
  `${prose('basics', 80)}\n\n`,
  '| knot | load (kg) |\n| --- | --- |\n| bowline | 300 |\n| hitch | 120 |\n\n',
  '### Advanced\n\n',
  '```sh\n# not a heading\nnpm run sail\n```\n\n',
  `${prose('advanced', 80)}\n\n`,
  '## Windows notes\r\n\r\n',
  `${prose('crlf', 40).replaceAll('. ', '.\r\n')}\r\n\r\n`,
  '## One long line\n\n',
  `${prose('line', 700)}\n\n`,
  '## Caf\u0065\u0301 (not NFC)\n\n',
  `${prose('cafe', 5)} Cafe\u0301.`,
].join('');

/** The files below, depth first, each directory's children in name order. */
function filesOf(nodes: readonly TreeNode[]): string[] {
  return [...nodes]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((n) => (n.kind === 'file' ? [n.uri] : filesOf(n.children ?? [])));
}

/** Every directory below `nodes`, nested ones too. */
function directories(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((n) => (n.kind === 'dir' ? [n, ...directories(n.children ?? [])] : []));
}

describe('read() of a split document', () => {
  it('gives back the whole document, byte for byte, and a section directory its part', async () => {
    const longship = await open();
    const [uri] = (await longship.addResource(guide, { name: 'guide.md' })).uris;
    expect(uri).toBe(`${R}/guide.md`);
    expect((await longship.stat(uri!)).kind).toBe('dir');
    expect(await longship.read(uri!)).toBe(guide);

    const sections = directories(await longship.tree(uri!, { depth: 8 }));
    expect(sections.map((n) => n.name)).toEqual(['02-usage']);
    for (const section of sections) {
      const text = await longship.read(section.uri);
      // A contiguous part of the document: its files, depth first, in name order.
      expect(guide).toContain(text);
      const files = filesOf(await longship.tree(section.uri, { depth: 8 }));
      expect(text).toBe((await Promise.all(files.map((f) => longship.read(f)))).join(''));
    }
    await longship.close();
  });

  it('drops only a byte-order mark from bytes, as decoding does', async () => {
    const longship = await open();
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(guide)]);
    const [uri] = (await longship.addResource(bytes, { name: 'guide.md' })).uris;
    expect(await longship.read(uri!)).toBe(guide);
    await longship.close();
  });

  it('loses nothing of any Markdown, however it is split', async () => {
    const longship = await open();
    const block = fc.oneof(
      fc.integer({ min: 1, max: 4 }).map((level) => `${'#'.repeat(level)} Heading ${level}\n`),
      fc.integer({ min: 1, max: 30 }).map((n) => `${prose('p', n)}\n\n`),
      // A paragraph on one line, longer than a file: cut between words.
      fc.integer({ min: 40, max: 90 }).map((n) => `${prose('long', n)}\n`),
      fc.constant('```\n# fenced\n```\n'),
      fc.constant('Setext\n---\n'),
      fc.constant('Windows\r\n\r\n'),
      fc.constant('\n'),
    );
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { minLength: 1, maxLength: 30 }),
        fc.constantFrom('', 'no newline at the end'),
        fc.integer({ min: 60, max: 400 }),
        async (blocks, tail, maxTokens) => {
          const source = blocks.join('') + tail;
          const name = `doc-${runs++}.md`;
          const [uri] = (
            await longship.addResource(source, { name, maxTokens, mergeBelow: Math.floor(maxTokens / 4) })
          ).uris;
          expect(await longship.read(uri!)).toBe(source);
        },
      ),
      { numRuns: 50 },
    );
    await longship.close();
  });

  it('reads the document alone: not a file written into it, nor a document added under it', async () => {
    const longship = await open();
    const [uri] = (await longship.addResource(guide, { name: 'guide.md' })).uris;
    const [first] = await longship.ls(uri!);
    await longship.write(`${uri}/00-my-note.md`, 'My own note.');
    await longship.write(`${uri}/99-my-note.md`, 'Another note.');
    await longship.addResource('# Aside\n\nA small document.\n', { name: 'aside.md', target: uri! });
    expect(await longship.read(uri!)).toBe(guide);
    expect(first).toBeDefined();
    // Moved, it is still the same document.
    await longship.mv(uri!, `${R}/moved.md`);
    expect(await longship.read(`${R}/moved.md`)).toBe(guide);
    await longship.close();
  });
});

describe('read() of any other directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'longship-tree-reads-'));
    await mkdir(join(dir, 'docs', 'deep'), { recursive: true });
    await writeFile(join(dir, 'docs', 'a.md'), '# A\n\nA note.\n');
    await writeFile(join(dir, 'docs', 'deep', 'b.md'), `# B\n\n${prose('b', 200)}\n`);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A directory that is no document: no `meta.source`, and IS_A_DIRECTORY pointing to tree() and ls(). */
  async function expectFolder(longship: Awaited<ReturnType<typeof open>>, uri: string): Promise<void> {
    expect((await longship.stat(uri)).meta.source).toBeUndefined();
    await expectCode(longship.read(uri), 'IS_A_DIRECTORY');
    await expect(longship.read(uri)).rejects.toThrow(/list it with tree\(\) or ls\(\)/);
  }

  it('is IS_A_DIRECTORY for roots, mkdir(), folders from entries and from disk', async () => {
    const longship = await open();
    await longship.mkdir(`${R}/made/here`, { parents: true });
    await longship.addResource(
      [
        { path: 'a.md', content: '# A\n\nA note.\n' },
        { path: 'sub/b.md', content: `# B\n\n${prose('b', 200)}\n` },
      ],
      { name: 'entries' },
    );
    await longship.addResource({ path: join(dir, 'docs') });
    for (const uri of [
      R,
      'viking://user/default/memories',
      `${R}/made`,
      `${R}/made/here`,
      `${R}/entries`,
      `${R}/entries/sub`,
      `${R}/docs`,
      `${R}/docs/deep`,
    ]) {
      await expectFolder(longship, uri);
    }
    // The large documents inside those folders are documents.
    for (const uri of [`${R}/entries/sub/b.md`, `${R}/docs/deep/b.md`]) {
      expect((await longship.stat(uri)).kind).toBe('dir');
      expect(await longship.read(uri)).toBe(`# B\n\n${prose('b', 200)}\n`);
    }
    await longship.close();
  });

  it('is IS_A_DIRECTORY for a folder added where a document of its name was', async () => {
    const longship = await open();
    await longship.addResource(guide, { name: 'notes' });
    expect(typeof (await longship.stat(`${R}/notes`)).meta.source).toBe('string');
    await longship.addResource([{ path: 'a.md', content: '# A\n\nA note.\n' }], { name: 'notes' });
    await expectFolder(longship, `${R}/notes`);
    await longship.addResource('A small note.', { name: 'small' });
    await longship.addResource([{ path: 'b.md', content: '# B\n\nB note.\n' }], { name: 'small' });
    await expectFolder(longship, `${R}/small`);
    await longship.close();
  });
});

// Adding from disk through the library (docs/guide/retrieval.md, "Adding from disk"): `{ path }` and
// `file:` URLs read as `longship add` reads, and a string naming a file on disk is refused, not indexed.
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { looksLikePath } from '../../src/ingest/path-like.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/fixtures.js';

let dir: string;
let docs: string;

/** A note of a few sentences about `topic`. */
const note = (topic: string) => `# ${topic}\n\nNotes about ${topic}. The ${topic} needs care in spring.\n`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'longship-local-path-'));
  docs = join(dir, 'docs');
  await mkdir(join(docs, 'guide'), { recursive: true });
  for (let i = 0; i < 12; i++)
    await writeFile(join(docs, `note-${String(i).padStart(2, '0')}.md`), note(`topic ${i}`));
  for (let i = 0; i < 12; i++)
    await writeFile(join(docs, 'guide', `page-${String(i).padStart(2, '0')}.txt`), note(`page ${i}`));
  await mkdir(join(docs, '.git'));
  await writeFile(join(docs, '.git', 'config'), '[core]\n');
  await writeFile(join(docs, '.hidden.md'), note('hidden'));
  await mkdir(join(docs, 'node_modules', 'dep'), { recursive: true });
  await writeFile(join(docs, 'node_modules', 'dep', 'README.md'), note('dependency'));
  await writeFile(join(dir, 'outside.md'), note('outside'));
  await symlink(join(dir, 'outside.md'), join(docs, 'link.md'));
  await writeFile(join(docs, 'image.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
  await writeFile(join(docs, 'huge.md'), `${'word '.repeat(2000)}\n`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = async () => openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
const R = 'viking://resources';

describe('addResource({ path }) adds a folder as longship add does', () => {
  it('leaves out hidden entries, node_modules and links, skips binary and oversized files, and re-adds only changes', async () => {
    const longship = await open();
    const first = await longship.addResource({ path: docs }, { maxBytes: 4096 });
    // 24 documents and the two folder directories above them.
    expect(first.uris).toHaveLength(24);
    expect(first).toMatchObject({ added: 26, changed: 0, removed: 0 });
    expect(first.uris.every((uri) => uri.startsWith(`${R}/docs/`))).toBe(true);
    expect(first.uris.some((uri) => /hidden|dependency|config|link|outside/.test(uri))).toBe(false);
    expect(first.skipped.map(({ path, error }) => [path, error.code])).toEqual([
      ['docs/huge.md', 'INPUT_TOO_LARGE'],
      ['docs/image.png', 'BINARY_INPUT'],
    ]);
    expect(await longship.read(first.uris.find((uri) => uri.includes('note-00'))!)).toContain(
      'Notes about topic 0.',
    );

    await writeFile(join(docs, 'note-03.md'), note('a changed topic'));
    await unlink(join(docs, 'note-07.md'));
    const again = await longship.addResource({ path: docs }, { maxBytes: 4096 });
    // The edited note and the folder's directory above it; the 22 other notes and guide/ as they were.
    expect(again).toMatchObject({ added: 0, changed: 2, unchanged: 23, removed: 1 });
    expect(again.uris).toHaveLength(23);
    const changed = again.uris.find((uri) => uri.includes('note-03'))!;
    expect(await longship.read(changed)).toContain('a changed topic');
    const gone = first.uris.find((uri) => uri.includes('note-07'))!;
    await expect(longship.stat(gone)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await longship.close();
  });

  it('puts the folder under `to`, and a relative path is relative to the working directory', async () => {
    const longship = await open();
    const result = await longship.addResource(
      { path: relative(process.cwd(), join(docs, 'guide')) },
      { target: `${R}/shelf` },
    );
    expect(result.uris).toHaveLength(12);
    expect(result.uris.every((uri) => uri.startsWith(`${R}/shelf/guide/`))).toBe(true);
    await longship.close();
  });

  it('a missing path is NOT_FOUND, and other keys beside path are INVALID_ARGUMENT', async () => {
    const longship = await open();
    await expect(longship.addResource({ path: join(dir, 'nothing-here') })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const withContent = { path: 'a.md', content: 'text' } as unknown as { path: string };
    await expect(longship.addResource(withContent)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await longship.close();
  });
});

describe('addResource(new URL("file:…"))', () => {
  it('adds the file, named by its file name', async () => {
    const longship = await open();
    const result = await longship.addResource(pathToFileURL(join(docs, 'note-01.md')));
    expect(result.added).toBe(1);
    expect(result.uris[0]).toMatch(/^viking:\/\/resources\/note-01/);
    expect(await longship.read(result.uris[0]!)).toContain('Notes about topic 1.');
    await longship.close();
  });
});

describe('a string is content, never a location', () => {
  it('a string naming a file on disk is INVALID_ARGUMENT, saying how to add the path', async () => {
    const longship = await open();
    const path = join(docs, 'note-02.md');
    const refused = longship.addResource(path);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(refused).rejects.toThrow(/addResource\(\{ path: .*note-02\.md" \}\) or a file: URL/);
    expect(await longship.ls(R)).toEqual([]);
    await longship.close();
  });

  it('a one-line sentence, and a path-like string naming nothing on disk, are indexed as content', async () => {
    const longship = await open();
    const sentence = await longship.addResource('The garden needs water in spring.', { name: 'garden.md' });
    expect(sentence.added).toBe(1);
    const missing = await longship.addResource('./no/such/file.md', { name: 'path.md' });
    expect(missing.added).toBe(1);
    expect(await longship.read(missing.uris[0]!)).toContain('./no/such/file.md');
    await longship.close();
  });

  it('looksLikePath: one short line starting like a path or ending in an extension', () => {
    expect(['./a', '../a', '/etc/hosts', '~/notes', 'C:\\docs\\a.txt', 'ws.md'].map(looksLikePath)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['The garden.', 'a\nb.md', '', 'x'.repeat(2000) + '.md'].map(looksLikePath)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

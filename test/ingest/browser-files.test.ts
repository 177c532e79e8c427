// A page's files through addResource (docs/guide/retrieval.md, "Files from the page"): FileLists
// and File System Access handles, here as fakes of the same shape (Node has neither), walked and
// named as folders from disk are, and re-added as a folder from disk is.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { isBrowserFiles, readBrowserFiles } from '../../src/ingest/browser-files.js';
import { type ResourceInput, readInput } from '../../src/ingest/input.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { WebFileList } from '../../src/web-types.js';
import { hashEmbedder } from '../context/fixtures.js';
import { rejectsWith } from './fixtures.js';

/** A folder as nested objects: a string or bytes is a file, an object a folder. */
interface Tree {
  [name: string]: string | Uint8Array | Tree;
}

/** A FileSystemFileHandle of the same shape; `fail` makes getFile() reject with that DOMException. */
function fileHandle(name: string, content: string | Uint8Array, fail?: string) {
  return {
    kind: 'file' as const,
    name,
    getFile: async () => {
      if (fail) throw new DOMException(`${name}: ${fail}`, fail);
      return new File([content as BlobPart], name);
    },
  };
}

/** A FileSystemDirectoryHandle of the same shape, over `tree`, read afresh at each walk (as a real one is). */
function directoryHandle(name: string, tree: Tree) {
  return {
    kind: 'directory' as const,
    name,
    // Deliberately not in name order: the walk sorts.
    async *values() {
      for (const [child, value] of Object.entries(tree).reverse()) {
        yield typeof value === 'string' || value instanceof Uint8Array
          ? fileHandle(child, value)
          : directoryHandle(child, value);
      }
    },
  };
}

/** A File as a webkitdirectory picker gives it: its path below the picked folder's parent. */
function pickedFile(path: string, content: string): File {
  const file = new File([content], path.split('/').at(-1)!);
  Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

/** A FileList of the same shape. */
function fileList(files: File[]): WebFileList {
  return { length: files.length, item: (i: number) => files[i] ?? null };
}

const note = (topic: string) => `# ${topic}\n\nNotes about ${topic}. The ${topic} needs care in spring.\n`;
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]);
const R = 'viking://resources';

const paths = (read: Awaited<ReturnType<typeof readInput>>) => read.documents.map((d) => d.path);

describe('a FileSystemDirectoryHandle', () => {
  const docs = () =>
    directoryHandle('docs', {
      'b.md': note('b'),
      'a.md': note('a'),
      guide: { 'page.txt': note('page'), '.draft.md': note('draft') },
      '.git': { config: '[core]\n' },
      '.env': 'KEY=1\n',
      node_modules: { dep: { 'README.md': note('dep') } },
      'image.png': png,
      'huge.md': `${'word '.repeat(2000)}\n`,
    });

  it('is a folder of its name: walked in name order, hidden entries and node_modules left out, binary and oversized files skipped', async () => {
    const read = await readInput(docs(), { maxBytes: 4096 });
    expect(paths(read)).toEqual(['docs/a.md', 'docs/b.md', 'docs/guide/page.txt']);
    expect(read.documents[0]).toEqual({ path: 'docs/a.md', content: note('a'), format: 'markdown' });
    expect(read.skipped.map(({ path, error }) => [path, error.code])).toEqual([
      ['docs/huge.md', 'INPUT_TOO_LARGE'],
      ['docs/image.png', 'BINARY_INPUT'],
    ]);
  });

  it('is renamed by options.name, and OPFS’s root (no name) puts its files at the top', async () => {
    expect(paths(await readInput(docs(), { name: 'manual', maxBytes: 4096 }))).toEqual([
      'manual/a.md',
      'manual/b.md',
      'manual/guide/page.txt',
    ]);
    expect(
      paths(await readInput(directoryHandle('', { 'x.md': note('x'), sub: { 'y.md': note('y') } }))),
    ).toEqual(['sub/y.md', 'x.md']);
  });

  it('is INVALID_ARGUMENT when nothing is left to add, and BINARY_INPUT when every file is binary', async () => {
    const empty = await rejectsWith(
      () => readInput(directoryHandle('empty', { '.git': { HEAD: 'x' } })),
      'INVALID_ARGUMENT',
    );
    expect(empty.message).toContain('folder empty has no files to add');
    await rejectsWith(() => readInput(directoryHandle('images', { 'a.png': png })), 'BINARY_INPUT');
  });

  it('names the file whose getFile() rejects: NOT_FOUND when it is gone, UNSUPPORTED_INPUT when it cannot be read', async () => {
    for (const [fail, code] of [
      ['NotFoundError', 'NOT_FOUND'],
      ['NotAllowedError', 'UNSUPPORTED_INPUT'],
    ] as const) {
      const broken = {
        kind: 'directory' as const,
        name: 'docs',
        async *values() {
          yield fileHandle('ok.md', note('ok'));
          yield {
            kind: 'directory' as const,
            name: 'guide',
            values: async function* () {
              yield fileHandle('gone.md', note('gone'), fail);
            },
          };
        },
      };
      const error = await rejectsWith(() => readInput(broken), code);
      expect(error.message).toContain('docs/guide/gone.md');
      expect((error.cause as DOMException).name).toBe(fail);
    }
  });

  it('names the folder that cannot be listed', async () => {
    const folder = {
      kind: 'directory' as const,
      name: 'docs',
      // biome-ignore lint/correctness/useYield: a listing that fails before its first entry
      async *values() {
        throw new DOMException('revoked', 'NotAllowedError');
      },
    };
    const error = await rejectsWith(() => readInput(folder), 'UNSUPPORTED_INPUT');
    expect(error.message).toBe('cannot read docs (NotAllowedError)');
    const unlistable = await rejectsWith(
      () => readInput({ kind: 'directory', name: 'old' } as never),
      'UNSUPPORTED_INPUT',
    );
    expect(unlistable.message).toContain('cannot list old');
  });

  it('stops with ABORTED between folders', async () => {
    const controller = new AbortController();
    const folder = {
      kind: 'directory' as const,
      name: 'docs',
      async *values() {
        yield fileHandle('a.md', note('a'));
        controller.abort();
        yield directoryHandle('guide', { 'b.md': note('b') });
      },
    };
    await rejectsWith(() => readInput(folder, { signal: controller.signal }), 'ABORTED');
  });
});

describe('a FileSystemFileHandle', () => {
  it('is one document named by the handle, refused (not skipped) when binary', async () => {
    const read = await readInput(fileHandle('notes.md', note('notes')));
    expect(read).toEqual({
      documents: [{ path: 'notes.md', content: note('notes'), format: 'markdown' }],
      skipped: [],
    });
    expect(paths(await readInput(fileHandle('notes.md', note('n')), { name: 'renamed.md' }))).toEqual([
      'renamed.md',
    ]);
    await rejectsWith(() => readInput(fileHandle('a.png', png)), 'BINARY_INPUT');
    const gone = await rejectsWith(() => readInput(fileHandle('x.md', 'x', 'NotFoundError')), 'NOT_FOUND');
    expect(gone.message).toContain('x.md');
  });
});

describe('a FileList, or a list of Files and handles', () => {
  it('puts each File at its webkitRelativePath (a picked folder), leaving hidden entries and node_modules below the top out', async () => {
    const list = fileList([
      pickedFile('docs/a.md', note('a')),
      pickedFile('docs/.git/config', '[core]\n'),
      pickedFile('docs/node_modules/x/README.md', note('x')),
      pickedFile('docs/guide/b.md', note('b')),
      pickedFile('docs/logo.png', '\u0000PNG'),
    ]);
    expect(isBrowserFiles(list)).toBe(true);
    const read = await readInput(list);
    expect(paths(read)).toEqual(['docs/a.md', 'docs/guide/b.md']);
    expect(read.skipped.map((s) => [s.path, s.error.code])).toEqual([['docs/logo.png', 'BINARY_INPUT']]);
  });

  it('puts a File without a relative path (multiple selection) at its name, a hidden one too: it was picked', async () => {
    const list = fileList([new File([note('a')], 'a.md'), new File(['A=1\n'], '.env.example')]);
    expect(paths(await readInput(list))).toEqual(['a.md', '.env.example']);
    expect(paths(await readInput(list, { name: 'picked' }))).toEqual(['picked/a.md', 'picked/.env.example']);
  });

  it('mixes Files and handles in one array (a drop), each under its own name', async () => {
    const read = await readInput([
      new File([note('loose')], 'loose.md'),
      fileHandle('handled.md', note('handled')),
      directoryHandle('folder', { 'in.md': note('in'), '.hidden': 'x' }),
    ]);
    expect(paths(read)).toEqual(['loose.md', 'handled.md', 'folder/in.md']);
  });

  it('refuses two items at one path, a nameless Blob, an unknown item, and an empty FileList', async () => {
    const twice = await rejectsWith(
      () => readInput([new File(['x'], 'a.md'), fileHandle('a.md', 'y')]),
      'INVALID_ARGUMENT',
    );
    expect(twice.message).toContain('a.md');
    const nameless = await rejectsWith(
      () => readInput([new File(['x'], 'a.md'), new Blob(['y'])]),
      'INVALID_ARGUMENT',
    );
    expect(nameless.message).toContain('item 1');
    const unknown = await rejectsWith(
      () => readInput([new File(['x'], 'a.md'), { kind: 'socket', name: 's' }] as never),
      'INVALID_ARGUMENT',
    );
    expect(unknown.message).toContain('item 1');
    await rejectsWith(() => readInput(fileList([])), 'INVALID_ARGUMENT');
  });
});

describe('what is not a page’s files', () => {
  it('takes the DOM’s FileList, Files and handles, as the types say', () => {
    expectTypeOf<FileList>().toExtend<ResourceInput>();
    expectTypeOf<FileSystemFileHandle>().toExtend<ResourceInput>();
    expectTypeOf<FileSystemDirectoryHandle>().toExtend<ResourceInput>();
    // What getAsFileSystemHandle() resolves to, typed as neither kind in particular.
    expectTypeOf<(File | FileSystemHandle)[]>().toExtend<ResourceInput>();
  });

  it('is UNSUPPORTED_INPUT: an unknown object, a handle-like without getFile, and a DataTransfer, which names filesFromDrop', async () => {
    for (const input of [{ kind: 'file', name: 'x.md' }, { length: 1, item: () => 'text' }, new Map()]) {
      expect(isBrowserFiles(input)).toBe(false);
      await rejectsWith(() => readInput(input as never), 'UNSUPPORTED_INPUT');
    }
    const drop = { items: [], files: fileList([]), dropEffect: 'none', types: [] };
    const error = await rejectsWith(() => readInput(drop as never), 'UNSUPPORTED_INPUT');
    expect(error.message).toContain('filesFromDrop');
  });

  it('reads no bytes while walking: only getFile() is called, and an oversized file costs its size check', async () => {
    let read = 0;
    const big = new File([new Uint8Array(1 << 20).fill(0x61)], 'big.md');
    const spied = Object.assign(big, {
      arrayBuffer: () => {
        read++;
        return Blob.prototype.arrayBuffer.call(big);
      },
    });
    const folder = {
      kind: 'directory' as const,
      name: 'docs',
      async *values() {
        yield { kind: 'file' as const, name: 'big.md', getFile: async () => spied };
        yield fileHandle('small.md', note('small'));
      },
    };
    const listed = await readBrowserFiles(folder);
    expect(listed).toMatchObject({
      kind: 'folder',
      name: 'docs',
      entries: [{ path: 'big.md' }, { path: 'small.md' }],
    });
    expect(read).toBe(0);
    const result = await readInput(folder, { maxBytes: 4096 });
    expect(result.skipped.map((s) => s.error.code)).toEqual(['INPUT_TOO_LARGE']);
    expect(read).toBe(0);
  });
});

describe('adding a directory handle again', () => {
  it('writes nothing when nothing changed, then only the changed file, and removes the deleted one', async () => {
    const tree: Tree = {};
    for (let i = 0; i < 20; i++) tree[`note-${String(i).padStart(2, '0')}.md`] = note(`topic ${i}`);
    tree.guide = { 'page.md': note('page') };
    const handle = directoryHandle('docs', tree);
    const longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
    const first = await longship.addResource(handle);
    expect(first).toMatchObject({ added: 23, changed: 0, removed: 0 });
    expect(first.uris).toHaveLength(21);
    expect(first.uris.every((uri) => uri.startsWith(`${R}/docs/`))).toBe(true);

    const again = await longship.addResource(handle);
    expect(again).toMatchObject({ added: 0, changed: 0, unchanged: 23, removed: 0 });

    tree['note-03.md'] = note('a changed topic');
    delete tree['note-07.md'];
    const synced = await longship.addResource(handle);
    // The edited note and the folder's directory above it, whose summary lists its notes.
    expect(synced).toMatchObject({ added: 0, changed: 2, unchanged: 20, removed: 1 });
    expect(await longship.read(`${R}/docs/note-03.md`)).toContain('a changed topic');
    await expect(longship.stat(`${R}/docs/note-07.md`)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await longship.close();
  });
});

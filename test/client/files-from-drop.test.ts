// filesFromDrop() on drops of the same shape as a browser's (docs/guide/retrieval.md, "Files from
// the page"): items captured in the drop event, then read as handles (Chromium), entries (every
// browser) or files; what it resolves to is something addResource reads.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type DroppedFiles,
  filesFromDrop,
  type WebDataTransfer,
  type WebDataTransferItem,
} from '../../src/client/files-from-drop.js';
import { type ResourceInput, readInput } from '../../src/ingest/input.js';
import { rejectsWith } from '../ingest/fixtures.js';

const note = (topic: string) => `# ${topic}\n\nNotes about ${topic}.\n`;

/** A drop's DataTransfer that empties once the drop event returns: `end()` ends the event. */
function drop(items: WebDataTransferItem[]) {
  let live = true;
  const files = items.map((item) => item.getAsFile()).filter((f): f is Blob => f !== null);
  const guard = <T>(read: () => T) => {
    if (!live) throw new Error('the drop event is over');
    return read();
  };
  const dataTransfer = {
    get items() {
      return guard(() => items);
    },
    files: { length: files.length, item: (i: number) => files[i] ?? null },
  };
  return { dataTransfer, end: () => (live = false) };
}

/** A FileSystemEntry tree (webkitGetAsEntry), answering readEntries in batches of two as Chromium does in hundreds. */
function entry(name: string, content: string | Record<string, unknown>): unknown {
  if (typeof content === 'string') {
    return {
      name,
      isFile: true,
      isDirectory: false,
      file: (ok: (f: File) => void) => ok(new File([content], name)),
    };
  }
  const children = Object.entries(content).map(([child, value]) => entry(child, value as string));
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let next = 0;
      return {
        readEntries: (ok: (entries: unknown[]) => void) => {
          ok(children.slice(next, next + 2));
          next += 2;
        },
      };
    },
  };
}

const fileItem = (file: File, extra: Partial<WebDataTransferItem> = {}): WebDataTransferItem => ({
  kind: 'file',
  getAsFile: () => file,
  ...extra,
});

describe('filesFromDrop', () => {
  it('resolves to the dropped handles where the browser has them, and to the File of an item without one', async () => {
    const folder = { kind: 'directory', name: 'docs', async *values() {} };
    const loose = new File([note('loose')], 'loose.md');
    const { dataTransfer, end } = drop([
      fileItem(new File([], 'docs'), { getAsFileSystemHandle: async () => folder }),
      fileItem(loose, { getAsFileSystemHandle: async () => null }),
      { kind: 'string', getAsFile: () => null },
    ]);
    const files = filesFromDrop(dataTransfer);
    end();
    expect(await files).toEqual([folder, loose]);
  });

  it('walks folders through webkitGetAsEntry where there are no handles, leaving hidden entries out', async () => {
    const { dataTransfer, end } = drop([
      fileItem(new File([], 'docs'), {
        webkitGetAsEntry: () =>
          entry('docs', {
            'b.md': note('b'),
            'a.md': note('a'),
            '.git': { HEAD: 'ref' },
            guide: { 'page.md': note('page') },
            node_modules: { 'x.md': 'x' },
          }),
      }),
      fileItem(new File([note('loose')], 'loose.md'), { webkitGetAsEntry: () => null }),
    ]);
    const files = filesFromDrop(dataTransfer);
    end();
    const read = await readInput(await files);
    expect(read.documents.map((d) => d.path)).toEqual([
      'docs/a.md',
      'docs/b.md',
      'docs/guide/page.md',
      'loose.md',
    ]);
    expect(read.documents[0]!.content).toBe(note('a'));
  });

  it('takes the files of a DataTransfer without items', async () => {
    const file = new File([note('a')], 'a.md');
    const files = await filesFromDrop({ files: { length: 1, item: () => file } });
    expect(files).toEqual([file]);
    expect((await readInput(files)).documents.map((d) => d.path)).toEqual(['a.md']);
  });

  it('names the entry that cannot be read, and refuses what is not a DataTransfer', async () => {
    const broken = {
      name: 'gone.md',
      isFile: true,
      isDirectory: false,
      file: (_: unknown, fail: (e: unknown) => void) => fail(new DOMException('gone', 'NotFoundError')),
    };
    const { dataTransfer } = drop([fileItem(new File([], 'gone.md'), { webkitGetAsEntry: () => broken })]);
    const error = await rejectsWith(() => filesFromDrop(dataTransfer), 'NOT_FOUND');
    expect(error.message).toContain('gone.md');
    await rejectsWith(() => filesFromDrop(null), 'INVALID_ARGUMENT');
  });
});

it('takes the DOM’s DataTransfer and resolves to an input of addResource, as the types say', () => {
  expectTypeOf<DataTransfer>().toExtend<WebDataTransfer>();
  expectTypeOf<DroppedFiles>().toExtend<ResourceInput>();
});

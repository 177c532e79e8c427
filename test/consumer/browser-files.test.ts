// A page's own files, from the installed package, in Chromium (docs/guide/retrieval.md, "Files from
// the page"): a folder of 200 files written into OPFS, added in one call as its
// FileSystemDirectoryHandle through openLongshipInWorker, walked and read in the worker; added
// again (nothing written), then with one file changed and one deleted. A FileList, an array of
// Files and filesFromDrop() on a DataTransfer go in the same way. The worker script is an app's
// own (a word-hashing embedder, so that 200 files take seconds, not a model's minutes), bundled
// from the installed package as an app's bundler would.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, type StaticServer, serveFiles } from '../targets/browser.js';

/** The app's worker: Longship from the package, with an embedder of hashed words. */
const workerSource = `
import { functionEmbedder, openLongship } from 'longship';
import { exposeLongship } from 'longship/worker';

const dimensions = 64;
const embedder = functionEmbedder({
  id: 'consumer/hashed-words',
  dimensions,
  embed: async (texts) => texts.map((text) => {
    const vector = new Float32Array(dimensions);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
      vector[(h >>> 0) % dimensions] += 1;
    }
    vector[0] += 0.01;
    return vector;
  }),
});

exposeLongship({
  open: (options) => openLongship({
    store: { indexedDB: options.store?.indexedDB ?? 'longship' },
    usearch: new URL(options.usearch),
    embedder,
  }),
});
`;

/** A page without a bundler: the client from node_modules through an import map. */
const pageSource = `<!doctype html><title>Files from the page</title>
<script type="importmap">${JSON.stringify({
  imports: {
    'longship/client': '/node_modules/longship/dist/exports/client.js',
    comlink: '/node_modules/comlink/dist/esm/comlink.mjs',
  },
})}</script>`;

/** Opens Longship in the app's worker, counting what the page itself reads of its handles. */
const open = `
  const { openLongshipInWorker, filesFromDrop } = await import('longship/client');
  const onPage = { getFile: 0, values: 0 };
  const getFile = FileSystemFileHandle.prototype.getFile;
  FileSystemFileHandle.prototype.getFile = function () { onPage.getFile++; return getFile.call(this); };
  const values = FileSystemDirectoryHandle.prototype.values;
  FileSystemDirectoryHandle.prototype.values = function () { onPage.values++; return values.call(this); };
  const longship = await openLongshipInWorker({
    worker: '/browser-files/worker.js',
    store: { indexedDB: 'browser-files' },
    usearch: '/node_modules/longship/wasm/dist/usearch.wasm',
  });`;

describe('a page’s files through openLongshipInWorker, from the installed package', () => {
  const root = inject('consumerRoot');
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    const folder = join(root, 'browser-files');
    await mkdir(folder, { recursive: true });
    const worker = await build({
      stdin: { contents: workerSource, resolveDir: root, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      // Loaded only by a transformers.js embedder, which this worker does not make.
      external: ['node:*', '@huggingface/transformers'],
    });
    await writeFile(join(folder, 'worker.js'), worker.outputFiles[0]!.text);
    await writeFile(join(folder, 'index.html'), pageSource);
    server = await serveFiles(root);
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${server.origin}/browser-files/index.html`);
    await page.evaluate(`(async () => { ${open}; globalThis.app = { longship, filesFromDrop, onPage }; })()`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('adds a 200-file OPFS folder as its handle, re-adds it writing nothing, then only what changed', async () => {
    const answer = (await page.evaluate(`(async () => {
      const { longship, onPage } = globalThis.app;
      const opfs = await navigator.storage.getDirectory();
      const notes = await opfs.getDirectoryHandle('notes', { create: true });
      const put = async (folder, name, content) => {
        const writable = await (await folder.getFileHandle(name, { create: true })).createWritable();
        await writable.write(content);
        await writable.close();
      };
      const note = (i, topic) => '# Note ' + i + '\\n\\nThe word of this note is qx' + i + 'z. ' + topic + '\\n';
      const guide = await notes.getDirectoryHandle('guide', { create: true });
      for (let i = 0; i < 200; i++) {
        await put(i < 180 ? notes : guide, 'note-' + String(i).padStart(3, '0') + '.md', note(i, 'About rivers.'));
      }
      await put(notes, '.hidden.md', note(999, 'Hidden.'));
      await put(await notes.getDirectoryHandle('node_modules', { create: true }), 'dep.md', note(998, 'A dependency.'));
      await put(notes, 'image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2]));
      onPage.getFile = 0; onPage.values = 0;

      const phases = new Set();
      const first = await longship.addResource(notes, { onProgress: (p) => phases.add(p.phase) });
      const read = await longship.read('viking://resources/notes/guide/note-190.md');
      const found = await longship.find('qx42z', { limit: 1 });
      const again = await longship.addResource(notes);

      await put(notes, 'note-003.md', note(3, 'Now about deserts.'));
      await notes.removeEntry('note-007.md');
      const synced = await longship.addResource(notes);
      const changed = await longship.read('viking://resources/notes/note-003.md');
      let gone;
      try { await longship.stat('viking://resources/notes/note-007.md'); } catch (e) { gone = e.code; }
      const counts = (r) => ({ added: r.added, changed: r.changed, unchanged: r.unchanged, removed: r.removed });
      const walkedInWorker = { ...onPage };
      // The counters count: the page reading a file itself is seen.
      await (await notes.getFileHandle('note-000.md')).getFile();
      return {
        first: { ...counts(first), uris: first.uris.length, skipped: first.skipped.map((s) => [s.path, s.error.code]) },
        phases: [...phases], read, top: found.resources.map((r) => r.uri),
        again: counts(again), synced: counts(synced), changed, gone, walkedInWorker, onPage: { ...onPage },
      };
    })()`)) as Record<string, unknown>;

    expect(answer.first).toEqual({
      // 200 notes, and the two folders' directories.
      added: 202,
      changed: 0,
      unchanged: 0,
      removed: 0,
      uris: 200,
      skipped: [['notes/image.png', 'BINARY_INPUT']],
    });
    expect(answer.phases).toEqual(expect.arrayContaining(['read', 'plan', 'embed', 'write']));
    expect(answer.read).toContain('qx190z');
    expect(answer.top).toEqual(['viking://resources/notes/note-042.md']);
    expect(answer.again).toEqual({ added: 0, changed: 0, unchanged: 202, removed: 0 });
    // The changed note and its folder's directory, whose summary lists the notes.
    expect(answer.synced).toEqual({ added: 0, changed: 2, unchanged: 199, removed: 1 });
    expect(answer.changed).toContain('Now about deserts.');
    expect(answer.gone).toBe('NOT_FOUND');
    // The worker walked the folder and read its files: the page's handles were never asked.
    expect(answer.walkedInWorker).toEqual({ getFile: 0, values: 0 });
    expect(answer.onPage).toEqual({ getFile: 1, values: 0 });
    expect(errors).toEqual([]);
  }, 240_000);

  it('adds a FileList, an array of Files, and a drop’s files', async () => {
    const answer = (await page.evaluate(`(async () => {
      const { longship, filesFromDrop } = globalThis.app;
      const file = (path, text) => new File([text], path);
      const picked = new DataTransfer();
      picked.items.add(file('picked-a.md', '# Picked A\\n\\nFrom a file input.'));
      picked.items.add(file('picked-b.md', '# Picked B\\n\\nFrom a file input too.'));
      const list = await longship.addResource(picked.files, { target: 'viking://resources/picked' });
      const array = await longship.addResource(
        [file('one.md', '# One\\n\\nThe first.'), file('two.md', '# Two\\n\\nThe second.')],
        { target: 'viking://resources/array' },
      );

      const drop = new DataTransfer();
      drop.items.add(file('dropped.md', '# Dropped\\n\\nDragged onto the page.'));
      drop.items.add('just text', 'text/plain');
      let captured;
      const zone = document.createElement('div');
      zone.addEventListener('drop', (event) => { captured = filesFromDrop(event.dataTransfer); });
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: drop }));
      const dropped = await captured;
      const added = await longship.addResource(dropped, { target: 'viking://resources/dropped' });
      return {
        list: list.uris, array: array.uris, added: added.uris,
        droppedKinds: dropped.map((d) => d instanceof File ? 'File' : d.kind ?? typeof d),
        text: await longship.read('viking://resources/dropped/dropped.md'),
      };
    })()`)) as Record<string, unknown>;
    expect(answer.list).toEqual([
      'viking://resources/picked/picked-a.md',
      'viking://resources/picked/picked-b.md',
    ]);
    expect(answer.array).toEqual(['viking://resources/array/one.md', 'viking://resources/array/two.md']);
    expect(answer.added).toEqual(['viking://resources/dropped/dropped.md']);
    expect(answer.text).toBe('# Dropped\n\nDragged onto the page.');
    // A file made by the page has no place on disk: no handle, its File instead.
    expect(answer.droppedKinds).toEqual(['File']);
    expect(errors).toEqual([]);
  }, 120_000);
});

// openLongshipInWorker() in Chromium: a real module Worker (and SharedWorker), real IndexedDB, real Web
// Locks. An app built by Vite indexes with the bundled model, reloads and finds again; a page
// without a bundler runs the compiled files; two tabs write at once; a tab without a SharedWorker
// waits for the store and takes it over when the owner's tab closes.
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Rollup, build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerBundleOptions } from '../../tools/worker/bundle.js';
import {
  bundleForBrowser,
  launchChromium,
  onnxruntimeWebDist,
  type StaticServer,
  serveFiles,
} from './browser.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

let browser: Browser;
let server: StaticServer;
let pageBundleBytes: number;
/** The URL path of the Vite-built page's entry chunk. */
let viteEntry: string;
/** The in-memory files the server was asked for. */
const served = new Set<string>();

beforeAll(async () => {
  const [page, hashWorker, vite, compiled, workerBundle] = await Promise.all([
    bundleForBrowser(here('./longship-page.ts')),
    bundleForBrowser(here('./longship-hash-worker.ts')),
    buildWithVite(),
    compileWithoutBundling(),
    build({ ...workerBundleOptions, outdir: join(root, 'dist/worker'), write: false }),
  ]);
  pageBundleBytes = await mainThreadBytes();
  viteEntry = vite.entry;
  const files: Parameters<typeof serveFiles>[1] = {
    '/': { body: '<!doctype html><title>Longship</title>', type: 'text/html' },
    // A page without a bundler: an import map for the one package the client imports.
    '/plain.html': {
      body: `<!doctype html><title>Longship</title><script type="importmap">${JSON.stringify({
        imports: { comlink: '/node_modules/comlink/dist/esm/comlink.mjs' },
      })}</script>`,
      type: 'text/html',
    },
    '/bundle/page.js': { body: page },
    '/bundle/hash-worker.js': { body: hashWorker },
    ...vite.files,
    // The dist/ layout: tsc's files, with the worker script bundled (npm run build does the same).
    ...compiled,
    ...Object.fromEntries(
      workerBundle.outputFiles.map((file) => [`/dist/worker/${basename(file.path)}`, { body: file.text }]),
    ),
  };
  // Playwright does not see a SharedWorker's requests; the server does.
  server = await serveFiles(
    root,
    new Proxy(files, {
      get: (target, path) => {
        if (typeof path === 'string' && path in target) served.add(path);
        return Reflect.get(target, path);
      },
    }),
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The size of what a page that imports openLongshipInWorker from the package entry loads on its main thread. */
async function mainThreadBytes(): Promise<number> {
  const result = await build({
    stdin: {
      contents: "export { openLongshipInWorker } from './src/index.js';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    minify: true,
    external: ['node:*'],
  });
  return result.outputFiles[0]!.contents.byteLength;
}

/** The test page built by Vite, under /vite/: Vite finds openLongshipInWorker's worker and bundles it. */
async function buildWithVite(): Promise<{
  entry: string;
  files: Record<string, { body: string | Uint8Array }>;
}> {
  const output = (await viteBuild({
    configFile: false,
    root,
    base: '/vite/',
    publicDir: false,
    logLevel: 'error',
    build: { write: false, rollupOptions: { input: here('./longship-page.ts') }, modulePreload: false },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const files: Record<string, { body: string | Uint8Array }> = {};
  let entry = '';
  for (const item of [output].flat().flatMap((o) => o.output)) {
    files[`/vite/${item.fileName}`] = { body: item.type === 'chunk' ? item.code : item.source };
    if (item.type === 'chunk' && item.isEntry) entry = `/vite/${item.fileName}`;
  }
  return { entry, files };
}

/** What tsc -p tsconfig.build.json writes for the client's modules: each file on its own, types stripped. */
async function compileWithoutBundling(): Promise<Record<string, { body: string }>> {
  const sources = [
    'client/open-longship-in-worker',
    'worker/connect',
    'worker/remote-api',
    'worker/serve',
    'worker/wire',
    'worker/worker-options',
    'ingest/browser-files',
    'abort',
    'errors',
    'left-out',
  ];
  const result = await build({
    entryPoints: sources.map((file) => here(`../../src/${file}.ts`)),
    outbase: here('../../src'),
    outdir: '/dist',
    format: 'esm',
    target: 'es2022',
    write: false,
  });
  return Object.fromEntries(result.outputFiles.map((file) => [file.path, { body: file.text }]));
}

async function openPage(context: BrowserContext, script = '/bundle/page.js'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.origin}/`);
  // A string, not a function: vitest would rewrite a function's import() for Node.
  await page.evaluate(`import('${server.origin}${script}')`);
  return page;
}

const isLocal = (url: string) => url.startsWith(`${server.origin}/`) || url.startsWith('blob:');

// The model loads in each of the first two tests: seconds alone, a minute on a busy machine.
describe('openLongshipInWorker in Chromium', () => {
  it('keeps the main thread light: the page bundle holds the client, not the engine', () => {
    // The engine (transformers.js, USearch glue, the parsers) is megabytes; the client is comlink and a proxy.
    expect(pageBundleBytes).toBeLessThan(40_000);
  });

  it('indexes with the bundled model in the worker Vite bundled, reloads, and finds the same without re-indexing', async () => {
    const context = await browser.newContext();
    // Playwright sees (and routes) the page's requests; a SharedWorker's pass it by.
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    await context.route(
      (url) => !isLocal(url.href),
      (route) => route.abort(),
    );
    try {
      // Nothing but a name: Vite bundled the worker and emitted the .wasm, the model's files and
      // onnxruntime-web's beside it.
      const open = `
        const { openLongshipInWorker } = globalThis.longshipPage;
        const longship = await openLongshipInWorker({ store: { indexedDB: 'reload-test' } });`;
      const page = await openPage(context, viteEntry);
      const first = (await page.evaluate(`(async () => {
        ${open}
        const phases = [];
        const job = longship.addResource([
          { path: 'rivers.md', content: '# Rivers\\n\\nRivers flood in spring when the snow melts in the mountains.' },
          { path: 'deserts.md', content: '# Deserts\\n\\nDeserts get less than 250 mm of rain a year.' },
          { path: 'bread.md', content: '# Bread\\n\\nKnead the dough for ten minutes, then let it rise.' },
        ], { target: 'viking://resources/notes', onProgress: (p) => phases.push(p.phase) });
        const id = await job.id;
        const result = await job;
        await longship.waitProcessed();
        const found = await longship.find('When do rivers flood?', { limit: 3 });
        let missing;
        try { await longship.read('viking://resources/nowhere.md'); } catch (e) {
          missing = { isLongshipError: e instanceof globalThis.longshipPage.LongshipError, code: e.code, name: e.name };
        }
        return { id, added: result.added, phases, embedder: longship.embedder, missing,
          top: found.resources.map((r) => r.uri), shared: typeof SharedWorker !== 'undefined' };
      })()`)) as {
        id: number;
        added: number;
        phases: string[];
        embedder: { id: string; dimensions: number };
        missing: { isLongshipError: boolean; code: string; name: string };
        top: string[];
        shared: boolean;
      };
      expect(first.shared).toBe(true);
      expect(typeof first.id).toBe('number');
      expect(first.added).toBe(3);
      expect(first.phases).toContain('embed');
      expect(first.phases).toContain('write');
      expect(first.embedder).toEqual({ id: 'longship/use-lite', dimensions: 512 });
      expect(first.missing).toEqual({ isLongshipError: true, code: 'NOT_FOUND', name: 'LongshipError' });
      expect(first.top[0]).toBe('viking://resources/notes/rivers.md');

      await page.reload();
      await page.evaluate(`import('${server.origin}${viteEntry}')`);
      const again = (await page.evaluate(`(async () => {
        ${open}
        const found = await longship.find('When do rivers flood?', { limit: 3 });
        const listed = await longship.ls('viking://resources/notes');
        const { problems } = await longship.verify();
        await longship.close();
        return { top: found.resources.map((r) => r.uri), listed: listed.map((n) => n.name).sort(), problems };
      })()`)) as { top: string[]; listed: string[]; problems: unknown[] };
      expect(again.top).toEqual(first.top);
      expect(again.listed).toEqual(['bread.md', 'deserts.md', 'rivers.md']);
      expect(again.problems).toEqual([]);
      expect(requested.filter((url) => !isLocal(url))).toEqual([]);
      // The page asked for Vite's worker chunk, and the worker for the .wasm Vite emitted beside it.
      expect(requested.some((url) => /\/vite\/assets\/entry-[\w-]+\.js$/.test(url))).toBe(true);
      expect([...served].some((path) => /^\/vite\/assets\/usearch-[\w-]+\.wasm$/.test(path))).toBe(true);
      expect([...served].some((path) => /^\/vite\/assets\/model_quantized-[\w-]+\.onnx$/.test(path))).toBe(
        true,
      );
      expect(
        [...served].some((path) => /^\/vite\/assets\/ort-wasm-simd-threaded-[\w-]+\.wasm$/.test(path)),
      ).toBe(true);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('runs from the compiled files in a page without a bundler (an import map, the default worker URL), with its files named by URL objects', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/plain.html`);
      const answer = (await page.evaluate(`(async () => {
        const { openLongshipInWorker } = await import('/dist/client/open-longship-in-worker.js');
        // URL objects do not survive structured clone: they cross as absolute strings.
        const here = (path) => new URL(path, location.href);
        const longship = await openLongshipInWorker({
          store: { indexedDB: 'no-bundler' }, shared: false, usearch: here('/wasm/dist/usearch.wasm'),
          embedder: { transformers: {
            model: { id: 'longship/use-lite', dimensions: 512, directory: here('/model/use-lite/') },
            wasmPaths: here(${JSON.stringify(`/${onnxruntimeWebDist(root)}/`)}),
          } },
        });
        await longship.write('viking://resources/tea.md', 'Green tea steeps for two minutes at 80 degrees.');
        const found = await longship.find('how long does green tea steep', { limit: 1 });
        const embedder = longship.embedder;
        await longship.close();
        return { top: found.resources.map((r) => r.uri), embedder };
      })()`)) as { top: string[]; embedder: { id: string } };
      expect(answer.embedder.id).toBe('longship/use-lite');
      expect(answer.top).toEqual(['viking://resources/tea.md']);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('shares one store between two tabs writing at once (SharedWorker), nothing lost', async () => {
    const context = await browser.newContext();
    try {
      const [a, b] = await Promise.all([openPage(context), openPage(context)]);
      const write = (tab: string) => `(async () => {
        const longship = await globalThis.longshipPage.openLongshipInWorker({
          store: { indexedDB: 'two-tabs' }, worker: '/bundle/hash-worker.js', usearch: '/wasm/dist/usearch.wasm',
        });
        globalThis.longship = longship;
        await Promise.all([
          ...Array.from({ length: 15 }, (_, i) =>
            longship.write('viking://resources/${tab}/note-' + i + '.md', 'Note ' + i + ' from tab ${tab}.', { parents: true })),
          longship.addResource('# Batch\\n\\nA document queued by tab ${tab}.', { name: 'batch-${tab}.md' }),
        ]);
        return true;
      })()`;
      await Promise.all([a.evaluate(write('a')), b.evaluate(write('b'))]);
      const seen = async (page: Page) =>
        (await page.evaluate(`(async () => {
          const l = globalThis.longship;
          await l.waitProcessed();
          const files = await l.glob('**/*.md', { uri: 'viking://resources' });
          return { files: files.length, problems: (await l.verify()).problems };
        })()`)) as { files: number; problems: unknown[] };
      expect(await seen(a)).toEqual({ files: 32, problems: [] });
      expect(await seen(b)).toEqual({ files: 32, problems: [] });
      // Tab a leaves; tab b keeps the engine and its data.
      await a.evaluate('globalThis.longship.close()');
      expect(await seen(b)).toEqual({ files: 32, problems: [] });
    } finally {
      await context.close();
    }
  });

  it('without a SharedWorker, a second tab waits for the store and takes it over when the first closes', async () => {
    const context = await browser.newContext();
    try {
      const open = (tab: string) => `
        globalThis.events = [];
        globalThis.opening = globalThis.longshipPage.openLongshipInWorker({
          store: { indexedDB: 'handover' }, worker: '/bundle/hash-worker.js', usearch: '/wasm/dist/usearch.wasm', shared: false,
          onWait: () => globalThis.events.push('waiting'),
        }).then(async (longship) => {
          globalThis.events.push('open');
          globalThis.longship = longship;
          for (let i = 0; i < 10; i++) {
            await longship.write('viking://resources/${tab}/note-' + i + '.md', 'Note ' + i + ' from tab ${tab}.', { parents: true });
          }
          globalThis.events.push('written');
        });
        true`;
      const owner = await openPage(context);
      await owner.evaluate(open('owner'));
      await owner.waitForFunction('globalThis.events.includes("written")');

      const next = await openPage(context);
      await next.evaluate(open('next'));
      await next.waitForFunction('globalThis.events.includes("waiting")');
      // Queued behind the lock the first tab's worker holds (Web Locks shows both): it cannot open
      // while that is held, however long it waits, so no sleep has to stand for "a while".
      const queued = () =>
        next.evaluate(`navigator.locks.query().then(({ held, pending }) =>
          pending.some((request) => held.some((lock) => lock.name === request.name)))`);
      await expect.poll(queued, { timeout: 20_000 }).toBe(true);
      expect(await next.evaluate('globalThis.events')).toEqual(['waiting']);

      // Closing the tab ends its worker, which lets go of the lock: the next tab opens and writes.
      await owner.close();
      await next.waitForFunction('globalThis.events.includes("written")', undefined, { timeout: 20_000 });
      const files = await next.evaluate(`(async () => {
        const files = await globalThis.longship.glob('**/*.md', { uri: 'viking://resources' });
        return files.sort();
      })()`);
      expect(files).toHaveLength(20);
      expect(files).toContain('viking://resources/owner/note-9.md');
      expect(files).toContain('viking://resources/next/note-0.md');
    } finally {
      await context.close();
    }
  });

  it('rejects with WORKER_LOST when the worker script does not load', async () => {
    const context = await browser.newContext();
    try {
      const page = await openPage(context);
      const answer = await page.evaluate(`(async () => {
        const attempt = async (shared) => {
          try {
            await globalThis.longshipPage.openLongshipInWorker({ worker: '/missing/worker.js', shared });
            return 'opened';
          } catch (e) { return e.code + ' ' + (e instanceof globalThis.longshipPage.LongshipError); }
        };
        return [await attempt(false), await attempt(true)];
      })()`);
      expect(answer).toEqual(['WORKER_LOST true', 'WORKER_LOST true']);
    } finally {
      await context.close();
    }
  });

  it('rejects with the worker’s code and message when the model, the WASM or the store cannot load', async () => {
    const context = await browser.newContext();
    try {
      const page = await openPage(context);
      const config = {
        worker: '/dist/worker/entry.js',
        model: `${server.origin}/no-model/use-lite/`,
        wasmPaths: `${server.origin}/${onnxruntimeWebDist(root)}/`,
      };
      const answer = (await page.evaluate(`(async () => {
        const c = ${JSON.stringify(config)};
        const { openLongshipInWorker, bundledModel, LongshipError } = globalThis.longshipPage;
        const attempt = async (options) => {
          try {
            const longship = await openLongshipInWorker({ worker: c.worker, ...options });
            await longship.close();
            return 'opened';
          } catch (e) { return { longshipError: e instanceof LongshipError, code: e.code, message: e.message }; }
        };
        // A database at a version no Longship wrote yet.
        await new Promise((resolve, reject) => {
          const request = indexedDB.open('from-the-future', 10000);
          request.onsuccess = () => { request.result.close(); resolve(); };
          request.onerror = () => reject(request.error);
        });
        const transformers = { model: { ...bundledModel, directory: c.model }, wasmPaths: c.wasmPaths };
        return {
          model: await attempt({ shared: false, embedder: { transformers } }),
          modelShared: await attempt({ shared: true, embedder: { transformers } }),
          wasm: await attempt({ shared: false, usearch: '/missing/usearch.wasm' }),
          store: await attempt({ shared: false, store: { indexedDB: 'from-the-future' } }),
        };
      })()`)) as Record<string, { longshipError: boolean; code: string; message: string }>;
      for (const key of ['model', 'modelShared']) {
        expect(answer[key], key).toMatchObject({ longshipError: true, code: 'MODEL_LOAD' });
        expect(answer[key]!.message, key).toMatch(/longship\/use-lite from .*no-model/);
      }
      expect(answer.wasm).toMatchObject({ longshipError: true, code: 'WASM_LOAD' });
      expect(answer.wasm!.message).toMatch(/404/);
      expect(answer.store).toMatchObject({ longshipError: true, code: 'SCHEMA_MISMATCH' });
      expect(answer.store!.message).toMatch(/from-the-future/);
    } finally {
      await context.close();
    }
  });
});

// Issue 35's mixed folder in Chromium: the files cross to the worker as Blobs, the worker script
// (as `npm run build` bundles it) reads the PDFs and Office files with the readers it loads on
// demand, and the bundled model indexes them; the checks are test/ingest/mixed-folder.test.ts's.
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { workerBundleOptions } from '../../tools/worker/bundle.js';
import {
  type FolderOutcome,
  type MixedFolder,
  makeMixedFolder,
  mixedFolderProblems,
  type TableAnswer,
} from '../fixtures/documents/mixed-folder.js';
import { bundleForBrowser, launchChromium, type StaticServer, serveFiles } from './browser.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

let browser: Browser;
let server: StaticServer;
let folder: MixedFolder;
const requested: string[] = [];

beforeAll(async () => {
  const [page, workerBundle, mixed] = await Promise.all([
    bundleForBrowser(here('./longship-page.ts')),
    build({ ...workerBundleOptions, outdir: join(root, 'dist/worker'), write: false }),
    makeMixedFolder(),
  ]);
  folder = mixed;
  const files: Parameters<typeof serveFiles>[1] = {
    '/': { body: '<!doctype html><title>Longship</title>', type: 'text/html' },
    '/bundle/page.js': { body: page },
    ...Object.fromEntries(
      workerBundle.outputFiles.map((file) => [`/dist/worker/${basename(file.path)}`, { body: file.text }]),
    ),
    ...Object.fromEntries(folder.entries.map(({ path, content }) => [`/mixed/${path}`, { body: content }])),
  };
  // A worker's requests reach the server, not Playwright: the server lists them.
  server = await serveFiles(
    root,
    new Proxy(files, {
      get: (target, path) => {
        if (typeof path === 'string' && path.startsWith('/')) requested.push(path);
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

it('indexes the mixed folder in the worker: broken files skipped with their codes, every table found', async () => {
  const page = await browser.newPage();
  const offOrigin: string[] = [];
  page.context().on('request', (request) => {
    if (!request.url().startsWith(`${server.origin}/`)) offOrigin.push(request.url());
  });
  await page.goto(`${server.origin}/`);
  await page.evaluate(`import('${server.origin}/bundle/page.js')`);
  const paths = folder.entries.map((e) => e.path);
  const questions = folder.tables.map((t) => t.question);
  // A string, not a function: vitest would rewrite a function's import() for Node.
  const answer = (await page.evaluate(`(async () => {
    const { openLongshipInWorker } = globalThis.longshipPage;
    const longship = await openLongshipInWorker({
      worker: '/dist/worker/entry.js', shared: false, store: { indexedDB: 'mixed-folder' },
    });
    const entries = await Promise.all(${JSON.stringify(paths)}.map(async (path) =>
      ({ path, content: await (await fetch('/mixed/' + path)).blob() })));
    const result = await longship.addResource(entries, { name: 'drop' });
    const answers = [];
    for (const question of ${JSON.stringify(questions)}) {
      const { resources } = await longship.find(question, { limit: 3 });
      const top = [];
      for (const r of resources) {
        top.push({ uri: r.uri, text: r.isLeaf ? await longship.read(r.uri) : '', ...(r.pages ? { pages: r.pages } : {}) });
      }
      answers.push({ question, top });
    }
    await longship.close();
    return {
      uris: result.uris.length,
      outcome: {
        skipped: result.skipped.map((s) => ({ path: s.path, code: s.error.code })),
        ...(result.scannedPages ? { scannedPages: result.scannedPages } : {}),
      },
      answers,
    };
  })()`)) as { uris: number; outcome: FolderOutcome; answers: TableAnswer[] };
  await page.close();
  expect(answer.uris).toBe(folder.entries.length - folder.broken.length);
  expect(mixedFolderProblems(folder, 'drop', answer.outcome, answer.answers)).toEqual([]);
  // The readers came from the worker script's own chunks; nothing left the origin.
  expect(offOrigin).toEqual([]);
  const chunks = requested.filter((path) => path.startsWith('/dist/worker/chunk-'));
  expect(chunks.length).toBeGreaterThan(1);
}, 300_000);

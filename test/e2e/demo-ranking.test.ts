// Eight everyday questions asked through the demo page in its default mode (QUICK, the bundled model,
// the pre-indexed npm docs), each with the pages that answer it, judged by reading the corpus. The
// results list shows one entry per document (demo/src/results-view.ts), so a question is placed at
// the rank of the first document that answers it. Where each landed is printed and written to
// test/e2e/artifacts/demo-ranking.json.
//
// The aim is the right page first for 7 of 8 and in the top 3 for all 8. Today 5 are first and 6 in
// the top 3 (docs/guide/demo.md, "How well it ranks"): this test holds that floor, so that nothing
// makes it worse, until a change to how words and meaning are blended, measured on documents it was
// not tuned on, raises it.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifacts,
  demoUrl,
  keepLocal,
  launchThroughProxy,
  type RecordingProxy,
  searchFor,
  startRecordingProxy,
  waitReady,
} from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';

const docs = 'viking://resources/npm-docs';

/** Each question and the pages that answer it (paths below the corpus's folder). */
const questions: { query: string; answers: string[] }[] = [
  // npm-publish says how to publish; scope.md has "Publishing scoped packages".
  { query: 'how do I publish a scoped package', answers: ['commands/npm-publish.md', 'using-npm/scope.md'] },
  { query: 'what does npm ci do differently from install', answers: ['commands/npm-ci.md'] },
  // scope.md's "Associating a scope with a registry"; npmrc.md shows `@scope:registry` in .npmrc.
  { query: 'set a registry per scope', answers: ['using-npm/scope.md', 'configuring-npm/npmrc.md'] },
  { query: 'remove a package I installed', answers: ['commands/npm-uninstall.md'] },
  { query: 'audit fix vulnerabilities', answers: ['commands/npm-audit.md'] },
  // workspaces.md's "Running commands in the context of workspaces"; npm-run.md (run-script) has
  // its workspaces support.
  { query: 'run a script in every workspace', answers: ['using-npm/workspaces.md', 'commands/npm-run.md'] },
  { query: 'what is package-lock.json for', answers: ['configuring-npm/package-lock-json.md'] },
  // npm-exec.md has a section "npx vs npm exec"; npx.md is the same page for the npx binary.
  { query: 'npx vs npm exec', answers: ['commands/npm-exec.md', 'commands/npx.md'] },
];

let server: DemoServer;
let browser: Browser;
let proxy: RecordingProxy;

beforeAll(async () => {
  server = await serveBuiltDemo();
  proxy = await startRecordingProxy();
  browser = await launchThroughProxy(proxy);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await proxy?.close();
});

/** The documents the page lists among its resources, in order, as paths below the corpus's folder. */
async function shownDocuments(page: Page, query: string): Promise<string[]> {
  await searchFor(page, query);
  const uris = await page.$$eval('#results [data-group="resources"] .document', (entries) =>
    entries.map((entry) => (entry as HTMLElement).dataset.doc ?? ''),
  );
  return uris.map((uri) => (uri.startsWith(`${docs}/`) ? uri.slice(docs.length + 1) : uri));
}

describe('the demo ranks everyday questions', () => {
  it('puts the right page first for at least 5 of 8 questions, and in the top 3 for 6', async () => {
    const context = await browser.newContext();
    await keepLocal(context);
    try {
      const page = await context.newPage();
      await page.goto(demoUrl(server.origin));
      await waitReady(page, 240_000);
      // The default mode, as a visitor finds it.
      expect(
        await page.$eval('input[name="mode"]:checked', (input) => (input as HTMLInputElement).value),
      ).toBe('quick');
      const placed = [];
      for (const { query, answers } of questions) {
        const shown = await shownDocuments(page, query);
        const at = shown.findIndex((doc) => answers.includes(doc));
        placed.push({ query, rank: at === -1 ? null : at + 1, answers, shown: shown.slice(0, 5) });
      }
      mkdirSync(artifacts, { recursive: true });
      writeFileSync(new URL('demo-ranking.json', artifacts), `${JSON.stringify(placed, null, 2)}\n`);
      console.log(
        placed
          .map((p) => `${String(p.rank ?? '-').padStart(2)}  ${p.query}  [${p.shown.join(', ')}]`)
          .join('\n'),
      );
      const first = placed.filter((p) => p.rank === 1).length;
      const top3 = placed.filter((p) => p.rank !== null && p.rank <= 3).map((p) => p.query);
      expect(first).toBeGreaterThanOrEqual(5);
      expect(top3.length).toBeGreaterThanOrEqual(6);
    } finally {
      await context.close();
    }
  }, 600_000);
});

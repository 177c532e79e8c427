// Two tabs of the demo index a folder each at the same moment, into the one store of their origin
// (one SharedWorker serves both). Nothing is lost: both tabs see both folders, a new tab does too,
// and the store passes verify().
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyReport } from '../../src/store/store.js';
import { launchChromium } from '../targets/browser.js';
import { demoUrl, keepLocal, searchFor, waitReady } from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';

/**
 * Notes per folder. The first tab's folder is the larger, so that its job is still running when
 * Playwright has set the second tab's files, however fast the machine indexes.
 */
const notes = { alpha: 240, beta: 60 } as const;
let server: DemoServer;
let browser: Browser;
let folders: string;

/** `<name>/<topic>/note-NN.md`, each with a word no other note has (`<name>word<NN>`). */
async function writeNotes(name: keyof typeof notes): Promise<string> {
  const root = join(folders, name);
  for (let i = 0; i < notes[name]; i++) {
    const dir = join(root, `topic-${i % 4}`);
    await mkdir(dir, { recursive: true });
    const n = String(i).padStart(2, '0');
    await writeFile(
      join(dir, `note-${n}.md`),
      `# ${name} note ${n}\n\nThis note of the ${name} folder carries the word ${name}word${n}. ` +
        `It talks about topic ${i % 4} and about keeping writes from two tabs apart.\n`,
    );
  }
  return root;
}

beforeAll(async () => {
  folders = await mkdtemp(join(tmpdir(), 'longship-tabs-'));
  server = await serveBuiltDemo();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (folders) await rm(folders, { recursive: true, force: true });
});

const count = (page: Page, name: string) =>
  page
    .evaluate(`longship.glob('**/*.md', { uri: 'viking://resources/${name}' })`)
    .then((uris) => (uris as string[]).length);

describe('two tabs', () => {
  it('index a folder each at the same time and lose nothing', async () => {
    const [alpha, beta] = await Promise.all([writeNotes('alpha'), writeNotes('beta')]);
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const network = await keepLocal(context);
    try {
      const url = demoUrl(server.origin, { embedder: 'words', corpus: 'none', db: 'two-tabs' });
      const [first, second] = [await context.newPage(), await context.newPage()];
      await Promise.all([first.goto(url), second.goto(url)]);
      await Promise.all([waitReady(first), waitReady(second)]);

      // Playwright sets one page's files at a time (the page in front); the first job is long
      // enough to be still running when the second starts.
      await first.bringToFront();
      await first.setInputFiles('#folder-input', alpha);
      await second.bringToFront();
      await second.setInputFiles('#folder-input', beta);
      const states = await Promise.all(
        [first, second].map((page) => page.evaluate(() => document.body.dataset.state)),
      );
      expect(states).toEqual(['indexing', 'indexing']);
      const finished = (page: Page, n: number) =>
        page.waitForFunction(
          (n) =>
            document.body.dataset.state === 'ready' &&
            Number(document.body.dataset.total) === n &&
            /done/.test(document.getElementById('status-text')?.textContent ?? ''),
          n,
          { timeout: 180_000, polling: 100 },
        );
      await Promise.all([finished(first, notes.alpha), finished(second, notes.beta)]);

      for (const page of [first, second]) {
        expect(await count(page, 'alpha')).toBe(notes.alpha);
        expect(await count(page, 'beta')).toBe(notes.beta);
      }
      // Each tab finds what the other wrote.
      expect((await searchFor(first, 'betaword07'))[0]?.uri).toMatch(/beta\/topic-3\/note-07\.md$/);
      expect((await searchFor(second, 'alphaword12'))[0]?.uri).toMatch(/alpha\/topic-0\/note-12\.md$/);

      // One tab closes; the other keeps working, and a new tab sees everything from IndexedDB.
      await first.close();
      expect((await searchFor(second, 'alphaword33'))[0]?.uri).toMatch(/alpha\/topic-1\/note-33\.md$/);
      await second.close();
      const third = await context.newPage();
      await third.goto(url);
      await waitReady(third);
      expect(await count(third, 'alpha')).toBe(notes.alpha);
      expect(await count(third, 'beta')).toBe(notes.beta);
      const report = (await third.evaluate('longship.verify()')) as VerifyReport;
      expect(report.problems).toEqual([]);
      expect(network.blocked).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);
});

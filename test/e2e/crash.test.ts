// Crash safety: Chromium is SIGKILLed at random points while the demo indexes a folder, 20 times
// on one profile, the store in a SharedWorker in some rounds and a dedicated Worker in others. After every restart the store must pass verify(), answer a search, and still hold
// every page it held when the browser was killed, each page's text as in its file; at the end one
// more run finishes the folder and every page is there. The hashed-words embedder keeps each round
// short: what is under test is the store, not the model.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../bench/lib/random.js';
import type { VerifyReport } from '../../src/store/store.js';
import { demoUrl, waitReady } from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';
import { startChromium } from './own-chromium.js';

const corpus = fileURLToPath(new URL('../../demo/corpus/npm-docs/content', import.meta.url));
const pages = 91;
const rounds = 20;
const seed = Number(process.env.LONGSHIP_CRASH_SEED ?? Date.now() % 1_000_000);

let server: DemoServer;
let profile: string;

beforeAll(async () => {
  server = await serveBuiltDemo();
  profile = await mkdtemp(join(tmpdir(), 'longship-crash-'));
});

afterAll(async () => {
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** The pages of the corpus by URI under `viking://resources/content`, with their text. */
async function corpusPages(): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const entry of await readdir(corpus, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    texts.set(`viking://resources/content/${relative(corpus, path)}`, await readFile(path, 'utf8'));
  }
  return texts;
}

interface StoredPage {
  uri: string;
  /** A page stored whole as one file: its L2 text. A page split into sections is a directory. */
  text?: string;
  /** The sections of a split page. */
  sections?: number;
}

/** The pages stored under viking://resources/content, as the page's Longship reads them back. */
function storedPages(page: Page): Promise<StoredPage[]> {
  return page.evaluate(async () => {
    type Node = { uri: string; kind: string };
    const api = (
      window as unknown as {
        longship: { ls(uri: string): Promise<Node[]>; read(uri: string): Promise<string> };
      }
    ).longship;
    const top = await api.ls('viking://resources');
    if (!top.some((node) => node.uri === 'viking://resources/content')) return [];
    const found: StoredPage[] = [];
    for (const folder of await api.ls('viking://resources/content')) {
      if (folder.kind !== 'dir') continue;
      for (const node of await api.ls(folder.uri)) {
        found.push(
          node.kind === 'dir'
            ? { uri: node.uri, sections: (await api.ls(node.uri)).length }
            : { uri: node.uri, text: await api.read(node.uri) },
        );
      }
    }
    return found;
  });
}

/** What is wrong with the stored pages: unknown, empty or altered pages, and committed ones missing. */
function pageProblems(found: StoredPage[], expected: Map<string, string>, committed: string[]): string[] {
  const problems: string[] = [];
  for (const { uri, text, sections } of found) {
    const source = expected.get(uri);
    if (source === undefined) problems.push(`${uri}: not a page of the corpus`);
    else if (text !== undefined && text !== source) problems.push(`${uri}: its text differs from the file`);
    else if (text === undefined && !sections) problems.push(`${uri}: a split page without sections`);
  }
  const uris = new Set(found.map((p) => p.uri));
  for (const uri of committed)
    if (!uris.has(uri)) problems.push(`${uri}: committed before the kill, now missing`);
  return problems;
}

describe('crash safety', () => {
  it(`survives ${rounds} SIGKILLs of Chromium during ingestion (seed ${seed})`, async () => {
    const random = new Random(seed);
    const expected = await corpusPages();
    expect(expected.size).toBe(pages);
    // Rounds 4–7, 12–15 and 20 run the store in a dedicated Worker, which writes its snapshots' OPFS
    // files through sync access handles, the others in the SharedWorker, which writes them through
    // writable streams and reads them as Files: each kind of kill hits both, and each reopens what the
    // other left.
    const urlOf = (round: number) =>
      demoUrl(server.origin, {
        embedder: 'words',
        corpus: 'none',
        db: 'crash',
        worker: round % 8 >= 4 || round === rounds ? 'dedicated' : 'shared',
      });
    const log: string[] = [];
    /** The pages the store held just before the last kill: committed, so they must survive it. */
    let committed: string[] = [];
    let killedIndexing = 0;
    // How long the last whole job took (rounds 3, 7, 11…): the rounds that kill a random time after
    // a job starts aim within it, so that faster ingestion does not move their kills past its end.
    let jobMs = 2000;
    for (let round = 0; round <= rounds; round++) {
      const chromium = await startChromium(profile);
      try {
        const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
        await page.goto(urlOf(round));
        await waitReady(page, 120_000);
        const found = await storedPages(page);
        if (round > 0) {
          const report = (await page.evaluate('longship.verify()')) as VerifyReport;
          expect(report.problems, `after kill ${round} (seed ${seed})`).toEqual([]);
          expect(report.ok).toBe(true);
          expect(pageProblems(found, expected, committed), `after kill ${round} (seed ${seed})`).toEqual([]);
          const hits = (await page.evaluate(
            `longship.find('install a package from the registry', { limit: 5 })`,
          )) as { total: number };
          if (found.length > 0) expect(hits.total).toBeGreaterThan(0);
        }
        if (round === rounds) {
          // Last run: finish the folder; every page is there and the store is still sound. A store
          // already whole starts over, so that every index changes and close() writes its snapshots.
          if (found.length === pages) {
            await page.evaluate(`longship.rm('viking://resources/content', { recursive: true })`);
          }
          await page.setInputFiles('#folder-input', corpus);
          await page.waitForFunction(() => document.body.dataset.state === 'indexing', undefined, {
            timeout: 30_000,
          });
          await waitReady(page, 240_000);
          const all = await storedPages(page);
          expect(all).toHaveLength(pages);
          expect(pageProblems(all, expected, [...expected.keys()])).toEqual([]);
          expect(((await page.evaluate('longship.verify()')) as VerifyReport).problems).toEqual([]);
          const hits = (await page.evaluate(`longship.find('npm publish scoped package', { limit: 5 })`)) as {
            resources: { uri: string }[];
          };
          expect(hits.resources.some((hit) => hit.uri.includes('npm-publish'))).toBe(true);
          // This last round's dedicated Worker writes its snapshots to OPFS files on close.
          await page.evaluate('longship.close()');
          const files = await page.evaluate(async () => {
            const root = await navigator.storage.getDirectory();
            const dir = await root.getDirectoryHandle('longship-snapshots.crash');
            const names: string[] = [];
            for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
              names.push(name);
            return names;
          });
          expect(files.map((file) => file.slice(0, file.indexOf('.')))).toEqual(
            expect.arrayContaining(['hnsw', 'bm25', 'nodes']),
          );
          await chromium.close();
          break;
        }
        // Start the folder, then kill at a random point: in even rounds once a random number of the
        // documents still missing are done, in rounds 3, 7, 11… a random 0–4 s after the job finished
        // (while the index snapshots, written 2 s after a change, and the change-log pruning run),
        // in the other odd rounds a random time after it started, within the last whole job's length.
        // Once everything is stored, adding the folder again changes nothing: start over, so that
        // every round has a job to kill (a fast machine indexes all the pages within a few rounds).
        let start = `found ${found.length}`;
        if (found.length === pages) {
          await page.evaluate(`longship.rm('viking://resources/content', { recursive: true })`);
          expect(await storedPages(page)).toEqual([]);
          start += ', removed them all';
        }
        const before = found.length === pages ? 0 : found.length;
        const kind = round % 4 === 3 ? 'after' : round % 2 === 0 ? 'count' : 'time';
        // Aimed within the first 80 % of the pages still missing: the last few finish in the same
        // commits as the refresh that ends the job, so a kill aimed there lands after it.
        const at = before + random.below(Math.max(1, Math.floor((pages - before) * 0.8)));
        const afterMs = random.below(kind === 'after' ? 4000 : jobMs);
        const jobStarted = performance.now();
        await page.setInputFiles('#folder-input', corpus);
        await page.waitForFunction(() => document.body.dataset.state === 'indexing', undefined, {
          timeout: 30_000,
          polling: 20,
        });
        if (kind !== 'time') {
          await page.waitForFunction(
            (n) => document.body.dataset.state !== 'indexing' || Number(document.body.dataset.done ?? 0) >= n,
            kind === 'count' ? at : pages + 1,
            { timeout: 120_000, polling: 20 },
          );
          if (kind === 'after') jobMs = performance.now() - jobStarted;
        }
        if (kind !== 'count') await new Promise((done) => setTimeout(done, afterMs));
        const stillIndexing = (await page.evaluate(() => document.body.dataset.state)) === 'indexing';
        // Read back just before the kill: every page read here was committed, and must survive it.
        committed = (await storedPages(page)).map((p) => p.uri);
        // A job the page saw finish has every page in.
        if (!stillIndexing) expect(committed).toHaveLength(pages);
        await chromium.kill();
        log.push(
          `round ${round} (${new URL(urlOf(round)).searchParams.get('worker')} worker): ${start}; killed ${stillIndexing ? 'while indexing' : 'after the job'} with ${committed.length} stored (aimed at ${kind === 'count' ? `${at} done` : `${afterMs} ms after the job ${kind === 'after' ? 'ended' : 'started'}`})`,
        );
        if (stillIndexing) killedIndexing++;
        if (kind === 'after') expect(stillIndexing).toBe(false);
      } catch (error) {
        const page = chromium.context.pages()[0];
        const seen = page
          ? await page
              .evaluate(async () => {
                const api = (
                  window as unknown as { longship?: { ls(uri: string): Promise<{ uri: string }[]> } }
                ).longship;
                const top = api
                  ? (await api.ls('viking://resources')).map((node) => node.uri)
                  : 'no longship';
                return `status: ${document.getElementById('status')?.textContent?.replace(/\s+/g, ' ')}; resources: ${JSON.stringify(top)}`;
              })
              .catch((reason: unknown) => `page unreadable: ${String(reason)}`)
          : 'no page';
        log.push(`round ${round} failed; the page said ${seen}`);
        await chromium.kill().catch(() => undefined);
        throw new Error(`round ${round} (seed ${seed}): ${String(error)}\n${log.join('\n')}`, {
          cause: error,
        });
      }
    }
    console.log(`crash rounds (seed ${seed}):\n${log.join('\n')}`);
    expect(log).toHaveLength(rounds);
    // Most kills land in the middle of the job (a kill after the last document is rare, and fine).
    expect(killedIndexing, log.join('\n')).toBeGreaterThanOrEqual(rounds / 2);
  }, 900_000);
});

// Indexing happens in the Worker: while the demo indexes a folder of 500 documents, the page's main
// thread runs no task over 50 ms (PerformanceObserver 'longtask'). The documents are sections of
// the npm documentation, one file each (## to #### headings). The hashed-words embedder keeps the run short; the model
// would only keep the worker busier, not the main thread.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../targets/browser.js';
import { demoUrl, screenshot, searchFor, waitReady } from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';

const corpus = fileURLToPath(new URL('../../demo/corpus/npm-docs/content', import.meta.url));
const documents = 500;

let server: DemoServer;
let browser: Browser;
let folder: string;

/** 500 Markdown files: the corpus's sections (## to #### headings), one a file, in a folder per page. */
async function writeSections(into: string): Promise<number> {
  let written = 0;
  for (const part of (await readdir(corpus)).sort()) {
    for (const name of (await readdir(join(corpus, part))).sort()) {
      const text = await readFile(join(corpus, part, name), 'utf8');
      const sections = text.split(/^(?=#{2,4} )/m).filter((section) => section.trim().length > 80);
      const dir = join(into, part, name.replace(/\.md$/, ''));
      await mkdir(dir, { recursive: true });
      for (const [i, section] of sections.entries()) {
        if (written === documents) return written;
        await writeFile(join(dir, `${String(i).padStart(2, '0')}.md`), section);
        written++;
      }
    }
  }
  return written;
}

beforeAll(async () => {
  folder = join(await mkdtemp(join(tmpdir(), 'longship-sections-')), 'sections');
  expect(await writeSections(folder)).toBe(documents);
  server = await serveBuiltDemo();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (folder) await rm(join(folder, '..'), { recursive: true, force: true });
});

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { type?: string } };
}

/**
 * The page's main thread in a Chromium trace: found by the user-timing mark the page made at
 * `markAt` (ms on the page's clock), which also maps that clock onto the trace's (µs).
 */
function mainThread(events: TraceEvent[], markAt: number) {
  const mark = events.find((event) => event.name === 'longship-change');
  if (!mark) throw new Error('the trace has no longship-change mark');
  const offsetUs = mark.ts - markAt * 1000;
  const runs = events.filter(
    (event) =>
      event.name === 'RunTask' && event.ph === 'X' && event.pid === mark.pid && event.tid === mark.tid,
  );
  if (!runs.some((run) => run.tdur !== undefined)) throw new Error('the trace has no thread times');
  const toPage = (run: TraceEvent) => ({
    start: (run.ts - offsetUs) / 1000,
    wallMs: (run.dur ?? 0) / 1000,
    cpuMs: (run.tdur ?? Number.POSITIVE_INFINITY) / 1000,
  });
  return {
    /** CPU ms of the main-thread task running at `at` (page ms), or NaN if none was traced. */
    cpuMsAt(at: number): number {
      const us = at * 1000 + offsetUs;
      const run = runs.find((r) => r.ts - 2000 <= us && us <= r.ts + (r.dur ?? 0));
      return run ? toPage(run).cpuMs : Number.NaN;
    },
    /** CPU ms of the dispatch of the page's first `type` event after the mark: its handlers' work. */
    dispatchCpuMs(type: string): number {
      const dispatch = events.find(
        (event) =>
          event.name === 'EventDispatch' &&
          event.args?.data?.type === type &&
          event.tid === mark.tid &&
          event.ts + (event.dur ?? 0) >= mark.ts,
      );
      return dispatch?.tdur === undefined ? Number.NaN : dispatch.tdur / 1000;
    },
    /** Tasks that used more than `ms` of CPU between `from` and `to` (page ms). */
    tasksOver(ms: number, from: number, to: number) {
      return runs.map(toPage).filter((run) => run.start > from && run.start <= to && run.cpuMs > ms);
    },
  };
}

describe('the main thread while the worker indexes', () => {
  it(`runs no task over 50 ms while ${documents} documents index`, async () => {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    try {
      await page.addInitScript(() => {
        const tasks: { start: number; duration: number }[] = [];
        const marks: Record<string, number> = {};
        Object.assign(window, { longTasks: tasks, marks });
        window.addEventListener(
          'change',
          () => {
            marks.change = performance.now();
            performance.mark('longship-change');
          },
          true,
        );

        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            tasks.push({ start: entry.startTime, duration: entry.duration });
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(demoUrl(server.origin, { embedder: 'words', corpus: 'none', db: 'main-thread' }));
      await waitReady(page);
      const started = (await page.evaluate('performance.now()')) as number;
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
      });
      await page.setInputFiles('#folder-input', folder);
      await page.waitForFunction(() => document.body.dataset.state === 'indexing', undefined, {
        timeout: 30_000,
      });
      await page.waitForFunction(() => Number(document.body.dataset.done) >= 250, undefined, {
        timeout: 300_000,
      });
      await screenshot(page, 'demo-4-indexing-folder');
      await waitReady(page, 600_000);
      const ended = (await page.evaluate('performance.now()')) as number;
      const tasks = (await page.evaluate('longTasks.slice()')) as { start: number; duration: number }[];
      // Both probes do see a long task here: a deliberate one, a fixed amount of work (~0.2 s of CPU),
      // so that it is long in thread time too, however busy the machine.
      await page.evaluate(() => {
        setTimeout(() => {
          let x = 1;
          for (let i = 0; i < 300_000_000; i++) x = (x * 31 + i) | 0;
          (window as unknown as { sink: number }).sink = x;
        }, 0);
      });
      await page.waitForFunction(
        (after) =>
          (window as unknown as { longTasks: { start: number }[] }).longTasks.some((t) => t.start > after),
        ended,
        { timeout: 10_000 },
      );
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };

      // Indexed for real: every document is stored, and the folder is searchable.
      expect(Number(await page.evaluate(() => document.body.dataset.total))).toBe(documents);
      expect(Number(await page.evaluate(() => document.body.dataset.done))).toBe(documents);
      const stored = (await page.evaluate(
        `longship.glob('**/*.md', { uri: 'viking://resources/sections' })`,
      )) as string[];
      expect(stored.length).toBe(documents);
      expect((await searchFor(page, 'npm publish access public')).length).toBeGreaterThan(0);
      // Measured from the input's change event on. The task that dispatches it starts earlier: in it
      // Chromium builds the input's FileList of 500 files (0.5–0.8 s here), which is the browser
      // handing the folder over, not the indexing; the page's own handler is the change event's dispatch, timed apart.
      const marks = (await page.evaluate('marks')) as { change: number };
      expect(marks.change).toBeGreaterThan(started);
      // A long task is wall time: on a machine shared with other work, a task of a few ms of CPU can
      // last 50 ms when the thread waits for a core. The trace's thread time (tdur) tells them apart:
      // the handler, each long task and every main-thread task must have run under 50 ms of CPU.
      const main = mainThread(trace.traceEvents, marks.change);
      expect(main.dispatchCpuMs('change')).toBeLessThan(50);
      const during = tasks.filter((task) => task.start > marks.change && task.start <= ended);
      const explained = during.map((task) => ({ ...task, cpuMs: main.cpuMsAt(task.start) }));
      expect(explained.filter((task) => !(task.cpuMs < 50))).toEqual([]);
      expect(main.tasksOver(50, marks.change, ended)).toEqual([]);
      expect(main.tasksOver(50, ended, Number.POSITIVE_INFINITY)).toHaveLength(1);
      if (during.length > 0) console.log(`long tasks from waiting for a core: ${JSON.stringify(explained)}`);
    } finally {
      await page.close();
    }
  }, 900_000);
});

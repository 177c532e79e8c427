// The demo's agent panel, driven by keyboard in Chromium with the hashed-words embedder: two messages
// each get a context() block with its citations within the budget, a smaller budget shrinks the
// block, a commit lists the memory nodes it wrote (no LLM: the archived conversation), a later turn
// cites them and leaves out what the session was already given; axe-core finds nothing serious in
// the panel at 1440 and 390 px, and the page does not scroll sideways.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../targets/browser.js';
import { artifacts, demoUrl, keepLocal, seriousViolations, waitReady } from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';

let server: DemoServer;
let browser: Browser;

beforeAll(async () => {
  server = await serveBuiltDemo();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface ShownContext {
  tokens: number;
  budget: number;
  preview: boolean;
  parts: { uri: string; type: string }[];
  leftOut: { uri: string; reason: string }[];
  block: string;
}

/** The context the turn `index` (0-based) shows now. */
function shownContext(page: Page, index: number): Promise<ShownContext> {
  return page.$$eval(
    '#agent .agent-turn',
    (turns, i) => {
      const context = turns[i]!.querySelector<HTMLElement>('.agent-context')!;
      return {
        tokens: Number(context.dataset.tokens),
        budget: Number(context.dataset.budget),
        preview: context.classList.contains('agent-preview'),
        parts: [...context.querySelectorAll<HTMLElement>('.agent-part')].map((part) => ({
          uri: part.dataset.uri ?? '',
          type: part.dataset.type ?? '',
        })),
        leftOut: [...context.querySelectorAll<HTMLElement>('.agent-left')].map((entry) => ({
          uri: entry.dataset.uri ?? '',
          reason: entry.dataset.reason ?? '',
        })),
        block: context.querySelector('.agent-block')?.textContent ?? '',
      };
    },
    index,
  );
}

/** Types a message into the panel and sends it with Enter; resolves once its turn is shown. */
async function send(page: Page, message: string): Promise<ShownContext> {
  const before = await page.locator('#agent .agent-turn').count();
  await page.focus('#agent-message');
  await page.keyboard.type(message);
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    (n) => document.querySelectorAll('#agent .agent-turn').length === n,
    before + 1,
    {
      timeout: 60_000,
    },
  );
  return shownContext(page, before);
}

/** Every part is cited in the block by its URI, and the block is within its budget. */
function expectCited(context: ShownContext) {
  expect(context.tokens).toBeGreaterThan(0);
  expect(context.tokens).toBeLessThanOrEqual(context.budget);
  expect(context.parts.length).toBeGreaterThan(0);
  for (const part of context.parts) expect(context.block).toContain(`<${part.type} uri="${part.uri}"`);
}

async function checkBothWidths(page: Page, screen: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await seriousViolations(page, '#agent'), `${screen} at 1440 px`).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await seriousViolations(page, '#agent'), `${screen} at 390 px`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), screen).toBeLessThanOrEqual(390);
  mkdirSync(artifacts, { recursive: true });
  await page
    .locator('#agent')
    .screenshot({ path: new URL(`demo-agent-${screen}-390.png`, artifacts).pathname });
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('the demo, from an agent’s side', () => {
  it('shows each turn’s context, shrinks it with the budget, commits and cites the archive', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const network = await keepLocal(context);
    try {
      const page = await context.newPage();
      await page.goto(demoUrl(server.origin, { embedder: 'words' }));
      await waitReady(page);
      await page.waitForSelector('#agent:not([hidden]) #agent-message');
      await checkBothWidths(page, 'empty');

      await page.selectOption('#agent-budget', '4000');
      const first = await send(page, 'How do I publish a scoped package?');
      expectCited(first);
      expect(first.budget).toBe(4000);
      const second = await send(page, 'How do I deprecate an old version of my package?');
      expectCited(second);
      // Said in words too, for a screen reader.
      expect(await page.textContent('#agent [role=status]')).toBe(
        `Turn 2: ${second.parts.length} parts, ${second.tokens} of 4000 tokens, ${second.leftOut.length} left out.`,
      );
      await checkBothWidths(page, 'turns');

      // A smaller budget: the last message's block again, within it and smaller.
      expect(second.tokens).toBeGreaterThan(800);
      await page.selectOption('#agent-budget', '800');
      await page.waitForSelector('#agent .agent-turn:nth-child(2) .agent-preview');
      const smaller = await shownContext(page, 1);
      expect(smaller.preview).toBe(true);
      expect(smaller.budget).toBe(800);
      expect(smaller.tokens).toBeLessThanOrEqual(800);
      expect(smaller.tokens).toBeLessThan(second.tokens);

      // Commit by keyboard: the archive's nodes are listed, memory nodes of this session.
      await page.focus('#agent-commit');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#agent .agent-committed', { timeout: 60_000 });
      const archive = (await page.getAttribute('#agent .agent-committed', 'data-archive'))!;
      expect(archive).toMatch(/^viking:\/\/user\/default\/sessions\/demo-[a-z0-9]+\/0001$/);
      const memories = await page.$$eval('#agent .agent-memory', (all) =>
        all.map((m) => (m as HTMLElement).dataset.uri ?? ''),
      );
      // The archive's directory and one file per message.
      expect(memories).toEqual([archive, `${archive}/0001-user`, `${archive}/0002-user`]);
      expect(await page.textContent('#agent .agent-committed')).toContain('No memories were extracted');
      await checkBothWidths(page, 'committed');

      // A later turn: the archived message is cited as a memory; what the session was given stays out.
      const third = await send(page, 'How do I publish a scoped package?');
      expectCited(third);
      expect(third.budget).toBe(800);
      expect(third.parts).toContainEqual({ uri: `${archive}/0001-user`, type: 'memory' });
      const givenFirst = new Set(first.parts.map((part) => part.uri));
      const delivered = third.leftOut.filter((entry) => entry.reason === 'delivered').map((e) => e.uri);
      expect(delivered.length).toBeGreaterThan(0);
      for (const uri of delivered)
        expect(givenFirst.has(uri) || second.parts.some((p) => p.uri === uri)).toBe(true);

      expect(network.blocked).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);
});

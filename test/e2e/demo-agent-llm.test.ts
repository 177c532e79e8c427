// The demo's agent panel with an LLM endpoint the visitor sets in its form: a local server speaking
// the OpenAI chat-completions protocol. The setting is kept in sessionStorage (never localStorage),
// the page reopens with it, each turn's queries are planned by the endpoint, a commit shows the
// memories the endpoint extracted, and a later turn cites them; "Stop using it" goes back offline.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatReply,
  type OpenAiServer,
  promptData,
  type RecordedRequest,
  type Reply,
  startOpenAiServer,
} from '../support/openai-server.js';
import { launchChromium } from '../targets/browser.js';
import { artifacts, demoUrl, keepLocal, seriousViolations, waitReady } from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';

const KEY = 'sk-demo-test-0123456789';
const MEMORY = 'viking://user/default/memories/preferences/acme-packages';

let server: DemoServer;
let llm: OpenAiServer;
let browser: Browser;

/** What a model would answer each of Longship's prompts with, as a page on another origin may read it. */
function answer(request: RecordedRequest): Reply {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-allow-methods': 'POST',
  };
  if (request.method === 'OPTIONS') return { status: 204, headers: cors };
  const system = typeof request.body === 'string' ? '' : (request.body.messages?.[0]?.content ?? '');
  const reply = system.startsWith('You keep the long-term memory')
    ? chatReply(
        JSON.stringify({
          summary: 'The user publishes the @acme packages.',
          memories: [
            {
              category: 'preferences',
              name: 'Acme packages',
              abstract: 'The user publishes scoped @acme packages with public access.',
              content: 'Publishes every scoped @acme package with npm publish --access public.',
            },
          ],
        }),
      )
    : // Intent analysis: the current query, as a memory and as a resource query.
      chatReply(
        JSON.stringify({
          reasoning: 'the query as it is',
          queries: ['memory', 'resource'].map((type, i) => ({
            query: String(promptData(request).current_query),
            context_type: type,
            intent: 'answer the query',
            priority: i + 1,
          })),
        }),
      );
  return { ...reply, headers: cors };
}

beforeAll(async () => {
  server = await serveBuiltDemo();
  llm = await startOpenAiServer({ dimensions: 4 });
  llm.fallback = answer;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await llm?.close();
  await server?.close();
});

/** Types a message into the panel and sends it; resolves with the parts its turn shows. */
async function send(page: Page, message: string): Promise<{ uri: string; type: string }[]> {
  const before = await page.locator('#agent .agent-turn').count();
  await page.fill('#agent-message', message);
  await page.press('#agent-message', 'Enter');
  await page.waitForFunction(
    (n) => document.querySelectorAll('#agent .agent-turn').length === n,
    before + 1,
    {
      timeout: 60_000,
    },
  );
  return page.$$eval(`#agent .agent-turn:nth-child(${before + 1}) .agent-part`, (parts) =>
    parts.map((part) => ({
      uri: (part as HTMLElement).dataset.uri ?? '',
      type: (part as HTMLElement).dataset.type ?? '',
    })),
  );
}

/** Waits for the page to load again after the form reopened it, and for the panel. */
async function reopened(page: Page, action: () => Promise<void>): Promise<void> {
  await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), action()]);
  await waitReady(page);
  await page.waitForSelector('#agent:not([hidden]) #agent-message');
}

/** The panel at 390 px, for a person to look at (git-ignored). */
async function screenshot(page: Page, screen: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .locator('#agent')
    .screenshot({ path: new URL(`demo-agent-llm-${screen}-390.png`, artifacts).pathname });
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('the demo’s agent panel with an LLM endpoint', () => {
  it('extracts memories through the endpoint the visitor sets, and later turns cite them', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const network = await keepLocal(context);
    try {
      const page = await context.newPage();
      await page.goto(demoUrl(server.origin, { embedder: 'words' }));
      await waitReady(page);
      await page.waitForSelector('#agent:not([hidden]) #agent-message');

      // The form, by keyboard: closed at first, each field labelled; a URL that is not one is refused.
      await page.focus('.agent-llm summary');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#agent-llm-url', { state: 'visible' });
      expect(await page.getAttribute('#agent-llm-key', 'type')).toBe('password');
      expect(await seriousViolations(page, '#agent')).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await seriousViolations(page, '#agent')).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.fill('#agent-llm-url', 'api.example/v1');
      await page.fill('#agent-llm-model', 'test-chat');
      await page.click('#agent-llm-save');
      expect(await page.textContent('#agent-llm-problem')).toMatch(/must be a full URL/);
      await screenshot(page, 'form');

      await page.fill('#agent-llm-url', llm.baseUrl);
      await page.fill('#agent-llm-key', KEY);
      await reopened(page, () => page.click('#agent-llm-save'));
      // Kept for this tab only: sessionStorage, never localStorage.
      const kept = await page.evaluate(() => ({
        session: JSON.stringify({ ...sessionStorage }),
        local: JSON.stringify({ ...localStorage }),
      }));
      expect(kept.session).toContain(KEY);
      expect(kept.local).not.toContain(KEY);
      expect(await page.textContent('.agent-llm summary')).toContain('on: test-chat at 127.0.0.1');

      // A turn: the endpoint planned its queries, with the configured model and key.
      await send(page, 'I always publish my @acme packages with --access public.');
      const chats = () =>
        llm.requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');
      expect(chats().length).toBeGreaterThan(0);
      for (const request of chats()) {
        expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
        expect(request.body).toMatchObject({ model: 'test-chat' });
      }

      // The commit: the endpoint's memory is shown, with its abstract.
      await page.click('#agent-commit');
      await page.waitForSelector('#agent .agent-committed', { timeout: 60_000 });
      const extracted = await page.$$eval('#agent .agent-extracted-memory', (all) =>
        all.map((m) => ({ uri: (m as HTMLElement).dataset.uri, text: m.textContent })),
      );
      expect(extracted).toEqual([
        { uri: MEMORY, text: `${MEMORY}The user publishes scoped @acme packages with public access.` },
      ]);
      expect(await page.textContent('#agent [role=status]')).toMatch(/1 memory extracted\.$/);
      expect(await seriousViolations(page, '#agent')).toEqual([]);
      await screenshot(page, 'committed');
      const extraction = chats().find((r) => JSON.stringify(r.body).includes('long-term memory'));
      expect(JSON.stringify(extraction?.body)).toContain('--access public');

      // A later turn cites the memory the endpoint produced.
      const later = await send(page, 'How should I publish the acme packages?');
      expect(later).toContainEqual({ uri: MEMORY, type: 'memory' });
      const block = await page.textContent('#agent .agent-turn:nth-child(2) .agent-block');
      expect(block).toContain(`<memory uri="${MEMORY}"`);

      // Back offline: the setting is gone, and the panel says there is no LLM.
      await page.click('.agent-llm summary');
      await reopened(page, () => page.click('#agent-llm-clear'));
      expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain(KEY);
      expect(await page.textContent('.agent-llm summary')).toBe('Use an LLM endpoint (optional)');
      expect(await page.textContent('#agent .hint')).toContain('There is no LLM here');

      expect(network.blocked).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);
});

// npm run demo:screenshots: builds the demo, serves it, and writes a PNG of each of its screens at a
// desktop and a phone width into docs/demo/ (docs/demo/README.md lists them): the landing page,
// results for a question, a result opened, the trace unfolded, the agent panel after one turn.
// The page as a visitor gets it: the bundled model, the sample corpus, a fresh profile per width.
// Each is the viewport as the visitor sees it after scrolling to the screen's part, not the whole page.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { demoUrl, keepLocal, waitReady } from '../../test/e2e/demo-page.js';
import { serveBuiltDemo } from '../../test/e2e/demo-server.js';
import { launchChromium } from '../../test/targets/browser.js';

const outDir = fileURLToPath(new URL('../../docs/demo/', import.meta.url));
const widths = [
  { name: '1440', viewport: { width: 1440, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
];
const question = 'how do I publish a scoped package';
const agentMessage = 'How do I publish a scoped package?';
/** The model's first load on a busy machine. */
const timeout = 240_000;

async function shoot(page: Page, screen: string, width: string): Promise<void> {
  const path = `${outDir}${screen}-${width}.png`;
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  console.log(`wrote docs/demo/${screen}-${width}.png`);
}

/** Scrolls `selector` to the top of the viewport, and waits for the page to stop moving. */
async function scrollTo(page: Page, selector: string): Promise<void> {
  await page.locator(selector).evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

async function screens(browser: Browser, origin: string, width: (typeof widths)[number]): Promise<void> {
  const context = await browser.newContext({ viewport: width.viewport });
  const network = await keepLocal(context);
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(timeout);
    await page.goto(demoUrl(origin));
    await waitReady(page, timeout);
    await page.waitForSelector('#agent:not([hidden]) #agent-message');
    await shoot(page, 'landing', width.name);

    await page.fill('#query', question);
    await page.waitForFunction((q) => document.getElementById('results')?.dataset.query === q, question);
    await page.locator('#query').blur();
    await shoot(page, 'results', width.name);

    await page.click('#results .result');
    await page.waitForSelector('.detail .l0');
    await scrollTo(page, '#detail');
    await shoot(page, 'detail', width.name);

    await page.click('.trace-full summary');
    await page.waitForSelector('.trace-full[open]');
    await scrollTo(page, '.trace-pane');
    await shoot(page, 'trace', width.name);

    await page.focus('#agent-message');
    await page.keyboard.type(agentMessage);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#agent .agent-turn');
    await scrollTo(page, '#agent');
    await shoot(page, 'agent', width.name);

    if (network.blocked.length > 0)
      throw new Error(`requests left this machine: ${network.blocked.join(', ')}`);
  } finally {
    await context.close();
  }
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const server = await serveBuiltDemo();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    for (const width of widths) await screens(browser, server.origin, width);
  } finally {
    await browser?.close();
    await server.close();
  }
}

await main();

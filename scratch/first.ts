import { chromium } from 'playwright-core';
import { chromiumFlags, chromiumPath } from '../test/targets/browser.js';
import { serveBuiltDemo } from '../test/e2e/demo-server.js';
const server = await serveBuiltDemo();
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumFlags });
for (let i = 0; i < 3; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const logs: string[] = [];
  page.on('console', (m) => logs.push(`${m.type()} ${m.text()}`));
  const t0 = Date.now();
  await page.goto(server.origin + '/');
  await page.waitForSelector('#query:not([disabled])', { timeout: 60000 });
  const enabled = Date.now() - t0;
  await page.fill('#query', 'publish a scoped package');
  await page.waitForFunction(() => document.getElementById('results')?.dataset.query === 'publish a scoped package', undefined, { timeout: 60000, polling: 20 });
  const first = Date.now() - t0;
  const by = await page.$eval('#results', (e) => (e as HTMLElement).dataset.by);
  const detail = await page.textContent('#status-detail');
  const nav = await page.evaluate(() => performance.now());
  // reload
  const t1 = Date.now();
  await page.reload();
  await page.waitForSelector('#query:not([disabled])', { timeout: 60000 });
  const enabled2 = Date.now() - t1;
  await page.fill('#query', 'remove a package');
  await page.waitForFunction(() => document.getElementById('results')?.dataset.query === 'remove a package', undefined, { timeout: 60000, polling: 20 });
  const second = Date.now() - t1;
  const detail2 = await page.textContent('#status-detail');
  console.log({ enabled, first, by, detail, nav: Math.round(nav), enabled2, second, detail2 });
  console.log(logs.join('\n'));
  await context.close();
}
await browser.close(); await server.close();

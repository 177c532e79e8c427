// A page whose Content Security Policy does not allow WebAssembly, in Chromium: USearch's load
// fails with WASM_LOAD and the model's with MODEL_LOAD, each saying to add 'wasm-unsafe-eval'
// (docs/guide/extension.md). The same page with it loads everything from `assets`.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser, launchChromium, type StaticServer, serveFiles } from './browser.js';
import type { Outcome } from './csp-page.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const html =
  '<!doctype html><title>Longship</title><script type="module" src="/bundle/csp-page.js"></script>';
const advice =
  "add 'wasm-unsafe-eval' to its script-src (for an extension: to content_security_policy.extension_pages";

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  const page = await bundleForBrowser(fileURLToPath(new URL('./csp-page.ts', import.meta.url)));
  const policy = (script: string) => ({ 'content-security-policy': `script-src ${script}` });
  server = await serveFiles(root, {
    '/strict.html': { body: html, type: 'text/html', headers: policy("'self'") },
    '/allowed.html': { body: html, type: 'text/html', headers: policy("'self' 'wasm-unsafe-eval'") },
    '/bundle/csp-page.js': { body: page },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function outcomes(path: string): Promise<Record<string, Outcome>> {
  const page = await browser.newPage();
  try {
    await page.goto(`${server.origin}${path}`);
    await page.waitForFunction(() => 'cspResults' in globalThis);
    return await page.evaluate(
      () => (globalThis as unknown as { cspResults: Promise<Record<string, Outcome>> }).cspResults,
    );
  } finally {
    await page.close();
  }
}

describe('a Content Security Policy without wasm-unsafe-eval, in Chromium', () => {
  it('fails the loads with errors that say what to add', async () => {
    const { usearch, model, longship } = await outcomes('/strict.html');
    expect(usearch).toMatchObject({ ok: false, code: 'WASM_LOAD' });
    expect(usearch!.message).toContain(advice);
    expect(model).toMatchObject({ ok: false, code: 'MODEL_LOAD' });
    expect(model!.message).toContain(advice);
    expect(longship).toMatchObject({ ok: false });
    expect(longship!.message).toContain(advice);
  });

  it('with it, loads USearch and the model, and opens from `assets`', async () => {
    const { usearch, model, longship } = await outcomes('/allowed.html');
    expect({ usearch, model, longship }).toEqual({
      usearch: { ok: true },
      model: { ok: true },
      longship: { ok: true },
    });
  });
});

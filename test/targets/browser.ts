// Helpers for tests that run code in a real browser: launch Chromium, serve files over HTTP on
// localhost, bundle a TypeScript entry for the browser.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { basename, dirname, extname, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { findChromium } from './find-chromium.js';

/** Chromium's flags for a quiet, offline, headless run in a container. */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The Chromium to run: `LONGSHIP_CHROMIUM`, the system's, Playwright's cache or the @sparticuz/chromium
 * devDependency (test/targets/find-chromium.ts). Throws, saying how to get one, where there is none.
 */
export function chromiumPath(): string {
  return findChromium();
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: chromiumFlags,
    headless: true,
    timeout: 60_000,
  });
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

export interface StaticServer {
  /** The server's origin, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves the files under `root` (never above it), plus in-memory `files` by path (`/bundle/main.js`,
 * each with any `headers` of its own, such as a Content-Security-Policy), with the right content types: `application/wasm` lets browsers compile while streaming. `port` 0
 * (the default) takes a free one; a fixed one keeps the origin, and so a profile's IndexedDB, across runs.
 */
export async function serveFiles(
  root: string,
  files: Record<string, { body: string | Uint8Array; type?: string; headers?: Record<string, string> }> = {},
  port = 0,
): Promise<StaticServer> {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const typeOf = (name: string) => contentTypes[extname(name)] ?? 'application/octet-stream';
    const inMemory = files[path];
    if (inMemory) {
      response.writeHead(200, { ...inMemory.headers, 'content-type': inMemory.type ?? typeOf(path) });
      response.end(inMemory.body);
      return;
    }
    const file = resolve(base, `.${path}`);
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': typeOf(file) });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready));
  const { port: listening } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${listening}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Bundles a TypeScript entry into one ES module for the browser (and module workers). */
export async function bundleForBrowser(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    // Node-only modules are imported behind runtime checks (src/env/); they never run here.
    external: ['node:*'],
  });
  return result.outputFiles[0]!.text;
}

/**
 * {@link bundleForBrowser} split as an app's bundler splits it: what is imported dynamically (the
 * model runtime) goes in chunks of its own, fetched only when used. Keyed by file name; the entry
 * is `<its name>.js`. `minify`: as a production build ships it (Vite's build minifies with esbuild).
 */
export async function bundleFilesForBrowser(
  entry: string,
  options: { minify?: boolean } = {},
): Promise<Record<string, string>> {
  const result = await build({
    minify: options.minify ?? false,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    outdir: 'bundle',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    external: ['node:*'],
  });
  return Object.fromEntries(result.outputFiles.map((file) => [basename(file.path), file.text]));
}

/**
 * onnxruntime-web's dist folder relative to `root` (the folder a test or bench serves), '/'-separated:
 * the copy transformers.js itself imports, whose files a page's `wasmPaths` must point at.
 */
export function onnxruntimeWebDist(root: string): string {
  const require = createRequire(import.meta.url);
  const fromTransformers = createRequire(require.resolve('@huggingface/transformers'));
  return relative(root, dirname(fromTransformers.resolve('onnxruntime-web')))
    .split('\\')
    .join('/');
}

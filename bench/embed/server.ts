// A static file server for the browser half of the benchmark. Unlike test/targets/browser.ts's
// serveFiles, it can send COOP/COEP headers (cross-origin isolation, which WASM threads need) and
// lets the browser cache files, so that a second load can come from the HTTP cache.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** The headers that make a page cross-origin isolated, so that it gets SharedArrayBuffer. */
export const isolationHeaders = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

export interface BenchServer {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves the files under `root` (never above it) and the in-memory `files`, with `headers` on every
 * response and `cache-control: max-age=3600`.
 */
export async function serveBench(
  root: string,
  files: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<BenchServer> {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const type = contentTypes[extname(path)] ?? 'application/octet-stream';
    const common = { ...headers, 'content-type': type, 'cache-control': 'max-age=3600' };
    const inMemory = files[path];
    if (inMemory !== undefined) {
      response.writeHead(200, path === '/' ? { ...common, 'content-type': contentTypes['.html']! } : common);
      response.end(inMemory);
      return;
    }
    const file = resolve(base, `.${path}`);
    if (!file.startsWith(base + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, common);
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

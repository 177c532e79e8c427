// Builds the demo page with Vite into a temporary folder and serves the build on localhost with
// Vite's preview server, as a person would deploy it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

const configFile = fileURLToPath(new URL('../../demo/vite.config.ts', import.meta.url));

export interface DemoServer {
  /** e.g. `http://127.0.0.1:41234` */
  readonly origin: string;
  close(): Promise<void>;
}

/** Builds the demo into `outDir`, as `npm run build:demo` does into demo/dist. */
export async function buildDemo(outDir: string): Promise<void> {
  await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
}

export interface ServeOptions {
  /**
   * Response headers over demo/vite.config.ts's own, which make the page cross-origin isolated:
   * `Cross-Origin-Opener-Policy` and `Cross-Origin-Embedder-Policy` at `unsafe-none` serve it as a
   * static host without those headers would.
   */
  headers?: Record<string, string>;
}

/** Builds the demo (about 2 s) and serves it; `close()` stops the server and deletes the build. */
export async function serveBuiltDemo(options: ServeOptions = {}): Promise<DemoServer> {
  const outDir = await mkdtemp(join(tmpdir(), 'longship-demo-'));
  await buildDemo(outDir);
  const server = await serveDemoBuild(outDir, options);
  return {
    origin: server.origin,
    async close() {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/** Serves a build made by {@link buildDemo}; `close()` stops the server and leaves the build. */
export async function serveDemoBuild(outDir: string, { headers }: ServeOptions = {}): Promise<DemoServer> {
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false, ...(headers ? { headers } : {}) },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('the preview server has no port');
  return { origin: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}

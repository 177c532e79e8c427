// The sample corpus, pre-indexed: this plugin makes the pack (tools/demo/pack.ts) when the cached one
// is stale, serves it on the dev server, emits it into a build, and names it to the page and the
// worker through `virtual:demo-pack`. The pack's name carries its hash (corpus, model, package
// version, schema), so a cached or deployed pack is never mistaken for another.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { packHash } from '../tools/demo/pack-inputs.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Git-ignored: one pack per hash. */
const cache = fileURLToPath(new URL('./.cache/', import.meta.url));
const virtualId = 'virtual:demo-pack';

/** One pack per process, shared by the page's build and the workers' (each runs the plugin). */
let made: { hash: string; file: string; ready: Promise<void> } | undefined;

function makePack(log: (line: string) => void): NonNullable<typeof made> {
  if (made) return made;
  const hash = packHash();
  const file = `${cache}npm-docs-${hash}.pack`;
  const ready = existsSync(file)
    ? Promise.resolve()
    : new Promise<void>((resolve, reject) => {
        log(
          `longship demo: indexing the sample corpus into a pack with the bundled model (once per change, 15–60 s)…`,
        );
        const child = spawn(process.execPath, ['--import', 'tsx', 'tools/demo/pack.ts', file], {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        child.stdout.on('data', (chunk: Buffer) => log(`longship demo: ${String(chunk).trim()}`));
        child.on('error', reject);
        child.on('exit', (code) => {
          if (code !== 0) return reject(new Error(`making the pack failed (${code})`));
          // Older packs are stale for good: their hash names sources that are gone.
          for (const name of readdirSync(cache)) {
            if (name.endsWith('.pack') && `${cache}${name}` !== file) rmSync(`${cache}${name}`);
          }
          resolve();
        });
      });
  made = { hash, file, ready };
  return made;
}

/** `emit`: the page's build writes the pack into its output; the workers' builds only name it. */
export function demoPack({ emit }: { emit: boolean }): Plugin {
  let log = (line: string) => console.log(line);
  const get = () => makePack(log);
  const path = () => `packs/npm-docs-${get().hash}.pack`;
  return {
    name: 'longship-demo-pack',
    configResolved(config) {
      log = (line) => config.logger.info(line);
      // Started now, so that the dev server's first page finds it sooner.
      get();
    },
    resolveId: (id) => (id === virtualId ? `\0${virtualId}` : null),
    load(id) {
      if (id !== `\0${virtualId}`) return null;
      return `export const packHash = ${JSON.stringify(get().hash)};\nexport const packPath = ${JSON.stringify(path())};\n`;
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (request.url?.split('?')[0] !== `${server.config.base}${path()}`) return next();
        get().ready.then(
          () => {
            response.setHeader('Content-Type', 'application/octet-stream');
            response.end(readFileSync(get().file));
          },
          (error: unknown) => next(error),
        );
      });
    },
    async generateBundle() {
      if (!emit) return;
      await get().ready;
      // Beside the worker that fetches it: with the build's relative base, the worker resolves the
      // pack's path against its own URL, in assets/.
      this.emitFile({ type: 'asset', fileName: `assets/${path()}`, source: readFileSync(get().file) });
    },
  };
}

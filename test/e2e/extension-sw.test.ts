// Longship in an extension's service worker itself (test/fixtures/extension-sw/): the package
// packed and installed from its tarball, the fixture bundled against it with esbuild and the
// package's files copied under longship/, loaded unpacked in Debian's Chromium. The service worker
// opens a store with `assets` alone, adds documents and finds one by meaning: no `import()` is
// attempted there (a service worker disallows it) and nothing is fetched off the extension.
// docs/guide/extension.md#the-engine-in-the-service-worker says what this checks and why.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offOrigin } from '../consumer/chromium-net-log.js';
import { type ConsumerProject, installConsumerProject, removeConsumerProject } from '../consumer/install.js';
import { debianChromium, hasDebianChromium, launchWithExtension } from './extension-browser.js';

const fixture = fileURLToPath(new URL('../fixtures/extension-sw/', import.meta.url));
const missing = `skipped: ${debianChromium} is missing (Debian's chromium package; it loads unpacked extensions headless)`;
if (!hasDebianChromium) console.warn(`test/e2e/extension-sw.test.ts ${missing}`);

const documents = {
  'viking://resources/notes/rivers':
    'Rivers flood in spring when the snow melts in the mountains and the meltwater arrives all at once.',
  'viking://resources/notes/bread':
    'Knead the dough for ten minutes, let it rise overnight and bake it in a hot oven until golden.',
};

describe.skipIf(!hasDebianChromium)(
  `Longship in an extension's service worker${hasDebianChromium ? '' : ` (${missing})`}`,
  () => {
    let project: ConsumerProject;
    let extension: string;
    let profile: string;

    beforeAll(async () => {
      project = await installConsumerProject();
      const source = join(project.root, 'extension-sw-source');
      await cp(fixture, source, { recursive: true });
      extension = join(project.root, 'extension-sw');
      // As a user bundles it: one ES module for the service worker, `longship` from node_modules.
      await build({
        entryPoints: [join(source, 'background.js')],
        outfile: join(extension, 'background.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'chrome116',
        // Node's modules, imported only where files are read from disk (docs/guide/extension.md).
        external: ['node:*'],
        logLevel: 'warning',
      });
      await cp(join(source, 'manifest.json'), join(extension, 'manifest.json'));
      // The package's files, laid out as in the package, under the folder named as `assets`.
      const packageRoot = join(project.root, 'node_modules/longship');
      for (const folder of ['dist/ort', 'wasm/dist', 'model/use-lite']) {
        await cp(join(packageRoot, folder), join(extension, 'longship', folder), { recursive: true });
      }
      profile = await mkdtemp(join(tmpdir(), 'longship-extension-sw-profile-'));
    }, 900_000);

    afterAll(async () => {
      if (profile) await rm(profile, { recursive: true, force: true });
      if (project) await removeConsumerProject(project);
    });

    it('opens a store in the service worker, adds documents and finds one by meaning, all from its own files', async () => {
      const netLog = join(profile, '..', `${profile.split('/').at(-1)}-net-log.json`);
      const browser = await launchWithExtension(extension, profile, netLog);
      let urls: string[] = [];
      try {
        const found = await browser.serviceWorker.evaluate(
          ([documents, query]) =>
            (
              globalThis as unknown as {
                addAndFind(documents: object, query: string): Promise<{ uris: string[]; fetched: string[] }>;
              }
            ).addAndFind(documents, query),
          [documents, 'what makes streams overflow their banks?'] as const,
        );
        expect(found.uris[0]).toBe('viking://resources/notes/rivers');
        // onnxruntime-web's WASM came from the extension; its .mjs glue was never asked for.
        const own = `chrome-extension://${browser.id}/longship/`;
        expect(found.fetched).toContain(`${own}dist/ort/ort-wasm-simd-threaded.wasm`);
        expect(found.fetched).toContain(`${own}wasm/dist/usearch.wasm`);
        expect(found.fetched.filter((url) => url.endsWith('.mjs'))).toEqual([]);
        expect(found.fetched.filter((url) => !url.startsWith(own))).toEqual([]);
      } finally {
        urls = await browser.closeAndReadUrls();
        await rm(netLog, { force: true });
      }
      expect(offOrigin(urls, [`chrome-extension://${browser.id}`])).toEqual([]);
    }, 300_000);
  },
);

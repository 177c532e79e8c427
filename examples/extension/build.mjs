// Builds the unpacked extension into dist/ (or --out DIR): the three scripts bundled by esbuild
// from the installed longship package, the pages and manifest copied, and the package's asset
// files (worker, USearch's WASM, model, onnxruntime-web) copied under longship/, laid out as in the
// package, so that every file the extension loads is its own.
//
//   node build.mjs [--out DIR] [--host-permission PATTERN]
//
// --host-permission adds a host permission (for instance http://127.0.0.1/*), so that a tab can be
// saved without a user's click: what the end-to-end test does, since it cannot click the action.
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' }, 'host-permission': { type: 'string' } } });
const out = resolve(values.out ?? join(here, 'dist'));

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

await build({
  entryPoints: ['background', 'offscreen', 'panel'].map((name) => join(here, 'src', `${name}.js`)),
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'chrome116',
  logLevel: 'warning',
});

for (const file of ['panel.html', 'panel.css', 'offscreen.html']) await cp(join(here, file), join(out, file));
const manifest = JSON.parse(await readFile(join(here, 'manifest.json'), 'utf8'));
if (values['host-permission']) manifest.host_permissions = [values['host-permission']];
await writeFile(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// The package's root: its worker script is dist/worker/entry.js (docs/guide/assets.md).
const packageRoot = resolve(
  dirname(createRequire(import.meta.url).resolve('longship/worker-script.js')),
  '../..',
);
for (const folder of ['dist/worker', 'dist/ort', 'wasm/dist', 'model/use-lite']) {
  await cp(join(packageRoot, folder), join(out, 'longship', folder), { recursive: true });
}
console.log(`built ${out}`);

// Bundles the `longship-model-fp32` command (fp32.ts) with the conversion and protobufjs into one
// file, dist/bin/longship-model-fp32.js, so the package needs no dependency for it. Runs in
// `npm run build`. It sits two folders below the package root, as tools/model/ does, so the
// conversion's default folder (../../model/use-lite/) is the installed package's.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const fp32Entry = fileURLToPath(new URL('./fp32.ts', import.meta.url));
export const fp32Bin = fileURLToPath(new URL('../../dist/bin/longship-model-fp32.js', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await build({
    entryPoints: [fp32Entry],
    outfile: fp32Bin,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    banner: {
      js: '#!/usr/bin/env node\nimport { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
    },
    minify: true,
    logLevel: 'warning',
  });
}

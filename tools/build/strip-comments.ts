// Takes the comments out of the JavaScript tsc writes to dist/, after tsc in `npm run build`. The
// declarations beside it keep every comment: their TSDoc is what an editor shows. In the JavaScript
// the same text only weighed on the package (0.09 MB of it packed, docs/guide/package.md), with no
// source maps to need it. esbuild prints each module again, unminified and with its names, so a stack
// trace into dist/ still reads like the source; it keeps the comments bundlers read inside `import()`
// (`@vite-ignore`, `webpackIgnore`) and legal comments.
// Usage: tsx tools/build/strip-comments.ts
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The modules tsc wrote: dist/x.js for each src/x.ts, but the worker script, which
 * tools/worker/bundle.ts replaces with a minified bundle (its chunks and dist/ort/ have no source).
 */
export function compiledModules(dist: string, src: string): string[] {
  return (readdirSync(dist, { recursive: true }) as string[]).filter(
    (file) =>
      file.endsWith('.js') &&
      file !== join('worker', 'entry.js') &&
      existsSync(join(src, file.replace(/\.js$/, '.ts'))),
  );
}

/** `code` without its comments but those bundlers read and legal ones; otherwise the same module. */
export function withoutComments(code: string): string {
  return transformSync(code, { format: 'esm', legalComments: 'inline', charset: 'utf8' }).code;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dist = join(root, 'dist');
  const modules = compiledModules(dist, join(root, 'src'));
  for (const file of modules) {
    const path = join(dist, file);
    writeFileSync(path, withoutComments(readFileSync(path, 'utf8')));
  }
  console.log(`dist/: comments taken out of ${modules.length} modules`);
}

// The layout rules of tools/lint/sizes.ts (docs/internals/layers.md, "Sizes"), on a small src/ made
// for them: a folder past 20 files, and a small file that only one module of its layer imports.
import { expect, it } from 'vitest';
import { layoutProblems } from '../../tools/lint/sizes.js';

const lines = (count: number) => 'export const x = 1;\n'.repeat(count);

it('refuses a folder of more than 20 files, and not one of 20', () => {
  const sources = new Map<string, string>();
  for (let i = 0; i < 21; i++) sources.set(`src/big/f${i}.ts`, lines(40));
  for (let i = 0; i < 20; i++) sources.set(`src/full/f${i}.ts`, lines(40));
  for (let i = 0; i < 21; i++) sources.set(`src/split/${i % 2 ? 'a' : 'b'}/f${i}.ts`, lines(40));
  expect(layoutProblems('src', sources)).toEqual(['src/big: 21 files, more than 20: split it by part']);
});

it('refuses a file under 30 lines that one module of its layer imports, however it imports it', () => {
  const sources = new Map<string, string>([
    // Refused: small, one importer each (a static import, an import(), a re-export, across subfolders).
    ['src/a/one.ts', `import { x } from './small.js';\nexport const y = import('./lazy.js');\n${lines(40)}`],
    ['src/a/small.ts', lines(29)],
    ['src/a/lazy.ts', lines(3)],
    ['src/b/parse/split.ts', `export * from '../tokens.js';\n${lines(40)}`],
    ['src/b/tokens.ts', lines(10)],
    // Allowed: 30 lines; two importers; no importer; an entry point; a seam between layers.
    ['src/a/two.ts', `import { x } from './thirty.js';\nimport { y } from './shared.js';\n${lines(40)}`],
    ['src/a/thirty.ts', lines(30)],
    ['src/c/three.ts', `import { y } from '../a/shared.js';\n${lines(40)}`],
    ['src/a/shared.ts', lines(5)],
    ['src/a/alone.ts', lines(5)],
    ['src/index.ts', `export * from './exports/client.js';\n`],
    ['src/exports/client.ts', lines(5)],
    ['src/mcp/stdio.ts', `import { s } from '../env/stdio.js';\n${lines(40)}`],
    ['src/env/stdio.ts', lines(15)],
  ]);
  expect(layoutProblems('src', sources).sort()).toEqual([
    'src/a/lazy.ts: 3 lines, imported only by src/a/one.ts: fold it there',
    'src/a/small.ts: 29 lines, imported only by src/a/one.ts: fold it there',
    'src/b/tokens.ts: 10 lines, imported only by src/b/parse/split.ts: fold it there',
  ]);
});

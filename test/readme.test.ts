// The README's quick starts are the example files under examples/, which the consumer tests run:
// each marked block must hold its file's text exactly (`npm run readme:sync` copies them), and the
// README stays short enough to read (measurements live in docs/benchmarks.md). Its other TypeScript
// programs are compiled against src/, and its links and the docs' must lead somewhere.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { exampleBlocks, fillExamples } from '../tools/readme/examples.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');

describe('README', () => {
  const blocks = exampleBlocks(readme);

  it('shows a quick start for each runtime', () => {
    expect([...new Set(blocks.map((block) => block.path.split('/')[1]))]).toEqual([
      'vite',
      'no-bundler',
      'node',
      'deno',
      'workerd',
    ]);
  });

  it.each(blocks.map((block) => [block.path, block] as const))(
    'holds %s exactly as the file is (npm run readme:sync)',
    (path, block) => {
      expect(existsSync(`${root}${path}`), `${path} is missing`).toBe(true);
      expect(block.body).toBe(`${readFileSync(`${root}${path}`, 'utf8').trimEnd()}\n`);
    },
  );

  it('is at most 420 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(420);
  });

  it('and the docs link only to files that exist', () => {
    const docs = readdirSync(`${root}docs`).filter((name) => name.endsWith('.md'));
    const missing = ['README.md', ...docs.map((name) => `docs/${name}`)].flatMap((page) => {
      const text = readFileSync(`${root}${page}`, 'utf8');
      const links = [...text.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)].map((match) =>
        join(dirname(page), match[1]!),
      );
      const broken = links.filter((link) => !existsSync(`${root}${link}`));
      return broken.map((link) => `${page}: ${link}`);
    });
    expect(missing).toEqual([]);
  });
  // The quick starts run in the consumer tests; the API section's whole programs are compiled here.
  it('has API snippets that type-check against the source', async () => {
    const programs = [...readme.matchAll(/(?<!-->\n)^```ts\n(import [\s\S]*?)^```$/gm)].map((m) => m[1]!);
    expect(programs.length).toBeGreaterThan(0);
    const folder = mkdtempSync(join(tmpdir(), 'longship-readme-'));
    try {
      programs.forEach((program, i) => {
        const source = program.replaceAll("from 'longship'", `from '${root}src/index.js'`);
        writeFileSync(join(folder, `snippet${i}.ts`), `${source}\nexport {};\n`);
      });
      const config = {
        extends: `${root}tsconfig.json`,
        compilerOptions: { noEmit: true, typeRoots: [`${root}node_modules/@types`] },
        include: ['*.ts'],
      };
      writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(config));
      writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
      const tsc = join(root, 'node_modules/typescript/bin/tsc');
      const run = promisify(execFile)(process.execPath, [tsc, '-p', folder]).catch((error) => error);
      const { stdout } = (await run) as { stdout: string };
      expect(stdout).toBe('');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('fillExamples', () => {
  const files: Record<string, string> = { 'examples/a.js': 'one();\ntwo();\n', 'examples/b.ts': 'three();' };
  const read = (path: string) => files[path] ?? '';

  it('fills each marked block with its file, and leaves the rest of the text alone', () => {
    const text = [
      'intro',
      '<!-- example: examples/a.js -->',
      '```js',
      'stale();',
      '```',
      'between',
      '<!-- example: examples/b.ts -->',
      '```ts',
      '```',
      'end',
      '',
    ].join('\n');
    const filled = fillExamples(text, read);
    expect(filled).toBe(
      [
        'intro',
        '<!-- example: examples/a.js -->',
        '```js',
        'one();',
        'two();',
        '```',
        'between',
        '<!-- example: examples/b.ts -->',
        '```ts',
        'three();',
        '```',
        'end',
        '',
      ].join('\n'),
    );
    expect(fillExamples(filled, read)).toBe(filled);
  });

  it('refuses a marker without a fenced block after it', () => {
    expect(() => exampleBlocks('<!-- example: examples/a.js -->\nno fence\n')).toThrow(/fenced block/);
    expect(() => exampleBlocks('<!-- example: examples/a.js -->\n```js\nnever closed\n')).toThrow(/closing/);
  });
});

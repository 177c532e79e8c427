// The README's quick starts are the example files under examples/, which the consumer tests run:
// each marked block must hold its file's text exactly (`npm run readme:sync` copies them), and the
// README stays short enough to read (measurements live in docs/benchmarks.md). Its other TypeScript
// programs are compiled against src/, and its links and the docs' must lead somewhere.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { brokenLinks, linkedHosts } from '../tools/docs/links.js';
import { exampleBlocks, fillExamples } from '../tools/readme/examples.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');

/** The repository's tracked files and those git would add (new, not ignored). */
function gitFiles(): Set<string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
  });
  return new Set(listed.toString('utf8').split('\n').filter(Boolean));
}

describe('README', () => {
  const blocks = exampleBlocks(readme);

  it('shows a quick start for each runtime', () => {
    expect([...new Set(blocks.map((block) => block.path.split('/')[1]))]).toEqual([
      'node',
      'vite',
      'no-bundler',
      'deno',
      'workerd',
    ]);
  });

  it('opens with an install and a quick start on its first screen', () => {
    const lines = readme.split('\n');
    expect(lines.indexOf('npm install longship')).toBeLessThan(12);
    const first = blocks[0]!;
    const last = readme.slice(0, first.end).split('\n').length;
    expect(last).toBeLessThanOrEqual(25);
    expect(first.body.split('\n').length).toBeLessThanOrEqual(15);
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

  it('and the docs link only to files and headings that are there, and to known hosts', () => {
    const tracked = gitFiles();
    const folders = new Set(
      [...tracked].flatMap((file) =>
        file
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    const pages = [
      'README.md',
      'CHANGELOG.md',
      ...[...tracked].filter((file) => /^docs\/.*\.md$/.test(file)),
    ];
    const targets = {
      has: (path: string) => tracked.has(path) || folders.has(path),
      read: (path: string) =>
        path.endsWith('.md') && tracked.has(path) ? readFileSync(`${root}${path}`, 'utf8') : undefined,
      hosts: linkedHosts,
    };
    expect(
      pages.flatMap((page) => brokenLinks(page, readFileSync(`${root}${page}`, 'utf8'), targets)),
    ).toEqual([]);
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

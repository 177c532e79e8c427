// Each command of `longship`, run as a process against a store in a temporary folder: what it
// prints for people, what --json gives machines, and where the store is kept.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longship } from './run-cli.js';

let cwd: string;

const cat = 'The cat sleeps on the warm windowsill every afternoon.';
const backoff = '# Uploads\n\nRetry failed uploads with exponential backoff when the server answers 503.\n';
const bread = 'Knead the dough for ten minutes, then let it rise for an hour.\n';

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-cli-'));
  await writeFile(join(cwd, 'cat.md'), cat);
  await mkdir(join(cwd, 'docs/kitchen'), { recursive: true });
  await writeFile(join(cwd, 'docs/uploads.md'), backoff);
  await writeFile(join(cwd, 'docs/kitchen/bread.txt'), bread);
  await writeFile(join(cwd, 'docs/logo.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
  // Left out of a folder: hidden entries and dependencies.
  await mkdir(join(cwd, 'docs/.git'), { recursive: true });
  await writeFile(join(cwd, 'docs/.git/HEAD'), 'ref: refs/heads/main\n');
  await mkdir(join(cwd, 'docs/node_modules/x'), { recursive: true });
  await writeFile(join(cwd, 'docs/node_modules/x/README.md'), 'a dependency\n');
});

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('add', () => {
  it('adds a file and a folder into ./.longship, with progress lines on stderr', async () => {
    const run = await longship(['add', 'cat.md', 'docs'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, '.longship/longship.json'))).toBe(true);
    expect(run.stdout).toBe(
      'cat.md → viking://resources/cat.md  1 added, 0 changed, 0 unchanged\n' +
        'docs → viking://resources/docs  4 added, 0 changed, 0 unchanged, 1 skipped\n',
    );
    // Not a terminal: plain lines, one per document, and the skipped file named with its code.
    expect(run.stderr).toContain('adding cat.md (1/2)\n  1/1 viking://resources/cat.md\n');
    expect(run.stderr).toContain('adding docs (2/2)\n');
    expect(run.stderr).toContain('  2/2 viking://resources/docs/uploads.md\n');
    expect(run.stderr).toMatch(/^longship: skipped docs\/logo\.png: BINARY_INPUT: /m);
  });

  it('adds again with --json: one document, nothing rewritten, the skipped file listed', async () => {
    const run = await longship(['add', 'cat.md', 'docs', '--json', '--quiet'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('adding');
    const { target, results } = JSON.parse(run.stdout);
    expect(target).toBe('viking://resources');
    expect(results).toMatchObject([
      { path: 'cat.md', uri: 'viking://resources/cat.md', added: 0, changed: 0, unchanged: 1, skipped: [] },
      {
        path: 'docs',
        uri: 'viking://resources/docs',
        uris: ['viking://resources/docs/kitchen/bread.txt', 'viking://resources/docs/uploads.md'],
        added: 0,
        changed: 0,
        skipped: [{ path: 'docs/logo.png', code: 'BINARY_INPUT' }],
      },
    ]);
  });

  it('adds under --to, creating the directories on the way', async () => {
    const run = await longship(['add', 'cat.md', '--to', 'viking://resources/pets/indoor', '--json'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).results[0].uri).toBe('viking://resources/pets/indoor/cat.md');
  });
});

describe('find', () => {
  it('finds by meaning: the best hit first, with its score and abstract', async () => {
    const run = await longship(['find', 'Where does the cat nap?'], cwd);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('resources:');
    expect(lines[1]).toMatch(
      /^ {2}\d\.\d\d {2}viking:\/\/resources\/(pets\/indoor\/)?cat\.md {2}.*windowsill/,
    );
  });

  it('keeps to --uri and --limit, and gives the hits as JSON', async () => {
    const run = await longship(
      ['find', 'retry uploads', '--uri', 'viking://resources/docs', '--limit', '1', '--json'],
      cwd,
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.total).toBe(1);
    expect(result.resources[0]).toMatchObject({ uri: 'viking://resources/docs/uploads.md', is_leaf: true });
    expect(result.trace).toBeUndefined();
  });
});

describe('context', () => {
  it('prints the block within the budget, citing URIs, and what was left out on stderr', async () => {
    const run = await longship(['context', 'how are uploads retried?', '--tokens', '60'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^<context>\n<resource uri="viking:\/\/resources\/docs\/uploads\.md"/);
    expect(run.stdout).toContain('exponential backoff');
    // The other documents (bread, pets) are no good match for the question.
    expect(run.stderr).toMatch(
      /^left out \(no-good-match\): viking:\/\/resources\/docs\/kitchen\/bread\.txt$/m,
    );
  });

  it('gives parts, tokens and what was left out as JSON, never over the budget', async () => {
    const run = await longship(['context', 'how are uploads retried?', '--tokens', '60', '--json'], cwd);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.budget).toEqual({ tokens: 60 });
    expect(result.tokens).toBeLessThanOrEqual(60);
    expect(result.parts[0].uri).toBe('viking://resources/docs/uploads.md');
    expect(result.leftOut.length).toBeGreaterThan(0);
  });

  it('refuses a budget that is not a whole number above 0 as a usage error', async () => {
    const run = await longship(['context', 'uploads', '--tokens', '0'], cwd);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });
});

describe('ls, tree and read', () => {
  it('lists viking:// by default, and a directory with its abstracts', async () => {
    const top = await longship(['ls'], cwd);
    expect(top.code, top.stderr).toBe(0);
    expect(top.stdout.split('\n').map((line) => line.split(' ')[0])).toEqual([
      'viking://resources/',
      'viking://user/',
      'viking://agent/',
      '',
    ]);
    const docs = await longship(['ls', 'viking://resources/docs', '--json'], cwd);
    const { uri, nodes } = JSON.parse(docs.stdout);
    expect(uri).toBe('viking://resources/docs');
    expect(nodes.map((n: { uri: string; kind: string }) => `${n.uri} ${n.kind}`)).toEqual([
      'viking://resources/docs/kitchen dir',
      'viking://resources/docs/uploads.md file',
    ]);
  });

  it('draws the tree, to --depth', async () => {
    const run = await longship(['tree', 'viking://resources/docs'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('viking://resources/docs\n├── kitchen/\n│   └── bread.txt\n└── uploads.md\n');
    const shallow = await longship(['tree', 'viking://resources/docs', '--depth', '1', '--json'], cwd);
    const { nodes } = JSON.parse(shallow.stdout);
    expect(nodes.map((n: { name: string; children?: unknown }) => [n.name, n.children])).toEqual([
      ['kitchen', undefined],
      ['uploads.md', undefined],
    ]);
  });

  it('reads a file whole, and each layer of a node', async () => {
    const whole = await longship(['read', 'viking://resources/docs/kitchen/bread.txt'], cwd);
    expect(whole).toEqual({ code: 0, stdout: bread, stderr: '' });
    const abstract = await longship(['read', 'viking://resources/cat.md', '--layer', 'L0', '--json'], cwd);
    expect(JSON.parse(abstract.stdout)).toEqual({
      uri: 'viking://resources/cat.md',
      layer: 'L0',
      text: expect.stringContaining('windowsill'),
    });
    const overview = await longship(['read', 'viking://resources/docs', '--layer', 'l1'], cwd);
    expect(overview.code, overview.stderr).toBe(0);
    expect(overview.stdout).toContain('exponential backoff');
  });
});

describe('the store folder', () => {
  it('is --store, else LONGSHIP_STORE, relative to the working directory', async () => {
    const elsewhere = join(cwd, 'elsewhere');
    await mkdir(elsewhere);
    const added = await longship(['add', '../cat.md', '--store', 'kept', '-q'], elsewhere);
    expect(added.code, added.stderr).toBe(0);
    expect(existsSync(join(elsewhere, 'kept/longship.json'))).toBe(true);
    expect(existsSync(join(elsewhere, '.longship'))).toBe(false);
    const listed = await longship(['ls', 'viking://resources', '--json'], cwd, {
      LONGSHIP_STORE: join(elsewhere, 'kept'),
    });
    expect(JSON.parse(listed.stdout).nodes.map((n: { name: string }) => n.name)).toEqual(['cat.md']);
  });
});

describe('help and version', () => {
  it('prints the commands, each command its options, and the version of package.json', async () => {
    const help = await longship(['--help'], cwd);
    expect(help.code).toBe(0);
    for (const name of ['add', 'find', 'context', 'ls', 'tree', 'read', 'mcp'])
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const find = await longship(['find', '--help'], cwd);
    expect(find.stdout).toMatch(/^Usage: longship find <query> \[options\]/);
    expect(find.stdout).toContain('--limit N');
    expect((await longship(['help', 'read'], cwd)).stdout).toContain('--layer l0|l1|l2');
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(await longship(['--version'], cwd)).toEqual({
      code: 0,
      stdout: `${manifest.version}\n`,
      stderr: '',
    });
    expect(JSON.parse((await longship(['-v', '--json'], cwd)).stdout)).toEqual({ version: manifest.version });
  });
});

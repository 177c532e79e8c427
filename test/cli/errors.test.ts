// What a shell user gets when something is wrong: exit 2 and a pointer to help for a mistake in the
// command line, exit 1 and the LongshipError's code and message (no stack) for a failed operation,
// and nothing written either way.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileStore } from '../../src/index.js';
import { lastCommit, longship } from './run-cli.js';

let cwd: string;
let store: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-cli-errors-'));
  store = join(cwd, '.longship');
  await writeFile(join(cwd, 'notes.md'), 'Plain notes about the garden.\n');
  await writeFile(join(cwd, 'photo.jpg'), new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]));
});

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** A usage error: exit 2, the message and where help is, and nothing on stdout. */
async function usage(args: string[], message: string, help = 'longship'): Promise<void> {
  const run = await longship(args, cwd);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain(message);
  expect(run.stderr).toContain(`Run '${help} --help' for more.`);
}

describe('usage errors: exit 2', () => {
  it('no command prints the help on stderr', async () => {
    const run = await longship([], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: longship <command> [options]');
  });

  it('refuses unknown commands and options, missing and extra arguments, bad values', async () => {
    await usage(['frobnicate'], 'longship: unknown command frobnicate');
    await usage(['--frob'], 'longship: unknown option --frob');
    await usage(['find', 'x', '--frob'], 'longship find: unknown option --frob', 'longship find');
    await usage(['find'], 'longship find: missing <query>', 'longship find');
    await usage(['read', 'viking://a', 'viking://b'], 'unexpected argument viking://b', 'longship read');
    await usage(
      ['find', 'x', '--limit', 'many'],
      '--limit takes a whole number of at least 1',
      'longship find',
    );
    await usage(['find', 'x', '--limit'], "Option '--limit <value>' argument missing", 'longship find');
    await usage(['tree', '--depth', '0'], '--depth takes a whole number of at least 1', 'longship tree');
    // Not a layer, though an object has it: only l0, l1 and l2 are.
    await usage(
      ['read', 'viking://resources', '--layer', 'constructor'],
      '--layer takes l0, l1 or l2, not "constructor"',
      'longship read',
    );
    await usage(['add'], 'longship add: missing <path…>', 'longship add');
    await usage(
      ['add', 'notes.md', '--quiet=yes'],
      "Option '-q, --quiet' does not take an argument",
      'longship add',
    );
    // mcp's stdout is the protocol's: --json is not one of its options.
    await usage(['mcp', '--json'], 'longship mcp: unknown option --json', 'longship mcp');
    // None of these made a store.
    expect(existsSync(store)).toBe(false);
  });
});

describe('failed operations: exit 1, and nothing written', () => {
  it('a missing path, a binary file or a bad --to writes nothing, not even the store', async () => {
    const missing = await longship(['add', 'notes.md', 'nowhere.md'], cwd);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe('longship: NOT_FOUND: nowhere.md: no such file or folder\n');
    const binary = await longship(['add', 'notes.md', 'photo.jpg', '--json'], cwd);
    expect(binary.code).toBe(1);
    expect(JSON.parse(binary.stdout).error).toEqual({
      code: 'BINARY_INPUT',
      message: 'photo.jpg contains a zero byte at offset 4',
    });
    expect(binary.stderr).toBe('longship: BINARY_INPUT: photo.jpg contains a zero byte at offset 4\n');
    const target = await longship(['add', 'notes.md', '--to', 'viking://user/default/memories'], cwd);
    expect(target.code).toBe(1);
    expect(target.stderr).toMatch(
      /^longship: INVALID_ARGUMENT: a resource's target must be viking:\/\/resources/,
    );
    expect(existsSync(store)).toBe(false);
  });

  it('reads need a store: NOT_FOUND, and none is made', async () => {
    for (const args of [['ls'], ['find', 'garden'], ['read', 'viking://resources/notes.md']]) {
      const run = await longship(args, cwd);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^longship: NOT_FOUND: no store at .*\.longship: `longship add` makes one/);
    }
    expect(existsSync(store)).toBe(false);
  });

  it('a missing node, a directory read whole, a bad URI: the code, no stack, the store unchanged', async () => {
    expect((await longship(['add', 'notes.md', '-q'], cwd)).code).toBe(0);
    const before = await lastCommit(store);
    expect(before).toBeGreaterThan(0);
    const missing = await longship(['read', 'viking://resources/nothing.md', '--json'], cwd);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({
      error: { code: 'NOT_FOUND', message: expect.stringContaining('viking://resources/nothing.md') },
    });
    const directory = await longship(['read', 'viking://resources'], cwd);
    expect(directory.code).toBe(1);
    expect(directory.stderr).toMatch(/^longship: IS_A_DIRECTORY: .* list it with tree\(\) or ls\(\)/);
    const uri = await longship(['ls', 'http://example.com'], cwd);
    expect(uri.code).toBe(1);
    expect(uri.stderr).toMatch(/^longship: INVALID_URI: /);
    const into = await longship(['add', 'notes.md', '--to', 'viking://resources/notes.md/inside'], cwd);
    expect(into.code).toBe(1);
    expect(into.stderr).toMatch(/^longship: INVALID_ARGUMENT: cannot add under .* is a file$/m);
    for (const run of [missing, directory, uri, into]) expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await lastCommit(store)).toBe(before);
  });

  it('a store another process holds: STORE_LOCKED, naming the folder', async () => {
    const held = join(cwd, 'held');
    const other = await openFileStore(held, { embedder: { id: 'other', dimensions: 3 } });
    try {
      const run = await longship(['ls', '--store', 'held'], cwd);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^longship: STORE_LOCKED: the store at .*held is open for writing in another process/,
      );
    } finally {
      await other.close();
    }
  });
});

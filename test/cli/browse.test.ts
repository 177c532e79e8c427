// `longship ls` and `tree` a page at a time (src/cli/commands/browse.ts), as OpenViking's ls and tree
// cut a listing at a node limit: stdout keeps the listing, stderr prints the command of the next page.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { longshipHere } from './run-in-process.js';

const R = 'viking://resources/my notes';
let cwd: string;
let store: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-browse-'));
  store = join(cwd, 'store');
  const longship = await openLongship({ store });
  for (const name of ['a.md', 'b.md', 'c.md']) {
    await longship.write(`${R}/${name}`, `Note ${name}.`, { parents: true });
  }
  await longship.close();
}, 60_000);

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const run = (args: string[]) => longshipHere([...args, '--store', store], cwd);

/** The words of the `more:` note, as a shell would split them (single quotes only). */
function nextCommand(stderr: string): string[] {
  const line = /^more: (.*)$/m.exec(stderr)?.[1];
  expect(line, stderr).toBeDefined();
  return [...line!.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1] === undefined ? m[2]! : m[1].replaceAll("'\\''", "'"),
  );
}

describe('ls and tree in pages', () => {
  it('print a page, and on stderr the command that prints the next, until none is left', async () => {
    const first = await run(['ls', R, '--limit', '2']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split('\n').map((l) => l.split('  ')[0])).toEqual([`${R}/a.md`, `${R}/b.md`, '']);
    const next = nextCommand(first.stderr);
    expect(next.slice(0, 5)).toEqual(['longship', 'ls', R, '--limit', '2']);
    const second = await run(next.slice(1));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.split('  ')[0]).toBe(`${R}/c.md`);
    expect(second.stderr).toBe('');
  });

  it('pages tree the same way, keeping --depth', async () => {
    const first = await run(['tree', 'viking://resources', '--depth', '2', '--limit', '2']);
    expect(first.code, first.stderr).toBe(0);
    expect(nextCommand(first.stderr).slice(0, 7)).toEqual([
      'longship',
      'tree',
      'viking://resources',
      '--depth',
      '2',
      '--limit',
      '2',
    ]);
    const json = JSON.parse((await run(['tree', 'viking://resources', '--limit', '2', '--json'])).stdout);
    expect(json).toMatchObject({ hasMore: true, cursor: expect.any(String) });
  });

  it('fails with INVALID_ARGUMENT for a cursor that is not one', async () => {
    const refused = await run(['ls', R, '--cursor', 'not-a-cursor']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/INVALID_ARGUMENT: cursor "not-a-cursor" is not one that lsPage/);
  });

  it('finds by keywords alone with --search-type keywords', async () => {
    const found = JSON.parse(
      (await run(['find', 'Note b.md', '--search-type', 'keywords', '--json'])).stdout,
    );
    expect(found.resources[0].uri).toBe(`${R}/b.md`);
  });
});

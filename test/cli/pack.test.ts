// `longship export` and `longship import` (docs/guide/ovpack.md): a directory to an OVPack file and
// back into another store, and the failures they report.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longshipHere } from './run-in-process.js';

let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-pack-'));
  await writeFile(join(cwd, 'bread.md'), 'Knead the dough for ten minutes, then let it rise for an hour.\n');
});

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('export and import', () => {
  it('exports a directory with its vectors and imports it into another store', async () => {
    expect(
      (await longshipHere(['add', 'bread.md', '--to', 'viking://resources/kitchen', '-q'], cwd)).code,
    ).toBe(0);
    const out = await longshipHere(
      ['export', 'viking://resources/kitchen', 'kitchen.ovpack', '--vectors'],
      cwd,
    );
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^viking:\/\/resources\/kitchen → kitchen\.ovpack {2}\d+ bytes\n$/);
    expect(existsSync(join(cwd, 'kitchen.ovpack.partial'))).toBe(false);
    expect((await readFile(join(cwd, 'kitchen.ovpack'))).subarray(0, 2).toString()).toBe('PK');

    const other = ['--store', join(cwd, 'other')];
    const run = await longshipHere(
      ['import', 'kitchen.ovpack', 'viking://resources/copies', ...other, '--json'],
      cwd,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      uri: 'viking://resources/copies/kitchen',
      skipped: false,
      nodes: 2,
      vectors: 'restored',
    });
    const read = await longshipHere(['read', 'viking://resources/copies/kitchen/bread.md', ...other], cwd);
    expect(read.stdout).toContain('Knead the dough');

    const again = await longshipHere(
      ['import', 'kitchen.ovpack', 'viking://resources/copies', ...other],
      cwd,
    );
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('ALREADY_EXISTS');
    const skip = ['import', 'kitchen.ovpack', 'viking://resources/copies', '--on-conflict', 'skip', ...other];
    expect((await longshipHere(skip, cwd)).stdout).toBe(
      'kitchen.ovpack → viking://resources/copies/kitchen  skipped: it exists\n',
    );
  });

  it('reports a missing file, a damaged pack and a bad option', async () => {
    const missing = await longshipHere(['import', 'nothing.ovpack', 'viking://resources'], cwd);
    expect(missing.stderr).toContain('NOT_FOUND');
    await writeFile(join(cwd, 'broken.ovpack'), 'not a zip');
    const broken = await longshipHere(['import', 'broken.ovpack', 'viking://resources'], cwd);
    expect(broken.stderr).toContain('CORRUPT_INPUT');
    const bad = await longshipHere(
      ['import', 'broken.ovpack', 'viking://resources', '--on-conflict', 'merge'],
      cwd,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--on-conflict takes fail, skip, overwrite');
    const help = await longshipHere(['export', '--help'], cwd);
    expect(help.stdout).toContain('longship export');
  });
});

// The store's own folder is never read by `longship add`, whatever links lead to it: paths are
// compared as the file system resolves them, not as they are written (issue 33).
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalInputs } from '../../src/cli/commands/add.js';
import { longship } from './run-cli.js';

let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-cli-paths-'));
});

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** A folder `name` in cwd with a note and a folder `store` holding a file, and `link` pointing at it. */
async function folderWithStore(name: string, link: string): Promise<string> {
  const folder = join(cwd, name);
  await mkdir(join(folder, 'store'), { recursive: true });
  await writeFile(join(folder, 'notes.md'), 'Notes about the garden.\n');
  await writeFile(join(folder, 'store/longship.json'), '{}\n');
  await symlink(folder, join(cwd, link), 'dir');
  return folder;
}

/** The paths of a folder input's entries. */
function entryPaths(inputs: Awaited<ReturnType<typeof readLocalInputs>>): string[] {
  return inputs.flatMap((input) => (input.kind === 'folder' ? input.entries.map((e) => e.path) : []));
}

describe('readLocalInputs leaves the store out through links', () => {
  it('the store named through a link into the folder added', async () => {
    const folder = await folderWithStore('through-store', 'to-store');
    const inputs = await readLocalInputs([folder], cwd, join(cwd, 'to-store/store'));
    expect(entryPaths(inputs)).toEqual(['notes.md']);
  });

  it('the folder added through a link, the store named as it is', async () => {
    const folder = await folderWithStore('through-folder', 'to-folder');
    const inputs = await readLocalInputs(['to-folder'], cwd, join(folder, 'store'));
    expect(entryPaths(inputs)).toEqual(['notes.md']);
  });

  it('the store itself, or a file in it, given through a link: INVALID_ARGUMENT', async () => {
    const folder = await folderWithStore('through-given', 'to-given');
    const store = join(folder, 'store');
    for (const path of ['to-given/store', 'to-given/store/longship.json']) {
      await expect(readLocalInputs([path], cwd, store)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: `${path} is the store's own folder; it cannot be added to itself`,
      });
    }
  });

  it('a store not made yet is compared as far as its folders exist', async () => {
    const folder = await folderWithStore('through-new', 'to-new');
    await expect(
      readLocalInputs(['through-new/later/x.md'], cwd, join(cwd, 'to-new/later')),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const inputs = await readLocalInputs([folder], cwd, join(cwd, 'to-new/later'));
    expect(entryPaths(inputs)).toEqual(['notes.md', 'store/longship.json']);
  });
});

describe('longship add DIR --store LINK/store, LINK pointing at DIR', () => {
  it("adds DIR's files and none of the store's, the second time as the first", async () => {
    const folder = join(cwd, 'dir');
    await mkdir(folder);
    await writeFile(join(folder, 'notes.md'), 'Notes about the garden.\n');
    await symlink(folder, join(cwd, 'link'), 'dir');
    for (const round of [1, 2]) {
      const run = await longship(['add', 'dir', '--store', 'link/store', '--json', '-q'], cwd);
      expect(run.code, run.stderr).toBe(0);
      const [result] = JSON.parse(run.stdout).results;
      expect(result.uris, `round ${round}`).toEqual(['viking://resources/dir/notes.md']);
      expect(result.skipped).toEqual([]);
    }
  });
});

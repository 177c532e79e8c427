// A folder from disk in Node and in Deno, from the installed package (docs/guide/retrieval.md,
// "Adding from disk"): 200 files added in one call; a new process adding them again writes nothing;
// one edit and one deletion are all the next run writes; and a string naming a file is refused,
// not indexed, while `{ path }` adds it.
import { execFile } from 'node:child_process';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
// The `deno` npm package's launcher: it runs the binary that package installed, offline.
const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');

const fileCount = 200;

/** Run by both runtimes in a fixture folder: `add` adds ./docs; `path` tries ./exists.md both ways. */
const script = `import process from 'node:process';
import { openLongship } from 'longship';

const longship = await openLongship({ store: './context' });
const counts = ({ uris, added, changed, unchanged, removed, skipped }) =>
  ({ documents: uris.length, added, changed, unchanged, removed, skipped: skipped.length });
if (process.argv.at(-1) === 'add') {
  // The store's sequence number moves with every commit: unchanged, nothing was written.
  const before = (await longship.store.meta()).seq;
  const result = counts(await longship.addResource({ path: './docs' }));
  const committed = (await longship.store.meta()).seq > before;
  console.log(JSON.stringify({ ...result, committed }));
} else {
  const names = async () => (await longship.ls('viking://resources')).map((n) => n.name).sort();
  const before = await names();
  const refused = await longship.addResource('./exists.md').then(
    () => ({ code: 'none' }),
    (error) => ({ code: error.code, message: error.message }),
  );
  const after = await names();
  const added = await longship.addResource({ path: './exists.md' });
  const text = await longship.read(added.uris[0]);
  console.log(JSON.stringify({ refused, before, after, added: counts(added), uri: added.uris[0], text }));
}
await longship.close();
`;

/** A note of a few sentences, different for each number and each edit. */
const note = (i: number, edit = '') =>
  `# Note ${i}\n\nThe harbour log for day ${i}${edit} records the tide, the wind and the cargo.\n` +
  `Crew member ${i % 17} kept the watch; the lantern was lit at ${(i % 12) + 8} o'clock.\n`;

const runtimes: [string, (fixture: string, step: string) => Promise<unknown>][] = [
  [
    'Node',
    async (cwd, step) => {
      const { stdout } = await run(process.execPath, ['folder.mjs', step], { cwd, timeout: 240_000 });
      return JSON.parse(stdout.trim().split('\n').at(-1)!);
    },
  ],
  [
    'Deno',
    async (cwd, step) => {
      // The permissions of the Deno quick start (examples/deno/main.ts), and no prompt for others.
      const flags = ['--no-prompt', '--allow-read', '--allow-write=./context'];
      const { stdout } = await run(process.execPath, [denoLauncher, 'run', ...flags, 'folder.mjs', step], {
        cwd,
        timeout: 240_000,
      });
      return JSON.parse(stdout.trim().split('\n').at(-1)!);
    },
  ],
];

describe.each(runtimes)('a folder from disk in %s, from the installed package', (name, runStep) => {
  it('adds 200 files in one call, then writes only what changed, and never indexes a path as text', async () => {
    const fixture = join(inject('consumerRoot'), `local-folder-${name.toLowerCase()}`);
    await mkdir(join(fixture, 'docs'), { recursive: true });
    await writeFile(join(fixture, 'folder.mjs'), script);
    const noteName = (i: number) => `note-${String(i).padStart(3, '0')}.md`;
    for (let i = 0; i < fileCount; i++) await writeFile(join(fixture, 'docs', noteName(i)), note(i));
    const exists = '# Exists\n\nThis file is on disk beside the folder.\n';
    await writeFile(join(fixture, 'exists.md'), exists);

    // The 200 documents and the folder's directory.
    expect(await runStep(fixture, 'add')).toEqual({
      documents: fileCount,
      added: fileCount + 1,
      changed: 0,
      unchanged: 0,
      removed: 0,
      skipped: 0,
      committed: true,
    });

    // A new process finds every document as it was and writes nothing.
    expect(await runStep(fixture, 'add')).toEqual({
      documents: fileCount,
      added: 0,
      changed: 0,
      unchanged: fileCount + 1,
      removed: 0,
      skipped: 0,
      committed: false,
    });

    // The edited note and the folder's directory above it (its summary covers its files) change.
    await writeFile(join(fixture, 'docs', noteName(3)), note(3, ', rewritten,'));
    await unlink(join(fixture, 'docs', noteName(7)));
    expect(await runStep(fixture, 'add')).toEqual({
      documents: fileCount - 1,
      added: 0,
      changed: 2,
      unchanged: fileCount - 2,
      removed: 1,
      skipped: 0,
      committed: true,
    });

    const paths = (await runStep(fixture, 'path')) as Record<string, unknown>;
    expect(paths.refused).toEqual({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(
        /a string is content, never a location; to add it, pass addResource\(\{ path: ".*exists\.md" \}\)/,
      ),
    });
    // Nothing was written for the refused string; { path } adds the file as itself.
    expect(paths.before).toEqual(['docs']);
    expect(paths.after).toEqual(['docs']);
    expect(paths.added).toMatchObject({ documents: 1, added: 1 });
    expect(paths.uri).toBe('viking://resources/exists.md');
    expect(paths.text).toBe(exists);
  }, 600_000);
});

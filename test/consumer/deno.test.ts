// Consumer test 4: the Deno quick start (examples/deno/main.ts), run in the installed project with
// exactly the permissions its first line documents, and no prompt for any other.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
// The `deno` npm package's launcher: it runs the binary that package installed, offline.
const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const example = fileURLToPath(new URL('../../examples/deno/main.ts', import.meta.url));

/** The flags of the `deno run … main.ts` command in the example's first comment. */
async function documentedFlags(): Promise<string[]> {
  const command = /`deno run ((?:--[\w-]+(?:=\S+)? )*)main\.ts`/.exec(await readFile(example, 'utf8'));
  if (!command) throw new Error('examples/deno/main.ts does not say how to run it');
  return command[1]!.trim().split(/\s+/).filter(Boolean);
}

describe('Deno, from the installed package', () => {
  const root = inject('consumerRoot');

  it('runs the quick start with only the documented permissions and finds by meaning', async () => {
    const fixture = join(root, 'deno');
    await mkdir(fixture, { recursive: true });
    await copyFile(example, join(fixture, 'main.ts'));
    const flags = await documentedFlags();
    expect(flags).toEqual(['--allow-read', '--allow-write=./context']);
    const runOnce = () =>
      run(process.execPath, [denoLauncher, 'run', '--no-prompt', ...flags, 'main.ts'], {
        cwd: fixture,
        timeout: 120_000,
      });
    const { stdout } = await runOnce();
    const lines = stdout.trim().split('\n');
    // No word of the query is in either document: only the bundled model's vectors find it, and
    // score it (calibrated, such a match scores low, but above 0: docs/guide/retrieval.md).
    expect(lines[0]).toMatch(/^viking:\/\/resources\/longships\.md 0\.\d{3}$/);
    expect(Number(lines[0]!.split(' ')[1])).toBeGreaterThan(0.01);
    // A new process reopens ./context, adds nothing, and finds the same, scores included.
    expect((await runOnce()).stdout).toBe(stdout);
  });

  it('needs --allow-read: without it the script stops at the first read', async () => {
    const fixture = join(root, 'deno');
    const failed = await run(process.execPath, [denoLauncher, 'run', '--no-prompt', 'main.ts'], {
      cwd: fixture,
      timeout: 120_000,
    }).then(
      () => undefined,
      (error: { stderr: string }) => error.stderr,
    );
    expect(failed).toMatch(/Requires read access/);
  });
});

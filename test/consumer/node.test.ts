// Consumer test 3 of issue 23: the Node quick start (examples/node/quick-start.mjs), run as a user
// runs it in a project that installed the packed package: the bundled model, a folder store. It
// indexes and finds; a new process that only opens the same path gets the same results and scores.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const example = fileURLToPath(new URL('../../examples/node/quick-start.mjs', import.meta.url));

// Opens the store the quick start left and asks the same question, adding nothing.
const reopen = `import { openLongship } from 'longship';
const longship = await openLongship({ store: './context' });
const { resources } = await longship.find('Where does the cat nap?');
console.log(JSON.stringify({ persistent: longship.persistent, resources: resources.map(({ uri, score }) => ({ uri, score })) }));
await longship.close();
`;

async function node(cwd: string, script: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, [script], { cwd, timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('the Node quick start', () => {
  it('keeps what it indexed in ./context: a new process finds the same, with the same scores', async () => {
    const fixture = join(inject('consumerRoot'), 'node-quick-start');
    await mkdir(fixture, { recursive: true });
    await copyFile(example, join(fixture, 'quick-start.mjs'));
    await writeFile(join(fixture, 'reopen.mjs'), reopen);

    const first = (await node(fixture, 'quick-start.mjs')) as Array<{ uri: string; score: number }>;
    expect(first[0]?.uri).toBe('viking://resources/cat.md');
    expect(first.every(({ score }) => typeof score === 'number' && score > 0 && score <= 1)).toBe(true);
    expect(await readdir(join(fixture, 'context'))).toContain('longship.json');

    expect(await node(fixture, 'reopen.mjs')).toEqual({ persistent: true, resources: first });
    // The quick start run again finds its documents there and adds nothing: the same answer.
    expect(await node(fixture, 'quick-start.mjs')).toEqual(first);
  }, 300_000);
});

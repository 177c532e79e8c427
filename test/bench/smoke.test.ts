// Runs every benchmark in test/bench/smokes.ts at its tiny size, as its npm script runs it: a child
// process that must exit 0 and leave well-formed JSON and markdown, with the figures a broken run
// would lack, in a temporary folder. bench/results/ must be left as it was. docs/internals/testing.md.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { folderName, nameOf, needsSmoke, type Smoke, smokes } from './smokes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const all = mkdtempSync(join(tmpdir(), 'longship-bench-smoke-'));
afterAll(() => rmSync(all, { recursive: true, force: true }));

const folderOf = (smoke: Smoke) => join(all, folderName(nameOf(smoke)));
const argsOf = (smoke: Smoke) =>
  smoke.flags
    .split(' ')
    .map((flag) => flag.replace(/^OUT\//, `${folderOf(smoke)}/`).replace(/^SMOKES\//, `${all}/`));
const finished = new Map<string, Promise<void>>();
/** Seconds a smoke may take, with the time it may wait for the one it runs after. */
const timeoutOf = (smoke: Smoke): number => {
  const before = smokes.find((other) => nameOf(other) === smoke.after);
  return (smoke.timeoutS ?? 150) + (before ? timeoutOf(before) : 0);
};

describe('the benchmarks at a tiny size', () => {
  const results = resultsFiles();

  it('cover every benchmark script in package.json', () => {
    const scripts = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts);
    const missing = scripts.filter(needsSmoke).filter((script) => !smokes.some((s) => s.script === script));
    expect(missing).toEqual([]);
  });

  for (const smoke of smokes) {
    it.concurrent(
      `npm run ${smoke.script} -- ${smoke.flags}`,
      async () => {
        let done!: () => void;
        finished.set(nameOf(smoke), new Promise((resolve) => (done = resolve)));
        try {
          if (smoke.after) {
            const before = finished.get(smoke.after);
            if (!before) throw new Error(`${nameOf(smoke)} reads what ${smoke.after} writes: run that too`);
            await before;
          }
          const dir = folderOf(smoke);
          const output = await npmRun(smoke, dir);
          for (const file of smoke.writes) {
            expect(existsSync(join(dir, file)), `${file} was not written\n${output}`).toBe(true);
          }
          const texts = smoke.writes.map((file) => readFileSync(join(dir, file), 'utf8'));
          for (const [i, file] of smoke.writes.entries()) {
            expect(texts[i], file).not.toMatch(/\bNaN\b|\bundefined\b/);
            if (file.endsWith('.md')) expect(texts[i], file).toMatch(/^\|.*\|\s*$/m);
          }
          const json = smoke.writes[0]?.endsWith('.json') ? JSON.parse(texts[0]!) : undefined;
          smoke.check(json, output);
        } finally {
          done();
        }
      },
      timeoutOf(smoke) * 1000,
    );
  }

  // After the smokes: Vitest starts a test that is not concurrent once those before it are done.
  it('leave bench/results/ as it was', () => {
    expect(resultsFiles()).toEqual(results);
  });
});

/** Runs the smoke's npm script in its folder; resolves with its output, or fails with it. */
function npmRun(smoke: Smoke, dir: string): Promise<string> {
  // Their caches and scratch folders (vectors, embeddings, browser profiles) in the smoke's own folder.
  const scratch = join(dir, 'tmp');
  mkdirSync(scratch, { recursive: true });
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['run', '--silent', smoke.script, '--', ...argsOf(smoke)],
      { cwd: root, env: { ...process.env, TMPDIR: scratch }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        if (!error) resolve(output);
        else
          reject(
            new Error(`${nameOf(smoke)} failed (${error.code ?? error.signal}):\n${output.slice(-4000)}`),
          );
      },
    );
  });
}

/** Every file under bench/results/ with its size and modification time. */
function resultsFiles(): Record<string, string> {
  const dir = join(root, 'bench/results');
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = statSync(join(dir, name));
    if (stat.isFile()) files[name] = `${stat.size} ${stat.mtimeMs}`;
  }
  return files;
}

// The file store's damage fuzz run long (docs/guide/file-store.md, "Recovery"):
//
//   npx tsx test/fuzz/file-damage-run.ts --cases 100000 [--seed 7] [--dir /dev/shm]
//
// The seed defaults to the clock's and is printed first; a failure prints fast-check's report (the
// seed, the path and the shrunk case) and exits 1. --dir puts the stores under another folder (a
// RAM disk spares the disk its flushes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadUsearch } from '../../src/vector/usearch-module.js';
import { runFileDamage } from './file-damage.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const known = new Set(['--cases', '--seed', '--dir']);
const unknown = args.filter((arg, i) => arg.startsWith('--') && !known.has(arg) && i % 2 === 0);
if (unknown.length > 0) {
  console.error(`unknown option ${unknown[0]}: give --cases <n>, --seed <n>, --dir <folder>`);
  process.exit(2);
}
const cases = Number(option('cases') ?? 10_000);
const seed = Number(option('seed') ?? Date.now() % 1_000_000);
const root = mkdtempSync(join(option('dir') ?? tmpdir(), 'longship-file-fuzz-'));
console.log(`file store damage fuzz: ${cases} cases, seed ${seed}, in ${root}`);
const started = performance.now();
const rate = (done: number) => {
  const seconds = (performance.now() - started) / 1000;
  return `${done} cases in ${seconds.toFixed(0)} s (${(done / seconds).toFixed(1)} a second)`;
};
try {
  const { outcomes } = await runFileDamage({
    seed,
    cases,
    root,
    usearch: await loadUsearch(),
    onCase: (done) => {
      if (done % 1000 === 0) console.log(rate(done));
    },
  });
  console.log(`passed: ${rate(cases)}, seed ${seed}`);
  for (const [end, n] of [...outcomes].sort()) console.log(`  ${end}: ${n}`);
} catch (error) {
  console.error(`failed (seed ${seed}):`, error);
  process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}

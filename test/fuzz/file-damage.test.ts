// The file store's damage fuzz (docs/guide/file-store.md, "Recovery"), bounded: seeded cases, each a store
// built, one of its files lost, truncated or corrupted, and the reopen checked against the recovery
// table. LONGSHIP_FILE_FUZZ_SEED=<n> replays a seed; test/fuzz/file-damage-run.ts runs it long.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadUsearch } from '../../src/vector/usearch-module.js';
import { runFileDamage } from './file-damage.js';

const seed = Number(process.env.LONGSHIP_FILE_FUZZ_SEED ?? 33);
const CASES = 300;

it(`reopens a damaged file store as its recovery table says, ${CASES} cases`, async () => {
  const root = mkdtempSync(join(tmpdir(), 'longship-file-fuzz-'));
  try {
    const started = performance.now();
    const { cases, outcomes } = await runFileDamage({
      seed,
      cases: CASES,
      root,
      usearch: await loadUsearch(),
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`file store damage fuzz: ${cases} cases in ${seconds.toFixed(1)} s (seed ${seed})`);
    console.log(
      [...outcomes]
        .sort()
        .map(([end, n]) => `  ${end}: ${n}`)
        .join('\n'),
    );
    expect(cases).toBe(CASES);
    // The cases reach both ends of the table: typed refusals and recoveries, of every kind of file.
    const ends = [...outcomes.keys()];
    for (const end of ['log truncate: open', 'log flip: STORE_ERROR', 'checkpoint lose: STORE_ERROR']) {
      expect(ends).toContain(end);
    }
    for (const file of ['longship.json', 'snapshot', 'snapshots/', 'lock', 'checkpoint.tmp', 'next log']) {
      expect(ends.some((end) => end.startsWith(`${file} `))).toBe(true);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 180_000);

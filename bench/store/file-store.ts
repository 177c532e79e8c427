// npx tsx bench/store/file-store.ts [--n 3000]
// The file store's two costs a user feels: how long a commit takes (it is flushed to disk before it
// resolves) and how long a store of n documents takes to reopen. Documents are written through
// openLongship({ store: path }) with a 512-dimension hash embedder (the bundled model's size, none of its
// time), then the store is reopened alone (openFileStore) and whole (openLongship, from snapshots).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { indexesOf, openLongship } from '../../src/engine.js';
import { openFileStore } from '../../src/store/file/file-open.js';
import { median } from '../lib/stats.js';

const n = Number(process.argv[process.argv.indexOf('--n') + 1] || 3000);
const dims = 512;
const embedder = functionEmbedder({
  id: 'bench/hash-512',
  dimensions: dims,
  embed: async (texts) =>
    texts.map((text) => {
      const v = new Float32Array(dims);
      for (let i = 0; i < text.length; i++) v[(text.charCodeAt(i) * 31 + i) % dims]! += 1;
      return v;
    }),
});
const words = 'river lake mountain forest harbour bridge castle meadow valley island desert glacier'.split(
  ' ',
);
const text = (i: number) =>
  `${Array.from({ length: 200 }, (_, j) => words[(i * 7 + j * 13) % words.length]).join(' ')} doc ${i}.`;

function folderBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const stat = statSync(join(dir, name));
    if (stat.isFile()) total += stat.size;
  }
  return total;
}

const root = mkdtempSync(join(tmpdir(), 'longship-bench-file-store-'));
const path = join(root, 'context');
try {
  const longship = await openLongship({ store: path, embedder });
  const writes: number[] = [];
  const commits: number[] = [];
  const store = longship.store;
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await longship.write(`viking://resources/docs/d${Math.floor(i / 100)}/doc${i}.md`, text(i), {
      parents: true,
    });
    writes.push(performance.now() - start);
  }
  // A bare commit: one use recorded (a node and its change, flushed), as find() makes.
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    await store.commit({ useNodes: [{ uri: `viking://resources/docs/d0/doc${i}.md`, at: Date.now() }] });
    commits.push(performance.now() - start);
  }
  await longship.close();
  const bytes = folderBytes(path);

  const storeOpens: number[] = [];
  const longshipOpens: number[] = [];
  for (let r = 0; r < 5; r++) {
    let start = performance.now();
    const reopened = await openFileStore(path);
    storeOpens.push(performance.now() - start);
    await reopened.close();
    start = performance.now();
    const whole = await openLongship({ store: path, embedder });
    longshipOpens.push(performance.now() - start);
    if (indexesOf(whole).openedFrom.vector !== 'snapshot')
      throw new Error('rebuilt, not opened from snapshots');
    await whole.close();
  }
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(
    JSON.stringify(
      {
        documents: n,
        folderMB: +(bytes / 2 ** 20).toFixed(1),
        writeMedian: ms(median(writes)),
        commitMedian: ms(median(commits)),
        reopenStoreMedian: ms(median(storeOpens)),
        reopenLongshipMedian: ms(median(longshipOpens)),
        files: readdirSync(path),
      },
      null,
      2,
    ),
  );
} finally {
  if (!process.env.KEEP) rmSync(root, { recursive: true, force: true });
  else console.log(path);
}

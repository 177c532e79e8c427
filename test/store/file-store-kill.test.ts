// kill -9 at 20 random points of ingestion: after each, the store reopens, passes verify() (the
// store's invariants and the indexes' agreement with it) and holds every write the child had
// acknowledged. LONGSHIP_KILL_SEED=<n> replays a run.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { openFileStore } from '../../src/store/file/file-open.js';
import { startChild } from './file-child.js';
import { tempFolder } from './file-harness.js';
import { documentText, wordEmbedder } from './kill-fixture.js';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KILLS = 20;

it(`keeps every acknowledged write through ${KILLS} kills at random points`, async () => {
  const seed = Number(process.env.LONGSHIP_KILL_SEED ?? Date.now() % 1_000_000);
  console.log(`file store kill test: LONGSHIP_KILL_SEED=${seed}`);
  const random = mulberry32(seed);
  const dir = join(tempFolder(), 'store');
  const acknowledged = new Map<string, string>();
  let killedWhileWriting = 0;
  for (let run = 0; run < KILLS; run++) {
    const child = startChild(['ingest', dir, String(run)]);
    // Some kills land while the child opens the store (replaying, taking over the lock), most while
    // it writes, commits, checkpoints and snapshots: those wait for its first acknowledged write, so
    // that a slow or busy machine does not move them all before it.
    if (random() < 0.8) {
      await child.line('ready');
      if (random() < 0.75) await child.line('ack ');
    }
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 400)));
    child.process.kill('SIGKILL');
    const ended = await child.exited;
    expect(ended.signal, child.stderr()).toBe('SIGKILL');
    for (const line of child.lines) {
      const match = /^ack (viking:\/\/resources\/kill\/run(\d+)\/doc(\d+)\.md)$/.exec(line);
      if (match) acknowledged.set(match[1]!, documentText(Number(match[2]), Number(match[3])));
    }
    if (child.lines.some((line) => line.startsWith('ack '))) killedWhileWriting++;

    const store = await openFileStore(dir, {
      embedder: { id: wordEmbedder.id, dimensions: wordEmbedder.dimensions },
    });
    const longship = await openLongship({ store, embedder: wordEmbedder });
    try {
      const report = await longship.verify();
      expect(report, `seed ${seed}, kill ${run}`).toEqual({ ok: true, problems: [] });
      const found = await store.nodes([...acknowledged.keys()]);
      const missing = [...acknowledged.keys()].filter((_, i) => !found[i]);
      expect(missing, `seed ${seed}, kill ${run}`).toEqual([]);
      // Spot checks of content, and that the indexes find what the store holds.
      const uris = [...acknowledged.keys()];
      for (const uri of [uris.at(-1), uris[Math.floor(random() * uris.length)]]) {
        if (uri) expect(await longship.read(uri)).toBe(acknowledged.get(uri));
      }
      if (uris.length > 0) {
        const total = (await longship.find('river lake', { limit: 5 })).total;
        expect(total).toBeGreaterThan(0);
      }
    } finally {
      await longship.close();
    }
  }
  console.log(
    `${acknowledged.size} writes acknowledged over ${KILLS} kills (${killedWhileWriting} mid-ingestion)`,
  );
  expect(killedWhileWriting).toBeGreaterThan(KILLS / 2);
}, 120_000);

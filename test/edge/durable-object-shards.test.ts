// A corpus over four Durable Objects under Miniflare (workerd, SQLite storage, RPC between objects):
// its find() equals that of one object holding every document, rank for rank and score for score;
// after Miniflare starts again over the same storage, the shards reopen and answer the same; a shard
// slower than the deadline is left out and named.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchedContext } from '../../src/retrieve/results.js';
import type { ShardedFindResult } from '../../src/shard/sharded-corpus.js';
import { folders, queries } from '../shard/corpus-fixture.js';
import { bundleWorker } from './workerd-bundle.js';

const worker = fileURLToPath(new URL('./durable-object-shards-worker.ts', import.meta.url));
const wasm = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

let folder: string;
let script: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-shards-'));
  script = await bundleWorker(worker);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function start(): Promise<Miniflare> {
  return new Miniflare({
    compatibilityDate: '2026-04-01',
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: script },
      { type: 'CompiledWasm', path: 'usearch.wasm', contents: await readFile(wasm) },
    ],
    durableObjects: { SHARD: { className: 'ShardObject', useSQLite: true } },
    durableObjectsPersist: folder,
  });
}

async function post<T>(miniflare: Miniflare, path: string, body: unknown): Promise<T> {
  const response = await miniflare.dispatchFetch(`http://corpus${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}

type Compared = { query: string; sharded: ShardedFindResult; single: MatchedContext[] }[];

function expectSame(compared: Compared): number {
  let results = 0;
  for (const { sharded, single } of compared) {
    expect(sharded.missing).toEqual([]);
    expect(sharded.resources.map((item) => item.uri)).toEqual(single.map((item) => item.uri));
    for (const [i, item] of sharded.resources.entries()) {
      expect(Math.abs(item.score - single[i]!.score)).toBeLessThan(1e-6);
      expect(item.matchReason).toBe(single[i]!.matchReason);
    }
    results += single.length;
  }
  return results;
}

describe('a corpus over Durable Objects', () => {
  it('answers as one object of the whole corpus, before and after a restart, and names a late shard', async () => {
    let miniflare = await start();
    let before: Compared;
    try {
      await post(miniflare, '/load', folders);
      before = await post<Compared>(miniflare, '/compare', queries);
      expect(expectSame(before)).toBeGreaterThan(500);
    } finally {
      await miniflare.dispose();
    }
    miniflare = await start();
    try {
      // Reopened from their SQLite storage: the same answers.
      const after = await post<Compared>(miniflare, '/compare', queries.slice(0, 25));
      expectSame(after);
      expect(after.map((each) => each.sharded.resources)).toEqual(
        before.slice(0, 25).map((each) => each.sharded.resources),
      );

      await post(miniflare, '/delay', { shard: 2, ms: 5000 });
      const [late] = await post<Compared>(miniflare, '/compare', ['harbour ferry lantern']);
      expect(late!.sharded.missing).toEqual([
        { shard: 2, reason: 'timeout', message: expect.stringContaining('2000 ms') },
      ]);
      expect(late!.sharded.resources.length).toBeGreaterThan(0);
    } finally {
      await miniflare.dispose();
    }
  }, 240_000);
});

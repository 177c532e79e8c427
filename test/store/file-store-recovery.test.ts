// What an open makes of a file store that lost, or holds damaged, one of its files (issue 33): a
// typed STORE_ERROR, or a store that passes verify() and whose every find() hit reads; never a log
// deleted. The recovery table in docs/guide/file-store.md; the fuzz over it: test/fuzz/file-damage.test.ts.
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { readFrames } from '../../src/store/file/file-frames.js';
import { openFileStore } from '../../src/store/file/file-open.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import { refusal, tempFolder } from './file-harness.js';

const R = 'viking://resources/docs';
const EMBEDDER = { id: hashEmbedder.id, dimensions: hashEmbedder.dimensions };
const WORDS = 'river lake mountain forest harbour bridge castle meadow valley island'.split(' ');
const text = (i: number) => `Document ${i} tells of the ${WORDS[i % 10]} by the ${WORDS[(i * 3) % 10]}.`;

/** `count` documents written through Longship, closed: its snapshots are written at the close. */
async function build(dir: string, count: number, checkpointAfterBytes?: number): Promise<void> {
  const store = await openFileStore(dir, { embedder: EMBEDDER, checkpointAfterBytes });
  const longship = await openLongship({ store, embedder: hashEmbedder });
  for (let i = 0; i < count; i++) await longship.write(`${R}/d${i}.md`, text(i), { parents: true });
  await longship.close();
}

/** The hits of a few queries that do not read. */
async function phantomHits(longship: Longship): Promise<string[]> {
  const phantoms: string[] = [];
  for (const query of WORDS.slice(0, 4)) {
    const found = await longship.find(query, { limit: 20 });
    for (const hit of [...found.resources, ...found.memories, ...found.skills]) {
      if (!(await longship.store.node(hit.uri))) phantoms.push(hit.uri);
      else if (hit.isLeaf) await longship.read(hit.uri);
    }
  }
  return phantoms;
}

function logs(dir: string): string[] {
  return readdirSync(dir).filter((name) => /^log-\d+$/.test(name));
}

describe('a lost checkpoint', () => {
  it('fails the open with STORE_ERROR and deletes no log', async () => {
    const dir = join(tempFolder(), 'store');
    await build(dir, 30, 4096);
    const [log] = logs(dir);
    expect(log).not.toBe('log-0');
    const bytes = readFileSync(join(dir, log!));
    rmSync(join(dir, 'checkpoint'));
    const error = await refusal(openLongship({ store: dir, embedder: hashEmbedder }));
    expect(error.code).toBe('STORE_ERROR');
    expect(error.message).toContain('checkpoint');
    expect(logs(dir)).toEqual([log]);
    expect(readFileSync(join(dir, log!))).toEqual(bytes);
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  }, 60_000);
});

describe('a lost first log', () => {
  it('fails the open with STORE_ERROR rather than open an empty store', async () => {
    const dir = join(tempFolder(), 'store');
    await build(dir, 3);
    expect(logs(dir)).toEqual(['log-0']);
    rmSync(join(dir, 'log-0'));
    const error = await refusal(openFileStore(dir));
    expect(error.code).toBe('STORE_ERROR');
    expect(error.message).toContain('log-0');
    expect(logs(dir)).toEqual([]);
  }, 60_000);
});

describe('a lost marker', () => {
  it("fails the open with STORE_ERROR, not as someone else's folder, touching nothing", async () => {
    const dir = join(tempFolder(), 'store');
    await build(dir, 3);
    rmSync(join(dir, 'longship.json'));
    const before = readdirSync(dir, { recursive: true });
    const error = await refusal(openFileStore(dir));
    expect(error.code).toBe('STORE_ERROR');
    expect(error.message).toContain('longship.json');
    expect(readdirSync(dir, { recursive: true })).toEqual(before);
  }, 60_000);
});

describe('a log the checkpoint does not lead to', () => {
  it('fails the open with STORE_ERROR and removes nothing', async () => {
    const dir = join(tempFolder(), 'store');
    await build(dir, 30, 4096);
    const [log] = logs(dir);
    const next = `log-${Number(log!.slice(4)) + 1}`;
    // As if an older checkpoint were put back: a log with commits past it.
    writeFileSync(join(dir, next), readFileSync(join(dir, log!)));
    const error = await refusal(openFileStore(dir));
    expect(error.code).toBe('STORE_ERROR');
    expect(error.message).toContain(next);
    expect(logs(dir).sort()).toEqual([log, next].sort());
  }, 60_000);
});

describe('a damaged log', () => {
  it('fails the open when intact commits follow the damage, touching nothing', async () => {
    const dir = join(tempFolder(), 'store');
    await build(dir, 20);
    const file = join(dir, 'log-0');
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0x10;
    writeFileSync(file, bytes);
    const error = await refusal(openLongship({ store: dir, embedder: hashEmbedder }));
    expect(error.code).toBe('STORE_ERROR');
    expect(error.message).toContain(file);
    expect(readFileSync(file)).toEqual(bytes);
  }, 60_000);

  it('drops the snapshots that cover commits a cut took away: every hit reads', async () => {
    const dir = join(tempFolder(), 'store');
    await build(dir, 20);
    const file = join(dir, 'log-0');
    // The log loses its last ten frames whole (as if they never reached the disk), snapshots stay.
    const bytes = readFileSync(file);
    let keep = 0;
    for (const payload of readFrames(bytes).payloads.slice(0, -10)) {
      keep = payload.byteOffset - bytes.byteOffset + ((payload.length + 3) & ~3);
    }
    truncateSync(file, keep);
    const longship = await openLongship({ store: dir, embedder: hashEmbedder });
    try {
      expect(await longship.verify()).toEqual({ ok: true, problems: [] });
      expect(await phantomHits(longship)).toEqual([]);
    } finally {
      await longship.close();
    }
  }, 60_000);
});

describe('a truncated snapshot', () => {
  it('reads as absent at the first reopen: verify() is clean', async () => {
    const dir = join(tempFolder(), 'store');
    await build(dir, 10);
    const file = join(dir, 'snapshots', 'hnsw.snap');
    truncateSync(file, readFileSync(file).length - 5);
    const longship = await openLongship({ store: dir, embedder: hashEmbedder });
    try {
      expect(await longship.verify()).toEqual({ ok: true, problems: [] });
      expect(await phantomHits(longship)).toEqual([]);
    } finally {
      await longship.close();
    }
  }, 60_000);
});

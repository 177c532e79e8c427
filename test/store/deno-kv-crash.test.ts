// A commit too large for one Deno KV atomic batch, cut short after each of its batches: the store a
// new process opens (the same KV, without the crash) passes verify(), holds every acknowledged
// commit, and the interrupted one whole or not at all (docs/guide/deno-kv.md, "Large commits").
import { openKv } from '@deno/kv';
import { describe, expect, it } from 'vitest';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openLongship } from '../../src/engine.js';
import type { DenoKv, KvAtomicOperation } from '../../src/store/deno-kv/kv-handle.js';
import { openDenoKvStore } from '../../src/store/deno-kv/open-deno-kv-store.js';
import type { FullStore } from '../../src/store/full-store.js';
import { dir, node, posting, vector } from '../../src/testing/records.js';

const R = 'viking://resources';
const DIMENSIONS = 8;
const EMBEDDER = { id: 'test/hash', dimensions: DIMENSIONS };
const BIG = 400;

/** `kv`, whose atomic commits fail, as a killed process's would, once `limit` of them have. */
function crashing(kv: DenoKv, limit: number): DenoKv & { commits: number } {
  const wrapper = {
    commits: 0,
    get: kv.get.bind(kv),
    getMany: kv.getMany.bind(kv),
    list: kv.list.bind(kv),
    atomic(): KvAtomicOperation {
      const steps: ((op: KvAtomicOperation) => void)[] = [];
      const later = (step: (op: KvAtomicOperation) => void) => {
        steps.push(step);
        return op;
      };
      const op: KvAtomicOperation = {
        check: (...checks) => later((o) => o.check(...checks)),
        set: (key, value) => later((o) => o.set(key, value)),
        delete: (key) => later((o) => o.delete(key)),
        async commit() {
          if (wrapper.commits >= limit) throw new Error('the process was killed');
          const real = kv.atomic();
          for (const step of steps) step(real);
          const result = await real.commit();
          wrapper.commits++;
          return result;
        },
      };
      return op;
    },
  };
  return wrapper as DenoKv & { commits: number };
}

/** One small acknowledged commit, then one too large for a batch: the tree's root and 400 files. */
async function writeBoth(store: FullStore): Promise<{ big: string[]; seq: number }> {
  const first = await store.allocateKeys(2);
  await store.commit({ putNodes: [dir(R, first)], putPostings: [posting(first)] });
  const small = `${R}/small.md`;
  await store.commit({ putNodes: [node(small, first + 1)], putPostings: [posting(first + 1)] });
  const keys = await store.allocateKeys(BIG * 3);
  const big = Array.from({ length: BIG }, (_, i) => `${R}/big-${String(i).padStart(3, '0')}.md`);
  // One file's content past a value's limit, so it is stored in parts too.
  const long = 'the river floods every spring. '.repeat(4000);
  const seq = await store.commit({
    putNodes: big.map((uri, i) => node(uri, keys + 3 * i, i === 7 ? { l2: long } : {})),
    putPostings: big.map((_, i) => posting(keys + 3 * i, i === 7 ? long : `body ${i}`)),
    putVectors: big.flatMap((_, i) => [
      vector(keys + 3 * i + 1, keys + 3 * i, 0, DIMENSIONS),
      vector(keys + 3 * i + 2, keys + 3 * i, 1, DIMENSIONS),
    ]),
  });
  return { big, seq };
}

const embedder = functionEmbedder({
  ...EMBEDDER,
  embed: async (texts) => texts.map((t) => new Float32Array(DIMENSIONS).map((_, i) => t.charCodeAt(i) || 1)),
});

describe('DenoKvStore, a commit larger than an atomic batch', () => {
  it('is written in several batches, and read back whole', async () => {
    const kv = crashing(await openKv(':memory:'), Number.POSITIVE_INFINITY);
    const store = await openDenoKvStore(kv, { embedder: EMBEDDER });
    const before = kv.commits;
    const { big, seq } = await writeBoth(store);
    expect(kv.commits - before).toBeGreaterThan(8);
    const read = await store.nodes(big);
    expect(read.every((n) => n !== undefined)).toBe(true);
    expect(read[7]?.l2?.length).toBe('the river floods every spring. '.length * 4000);
    expect((await store.posting(read[7]!.key))?.body.length).toBe(read[7]?.l2?.length);
    expect((await store.vectorsOfNode(read[399]!.key)).map((v) => v.chunk)).toEqual([0, 1]);
    expect((await store.changesSince(seq - 1))[0]?.addedNodeKeys.length).toBe(BIG);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('leaves it whole or absent when the process dies after any of its batches', async () => {
    // How many commits the writes take, and how many come before the large one.
    const counting = crashing(await openKv(':memory:'), Number.POSITIVE_INFINITY);
    await writeBoth(await openDenoKvStore(counting, { embedder: EMBEDDER }));
    const total = counting.commits;
    const outcomes = new Set<string>();
    for (let limit = 0; limit < total; limit++) {
      const kv = await openKv(':memory:');
      const dying = crashing(kv, limit);
      const wrote = await openDenoKvStore(dying, { embedder: EMBEDDER })
        .then(writeBoth)
        .catch(() => undefined);
      if (wrote) continue;
      const longship = await openLongship({ store: await openDenoKvStore(kv), embedder });
      const at = `killed after ${limit} commits`;
      expect(await longship.store.verify(), at).toEqual({ ok: true, problems: [] });
      const small = await longship.store.node(`${R}/small.md`);
      const big = (await longship.store.descendants(R)).filter((n) => n.uri.startsWith(`${R}/big-`));
      // The large commit whole or not at all, and never without the small one acknowledged before it.
      expect([0, BIG], at).toContain(big.length);
      if (!small) expect(big.length, at).toBe(0);
      outcomes.add(!small ? 'before' : big.length === 0 ? 'absent' : 'whole');
      await longship.close();
    }
    expect([...outcomes].sort()).toEqual(['absent', 'before', 'whole']);
  }, 120_000);
});

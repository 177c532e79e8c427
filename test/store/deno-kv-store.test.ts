// The Deno KV store against Deno's own KV engine in Node (@deno/kv, in memory): both contract suites,
// each test on a KV of its own.
import { type KvKey, openKv } from '@deno/kv';
import { describe, expect, it } from 'vitest';
import { KvKeys } from '../../src/store/deno-kv/kv-keys.js';
import { openDenoKvStore } from '../../src/store/deno-kv/open-deno-kv-store.js';
import type { OpenStoreOptions } from '../../src/store/store.js';
import { changeLogContract } from '../../src/testing/change-log-contract.js';
import type { SnapshotTamper } from '../../src/testing/harness.js';
import { codeOf, EMBEDDER, node, withContent } from '../../src/testing/records.js';
import { R, seed } from '../../src/testing/sample-tree.js';
import { storeContract } from '../../src/testing/store-contract.js';

type Kv = Awaited<ReturnType<typeof openKv>>;
const keys = new KvKeys('longship');

/** Damage to the snapshots' pieces, as a disk or a careless hand would do it. */
function tamper(kv: Promise<Kv>): SnapshotTamper {
  const pieces = async () => {
    const found: { key: KvKey; value: Uint8Array }[] = [];
    for await (const e of (await kv).list<Uint8Array>({ prefix: keys.snapshotPieces() as KvKey }))
      found.push(e);
    return found;
  };
  return {
    async chunkIds() {
      const ids = new Map<string, [string, string, number]>();
      for (const { key } of await pieces()) {
        const [name, generation, index] = key.slice(2, 5) as [string, string, number];
        ids.set(`${name}/${generation}/${index}`, [name, generation, index]);
      }
      return [...ids.values()];
    },
    async corruptSnapshot(name, how, index = 0) {
      const of = (await pieces()).filter(({ key }) => key[2] === name && key[4] === index);
      if (how === 'drop-chunk') {
        for (const { key } of of) await (await kv).delete(key);
        return;
      }
      const middle = of[Math.floor(of.length / 2)]!;
      const bytes = middle.value.slice();
      bytes[bytes.length >> 1]! ^= 0xff;
      await (await kv).set(middle.key, bytes);
    },
  };
}

function harness() {
  const kv = openKv(':memory:');
  return {
    open: async (options?: OpenStoreOptions) => openDenoKvStore(await kv, options),
    tamper: tamper(kv),
  };
}

storeContract('DenoKvStore', harness);
changeLogContract('DenoKvStore', harness);

describe('openDenoKvStore', () => {
  it('hands a snapshot to its reader whole, never its pieces for later: they would be held twice', async () => {
    const store = await openDenoKvStore(await openKv(':memory:'));
    const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, i) => i % 251);
    await store.putSnapshot({ name: 'bm25', seq: 0, bytes });
    let ranged: boolean | undefined;
    let adopted = false;
    const got = await store.snapshotInto('bm25', (length, canRange) => {
      ranged = canRange;
      const into = new Uint8Array(length);
      return {
        bytes: into,
        write: (chunk: Uint8Array, offset: number) => into.set(chunk, offset),
        adopt: () => {
          adopted = true;
        },
        dispose: () => undefined,
      };
    });
    expect(ranged).toBe(false);
    expect(adopted).toBe(false);
    expect(Buffer.from(got!.sink.bytes).equals(Buffer.from(bytes))).toBe(true);
    await store.close();
  });

  it('refuses an unknown option, an empty prefix and a handle that is not a KV', async () => {
    const kv = await openKv(':memory:');
    expect(await codeOf(openDenoKvStore(kv, { prefixes: 'a' } as never))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(openDenoKvStore(kv, { prefix: '' }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(openDenoKvStore({ get() {} } as never))).toBe('INVALID_ARGUMENT');
  });

  it('keeps stores under two prefixes of one KV apart', async () => {
    const kv = await openKv(':memory:');
    const a = await openDenoKvStore(kv, { prefix: 'a', embedder: EMBEDDER });
    const b = await openDenoKvStore(kv, { prefix: 'b', embedder: EMBEDDER });
    await seed(a);
    expect(await b.stats()).toMatchObject({ nodes: 0, vectors: 0, changes: 1 });
    await b.destroy();
    expect(await a.stats()).toMatchObject({ nodes: 5, vectors: 4 });
    expect(await a.verify()).toEqual({ ok: true, problems: [] });
  });

  it('refuses a node whose meta alone is past what a value holds, writing nothing', async () => {
    const store = await openDenoKvStore(await openKv(':memory:'), { embedder: EMBEDDER });
    await seed(store);
    const { seq } = await store.meta();
    const key = await store.allocateKeys(1);
    const huge = node(`${R}/huge`, key, { meta: { notes: 'x'.repeat(40_000) } });
    expect(await codeOf(store.commit(withContent(huge)))).toBe('STORE_ERROR');
    expect((await store.meta()).seq).toBe(seq);
    expect(await store.node(`${R}/huge`)).toBeUndefined();
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });
});

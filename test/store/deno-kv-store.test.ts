// The Deno KV store against Deno's own KV engine in Node (@deno/kv, in memory): both contract suites,
// each test on a KV of its own.
import { type KvKey, openKv } from '@deno/kv';
import { KvKeys } from '../../src/store/deno-kv/kv-keys.js';
import { openDenoKvStore } from '../../src/store/deno-kv/open-deno-kv-store.js';
import type { OpenStoreOptions } from '../../src/store/store.js';
import { changeLogContract } from '../../src/testing/change-log-contract.js';
import type { SnapshotTamper } from '../../src/testing/harness.js';
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

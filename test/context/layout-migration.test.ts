// A store written before namespaces (viking://user/memories, viking://agent/memories, sessions under
// viking://agent/memories/sessions) opens into the opening namespace's spaces, once, and a crash at
// any write of that first open leaves a store that the next open migrates whole.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { movedBatch, relocated } from '../../src/context/tree-batches.js';
import { isWithin, parseUri, type VikingUri } from '../../src/context/uri.js';
import { openLongship } from '../../src/engine.js';
import { loadNodeFiles } from '../../src/env/node-files.js';
import { openFileStore, openFileStoreWith } from '../../src/store/file/file-open.js';
import type { NodeRecord } from '../../src/store/store.js';
import { crashingFiles } from '../store/crashing-files.js';
import { tempFolder } from '../store/file-harness.js';
import { wordEmbedder } from '../store/kill-fixture.js';

const info = { id: wordEmbedder.id, dimensions: wordEmbedder.dimensions };
const PREF = 'preferences/indentation';
const NOTE = 'notes/deploys';

/** Today's layout → the id-less one, as a store written before namespaces holds it. */
const back: [string, string][] = [
  ['viking://user/default/sessions', 'viking://agent/memories/sessions'],
  ['viking://user/default/memories', 'viking://user/memories'],
  ['viking://agent/default/memories', 'viking://agent/memories'],
];

/** A folder store of the old layout: two memories linked, and a session with a pending message. */
async function oldStore(): Promise<string> {
  const dir = join(tempFolder(), 'old');
  const longship = await openLongship({ store: dir, embedder: wordEmbedder });
  await longship.write(`viking://~/memories/${PREF}`, 'The user indents with tabs in every river project.', {
    parents: true,
  });
  await longship.write(`viking://agent/default/memories/${NOTE}`, 'Deploys to the harbour run on Fridays.', {
    parents: true,
  });
  await longship.link(
    `viking://~/memories/${PREF}`,
    `viking://agent/default/memories/${NOTE}`,
    'same project',
  );
  await longship.session('chat-1').addMessage('user', 'The glacier trip is in May.');
  await longship.close();

  const store = await openFileStore(dir, { embedder: info });
  const nodes: NodeRecord[] = [];
  for (const [from] of back) {
    const root = await store.node(from);
    if (root) nodes.push(root, ...(await store.descendants(from)));
  }
  const old = (uri: string): VikingUri => {
    const [from, to] = back.find(([from]) => isWithin(uri as VikingUri, from as VikingUri))!;
    return relocated(uri, parseUri(from), to as VikingUri);
  };
  const batch = await movedBatch(store, nodes, old, Date.now());
  await store.commit({
    deleteNodes: [...nodes.map((n) => n.uri).reverse(), 'viking://user/default', 'viking://agent/default'],
    ...batch,
    // The id-less spaces were typed memory, as their roots were.
    putNodes: batch.putNodes.map((n) => ({ ...n, contextType: 'memory' as const })),
  });
  await store.close();
  return dir;
}

/** What a migrated store must hold, as `user`. */
async function expectMigrated(dir: string, user = 'default'): Promise<void> {
  const longship = await openLongship({ store: dir, embedder: wordEmbedder, user });
  try {
    expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    const pref = `viking://user/${user}/memories/${PREF}`;
    expect(await longship.read(pref)).toContain('tabs');
    expect(await longship.read(`viking://agent/default/memories/${NOTE}`)).toContain('harbour');
    expect((await longship.relations(pref)).map((r) => r.to)).toEqual([
      `viking://agent/default/memories/${NOTE}`,
    ]);
    expect((await longship.session('chat-1').messages()).map((m) => m.parts)).toMatchObject([
      [{ text: 'The glacier trip is in May.' }],
    ]);
    expect((await longship.find('tabs river project', { limit: 3 })).memories[0]?.uri).toBe(pref);
    expect(await longship.store.nodes(['viking://user/memories', 'viking://agent/memories'])).toEqual([
      undefined,
      undefined,
    ]);
    // Once: a second open changes nothing.
    const seq = (await longship.store.meta()).seq;
    await longship.close();
    const again = await openLongship({ store: dir, embedder: wordEmbedder, user });
    expect((await again.store.meta()).seq).toBe(seq);
    await again.close();
  } finally {
    await longship.close();
  }
}

it('moves an old store into the namespace it is opened as', async () => {
  const dir = await oldStore();
  const copy = join(tempFolder(), 'copy');
  cpSync(dir, copy, { recursive: true });
  await expectMigrated(dir);
  await expectMigrated(copy, 'alice');
});

it('survives a crash at every write of the open that migrates', async () => {
  const dir = await oldStore();
  const real = await loadNodeFiles();
  const counting = crashingFiles(real);
  const probe = join(tempFolder(), 'probe');
  cpSync(dir, probe, { recursive: true });
  const opened = await openLongship({
    store: await openFileStoreWith(counting.files, probe, { embedder: info }),
    embedder: wordEmbedder,
  });
  await opened.close();
  const total = counting.writes();
  expect(total).toBeGreaterThan(3);

  for (let crashAt = 1; crashAt <= total; crashAt++) {
    const run = join(tempFolder(), `crash-${crashAt}`);
    cpSync(dir, run, { recursive: true });
    const crashing = crashingFiles(real, crashAt);
    const attempt = async () => {
      const longship = await openLongship({
        store: await openFileStoreWith(crashing.files, run, { embedder: info }),
        embedder: wordEmbedder,
      });
      await longship.close();
    };
    await attempt().catch(() => undefined);
    expect(crashing.crashed(), `crash at write ${crashAt}`).toBe(true);
    // The process is gone, and so is its lock.
    rmSync(join(run, 'lock'), { force: true });
    await expectMigrated(run);
  }
}, 240_000);

// The contract context assembly relies on (src/session/delivered.ts): what earlier turns of a
// session were delivered, URI → content hash, kept with the session, merged, durable, and kept
// across commits.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parseUri } from '../../src/context/uri.js';
import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { readDelivered, recordDelivered } from '../../src/session/delivered.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';
import { tempFolder } from '../store/file-harness.js';

const ROOT = parseUri('viking://user/default/sessions');

const embedder = bagOfWordsEmbedder();

it('merges entries, takes a new hash for a URI given again, and keeps them across commits', async () => {
  const longship = await openLongship({
    store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
    embedder,
  });
  const { store } = longship;
  expect(await readDelivered(store, ROOT, 'turns')).toEqual(new Map());
  // Before any message: the session's directory is made to hold it.
  await recordDelivered(store, ROOT, 'turns', [
    { uri: 'viking://resources/a.md', hash: 'h1' },
    { uri: 'viking://resources/b.md', hash: 'h2' },
  ]);
  await recordDelivered(store, ROOT, 'turns', [{ uri: 'viking://resources/a.md', hash: 'h3' }]);
  const dir = (await store.node('viking://user/default/sessions/turns'))!;
  const root = (await store.node('viking://user/default/sessions'))!;
  expect(await store.vectorsOfNode(dir.key)).toEqual([]);
  const session = longship.session('turns');
  await session.addMessage('user', 'What do the notes say?');
  // The first writer with an embedder gives the directory its vector.
  expect(await store.vectorsOfNode(dir.key)).toHaveLength(1);
  expect(await store.vectorsOfNode(root.key)).toHaveLength(1);
  // Concurrent with messages through the same lock: neither write loses the other's.
  await Promise.all([
    recordDelivered(store, ROOT, 'turns', [{ uri: 'viking://resources/c.md', hash: 'h4' }]),
    session.addMessage('assistant', 'They say three things.'),
  ]);
  await session.commit();
  expect(await readDelivered(store, ROOT, 'turns')).toEqual(
    new Map([
      ['viking://resources/a.md', 'h3'],
      ['viking://resources/b.md', 'h2'],
      ['viking://resources/c.md', 'h4'],
    ]),
  );
  expect(await readDelivered(store, ROOT, 'other')).toEqual(new Map());
  expect((await longship.verify()).problems).toEqual([]);
  await longship.close();
});

it('is durable on the file store, and refuses bad entries and ids without writing', async () => {
  const path = join(tempFolder(), 'delivered');
  const first = await openLongship({ store: path, embedder });
  await recordDelivered(first.store, ROOT, 'kept', [{ uri: 'viking://resources/x.md', hash: 'abc' }]);
  await first.close();
  const second = await openLongship({ store: path, embedder });
  expect(await readDelivered(second.store, ROOT, 'kept')).toEqual(
    new Map([['viking://resources/x.md', 'abc']]),
  );
  const seq = (await second.store.meta()).seq;
  const bad: [string, unknown][] = [
    ['kept', [{ uri: 'viking://resources/y.md' }]],
    ['kept', [{ uri: '', hash: 'h' }]],
    ['kept', 'not an array'],
    ['a/b', [{ uri: 'viking://resources/y.md', hash: 'h' }]],
    ['', [{ uri: 'viking://resources/y.md', hash: 'h' }]],
  ];
  for (const [id, entries] of bad) {
    const error = await recordDelivered(second.store, ROOT, id, entries as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
  }
  expect((await second.store.meta()).seq).toBe(seq);
  expect((await second.verify()).problems).toEqual([]);
  await second.close();
});

// used() on a URI the store does not hold. OpenViking's Session.used() appends a usage record for
// every URI and counts it in the session's contexts_used, known or not; at commit it bumps the
// active_count of those that exist then. Longship keeps every URI with the session and in the
// archive's meta.used, as OpenViking keeps the record; it bumps a node's use count when used() is
// called, so that find()'s hotness sees it before any commit, and so a URI with no node has
// nothing to bump: it resolves with how many existed (docs/openviking.md, "used()").
import { describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/fixtures.js';

const open = async () => openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });

describe('used() on a URI the store does not hold', () => {
  it('keeps it with the session and in the archive, as OpenViking records it, and counts no use', async () => {
    const longship = await open();
    await longship.write('viking://resources/kept.md', 'A kept note.');
    const session = longship.session('s');
    const missing = 'viking://resources/not-yet.md';
    expect(await session.used([missing])).toBe(0);
    expect(await session.used([missing, 'viking://resources/kept.md'])).toBe(1);
    // Written after it was reported used: OpenViking would count it at commit; Longship counted
    // uses when they were reported, so the new node starts unused.
    await longship.write(missing, 'Now it exists.');
    await session.addMessage('user', 'Thanks.');
    const { archive } = await session.commit();
    expect((await longship.stat(archive!)).meta.used).toEqual([missing, 'viking://resources/kept.md']);
    expect(await longship.store.node(missing)).toMatchObject({ useCount: 0 });
    expect(await longship.store.node('viking://resources/kept.md')).toMatchObject({ useCount: 1 });
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});

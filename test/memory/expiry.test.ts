import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { expiryOf, isExpired } from '../../src/memory/expiry.js';
import type { NodeRecord } from '../../src/store/store.js';
import { DAY, NOW, openWithMemory, remember } from './fixture.js';

const memory = (meta: Record<string, unknown>, updatedAt = NOW): NodeRecord =>
  ({ kind: 'file', contextType: 'memory', meta, updatedAt }) as NodeRecord;

describe('expiryOf', () => {
  it('is the memory’s own expiresAt, over its kind’s TTL', () => {
    const ttl = { events: 30 * DAY };
    expect(expiryOf(memory({ category: 'events', expiresAt: NOW + DAY }), ttl)).toBe(NOW + DAY);
    expect(expiryOf(memory({ category: 'events', occurredAt: NOW - DAY }), ttl)).toBe(NOW + 29 * DAY);
  });

  it('counts the TTL from the last update when the memory does not say when it happened', () => {
    expect(expiryOf(memory({ category: 'events' }, NOW - 40 * DAY), { events: 30 * DAY })).toBe(
      NOW - 10 * DAY,
    );
  });

  it('never expires a kind without a TTL, nor what is not a memory file', () => {
    expect(expiryOf(memory({ category: 'preferences' }), { events: DAY })).toBeUndefined();
    const resource = {
      ...memory({ category: 'events', expiresAt: 0 }),
      contextType: 'resource',
    } as NodeRecord;
    expect(expiryOf(resource, {})).toBeUndefined();
    const dir = { ...memory({ category: 'events', expiresAt: 0 }), kind: 'dir' } as NodeRecord;
    expect(isExpired(dir, {}, NOW)).toBe(false);
  });

  it('is expired at the expiry itself', () => {
    expect(isExpired(memory({ category: 'events', expiresAt: NOW }), {}, NOW)).toBe(true);
    expect(isExpired(memory({ category: 'events', expiresAt: NOW + 1 }), {}, NOW)).toBe(false);
  });
});

describe('expired memories', () => {
  it('are left out of find(), search() and context(), counted in the trace', async () => {
    let now = NOW;
    const longship = await openWithMemory({ memory: { ttl: { events: 30 * DAY }, now: () => now } });
    const old = await remember(longship, 'events', 'old trip', 'Trip to Lisbon with Ana.', {
      occurredAt: NOW - 10 * DAY,
    });
    const kept = await remember(longship, 'preferences', 'lisbon', 'Likes Lisbon trips in spring.');
    const query = 'Lisbon trip';
    expect((await longship.find(query)).memories.map((m) => m.uri)).toContain(old);
    now = NOW + 21 * DAY;
    const found = await longship.find(query, { trace: true });
    expect(found.memories.map((m) => m.uri)).toEqual([kept]);
    expect(found.trace?.expired).toBe(1);
    expect((await longship.search(query)).memories.map((m) => m.uri)).toEqual([kept]);
    const context = await longship.context(query, { budget: { tokens: 2000 } });
    expect(context.text).not.toContain('Trip to Lisbon with Ana');
    // Still in the store until a sweep.
    expect(await longship.read(old)).toBe('Trip to Lisbon with Ana.');
    await longship.close();
  });

  it('are removed by sweepMemories(), in one commit, and by an open', async () => {
    const longship = await openWithMemory();
    const gone = await remember(longship, 'events', 'a', 'Call with the bank.', {
      expiresAt: Date.now() - 1,
    });
    const gone2 = await remember(longship, 'entities', 'b', 'Temporary code 1234.', {
      expiresAt: Date.now() - 1,
    });
    const stays = await remember(longship, 'events', 'c', 'Moved to Porto.', {
      expiresAt: Date.now() + 365 * DAY,
    });
    const before = (await longship.store.meta()).seq;
    expect(await longship.sweepMemories()).toEqual({ removed: [gone, gone2].sort() });
    expect((await longship.store.meta()).seq).toBe(before + 1);
    expect((await longship.find('bank code')).memories.map((m) => m.uri)).not.toContain(gone);
    await expect(longship.stat(gone)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await longship.stat(stays)).uri).toBe(stays);
    expect(await longship.sweepMemories()).toEqual({ removed: [] });
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('are left out of the walk too', async () => {
    const longship = await openWithMemory({ memory: { now: () => NOW } });
    const gone = await remember(longship, 'events', 'gone', 'Lunch with Bruno.', { expiresAt: NOW - 1 });
    const stays = await remember(longship, 'events', 'stays', 'Lunch with Bruno on Friday.');
    const found = await longship.find('lunch with Bruno', { mode: 'thinking', trace: true });
    expect(found.memories.map((m) => m.uri)).toEqual([stays]);
    expect(found.memories.map((m) => m.uri)).not.toContain(gone);
    expect(found.trace?.expired).toBe(1);
    await longship.close();
  });

  it('stay when the sweep is aborted', async () => {
    const longship = await openWithMemory({ memory: { now: () => NOW } });
    const uri = await remember(longship, 'events', 'a', 'Call the bank.', { expiresAt: NOW - 1 });
    const controller = new AbortController();
    controller.abort();
    await expect(longship.sweepMemories({ signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    expect((await longship.stat(uri)).uri).toBe(uri);
    await longship.close();
  });

  it('are swept when a store is opened', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'longship-expiry-'));
    try {
      const first = await openWithMemory({ store: folder });
      const uri = await remember(first, 'events', 'a', 'Dentist at nine.', { occurredAt: NOW - 40 * DAY });
      await first.close();
      const reopened = await openWithMemory({
        store: folder,
        memory: { ttl: { events: 30 * DAY }, now: () => NOW },
      });
      await expect(reopened.stat(uri)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await reopened.close();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('the memory option', () => {
  it.each([
    [{ ttl: { event: DAY } }, "unknown option 'memory.ttl.event'"],
    [{ ttls: {} }, "unknown option 'memory.ttls'"],
    [{ ttl: { events: 0 } }, 'memory.ttl.events'],
    [{ ttl: { events: -DAY } }, 'memory.ttl.events'],
    [{ decay: { halfLife: 3 } }, 'memory.decay'],
    [{ decay: { halfLifeDays: 0 } }, 'memory.decay'],
    [{ decay: true }, 'memory.decay'],
    [{ now: 5 }, 'memory.now'],
  ])('refuses %j as INVALID_ARGUMENT', async (memory, message) => {
    const error = await openWithMemory({ memory: memory as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((error as Error).message).toContain(message);
  });

  it('refuses unknown options of sweepMemories() and consolidateMemories()', async () => {
    const longship = await openWithMemory();
    await expect(longship.sweepMemories({ now: 1 } as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(longship.consolidateMemories({ similarity: 1.5 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await longship.close();
  });
});

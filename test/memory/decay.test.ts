import { describe, expect, it } from 'vitest';
import { decayOf } from '../../src/memory/memory-lifecycle.js';
import { eventDecayDefaults } from '../../src/memory/memory-options.js';
import type { MemoryFields } from '../../src/memory/memory-time.js';
import { DAY, NOW, openWithMemory, remember } from './fixture.js';

const event = (occurredAt: number, category = 'events'): MemoryFields => ({
  kind: 'file',
  contextType: 'memory',
  meta: { category, occurredAt },
  updatedAt: NOW,
});

describe('decayOf', () => {
  const options = { halfLifeDays: 90, protectionDays: 7 };

  it('leaves an event inside the protection window whole', () => {
    expect(decayOf(event(NOW), NOW, options)).toBe(1);
    expect(decayOf(event(NOW - 7 * DAY), NOW, options)).toBe(1);
    // Planned for later: not decayed either.
    expect(decayOf(event(NOW + 30 * DAY), NOW, options)).toBe(1);
  });

  it('halves an event every half-life past the window', () => {
    expect(decayOf(event(NOW - 97 * DAY), NOW, options)).toBeCloseTo(0.5, 10);
    expect(decayOf(event(NOW - 187 * DAY), NOW, options)).toBeCloseTo(0.25, 10);
  });

  it('decays events only', () => {
    expect(decayOf(event(NOW - 400 * DAY, 'preferences'), NOW, options)).toBeUndefined();
    expect(decayOf(event(NOW - 400 * DAY, 'entities'), NOW, options)).toBeUndefined();
  });

  it('reads the last update where the event does not say when it happened', () => {
    const node = { ...event(0), meta: { category: 'events' }, updatedAt: NOW - 97 * DAY };
    expect(decayOf(node, NOW, options)).toBeCloseTo(0.5, 10);
  });

  it('defaults to a 90-day half-life after a month', () => {
    expect(eventDecayDefaults).toEqual({ halfLifeDays: 90, protectionDays: 30 });
  });
});

describe('event decay in find()', () => {
  const text = 'Dinner with Ana at the harbour.';

  async function twoEvents(memory: object) {
    const longship = await openWithMemory({ memory: { now: () => NOW, ...memory } });
    const recent = await remember(longship, 'events', 'recent dinner', text, { occurredAt: NOW - 2 * DAY });
    const old = await remember(longship, 'events', 'old dinner', text, { occurredAt: NOW - 97 * DAY });
    const found = await longship.find('dinner with Ana', { trace: true, calibration: false });
    await longship.close();
    return { recent, old, found };
  }

  it('multiplies an old event’s score by its decay, shown in the trace and the reason', async () => {
    const { recent, old, found } = await twoEvents({ decay: { halfLifeDays: 90, protectionDays: 7 } });
    expect(found.memories.map((m) => m.uri)).toEqual([recent, old]);
    const [first, second] = found.memories;
    expect(second!.score / first!.score).toBeCloseTo(0.5, 3);
    const traced = new Map(found.trace!.results.map((r) => [r.uri, r.decay]));
    expect(traced.get(recent)).toBe(1);
    expect(traced.get(old)).toBe(0.5);
    expect(second!.matchReason).toContain('decay 0.5');
    expect(found.trace!.expired).toBe(0);
  });

  it('is off with decay: false', async () => {
    const { found } = await twoEvents({ decay: false });
    const [first, second] = found.memories;
    expect(second!.score).toBe(first!.score);
    expect(found.trace!.results.every((r) => r.decay === undefined)).toBe(true);
  });

  it('follows the half-life and the window given, and decays by default', async () => {
    const { found, old } = await twoEvents({ decay: { halfLifeDays: 45, protectionDays: 7 } });
    expect(found.trace!.results.find((r) => r.uri === old)?.decay).toBe(0.25);
    // The defaults: 90 days of half-life after 30 of protection; 97 days old is 67 past it.
    const byDefault = await twoEvents({});
    expect(byDefault.found.trace!.results.find((r) => r.uri === byDefault.old)?.decay).toBe(0.5969);
  });
});

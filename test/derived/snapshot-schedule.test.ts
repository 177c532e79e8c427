// When the snapshots are written, on fake timers: debounced, never past the deadline, only once
// enough records changed, further apart after failures, and not at all once stopped.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SnapshotSchedule, type SnapshotWork } from '../../src/derived/snapshot-schedule.js';
import type { ChangeRecord } from '../../src/store/store.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Sides that are dirty until written, as the coordinator's are; `state.seq` is the change the next
 * write includes. `fail`: how many writes fail first.
 */
function work(fail = 0) {
  const writes: number[] = [];
  const errors: unknown[] = [];
  const state = { dirty: true, rebuilt: false, seq: 0, fail };
  const done: SnapshotWork = {
    dirty: () => state.dirty,
    rebuilt: () => state.rebuilt,
    write: async () => {
      writes.push(Date.now());
      if (state.fail-- > 0) throw new Error('disk full');
      state.dirty = false;
      state.rebuilt = false;
      return state.seq;
    },
    report: (error) => errors.push(error),
  };
  return { done, writes, errors, state };
}

function change(seq: number, nodes: number): ChangeRecord {
  const keys = Array.from({ length: nodes }, (_, i) => seq * 100 + i);
  return {
    seq,
    addedNodeKeys: keys,
    removedNodeKeys: [],
    addedVectorKeys: [],
    removedVectorKeys: [],
    addedPostingKeys: [],
    removedPostingKeys: [],
  };
}

const timing = { delayMs: 100, maxDelayMs: 250, afterChanges: 0 };

describe('the snapshot schedule', () => {
  it('waits for the changes to stop for delayMs, each change pushing the save back', async () => {
    const { done, writes } = work();
    const schedule = new SnapshotSchedule(timing, done);
    const start = Date.now();
    schedule.schedule();
    await vi.advanceTimersByTimeAsync(60);
    schedule.schedule();
    await vi.advanceTimersByTimeAsync(99);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([start + 160]);
  });

  it('saves by maxDelayMs after the first change while changes keep coming', async () => {
    const { done, writes } = work();
    const schedule = new SnapshotSchedule(timing, done);
    const start = Date.now();
    for (let t = 0; t < 400; t += 50) {
      schedule.schedule();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(writes[0]).toBe(start + 250);
  });

  it('waits for afterChanges records, unless a side was rebuilt', async () => {
    const { done, writes, state } = work();
    const schedule = new SnapshotSchedule({ ...timing, afterChanges: 5 }, done);
    const commit = (seq: number, nodes: number) => {
      state.dirty = true;
      state.seq = seq;
      schedule.changed([change(seq, nodes)]);
      schedule.schedule();
    };
    commit(1, 3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(writes).toEqual([]);
    state.rebuilt = true;
    schedule.schedule();
    await vi.advanceTimersByTimeAsync(100);
    expect(writes.length).toBe(1);
    // The save included change 1: its records count no more.
    commit(2, 3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(writes.length).toBe(1);
    commit(3, 2);
    await vi.advanceTimersByTimeAsync(100);
    expect(writes.length).toBe(2);
  });

  it('tries again further apart after each failure, and as before once a save succeeds', async () => {
    const { done, writes, errors } = work(2);
    const schedule = new SnapshotSchedule(timing, done);
    const start = Date.now();
    schedule.schedule();
    await vi.advanceTimersByTimeAsync(2000);
    // 100 ms, then 200 ms after the first failure, then 400 ms after the second: that one holds.
    expect(writes).toEqual([start + 100, start + 300, start + 700]);
    expect(errors.length).toBe(2);
  });

  it('leaves nothing pending once stopped, and save() still writes', async () => {
    const { done, writes } = work();
    const schedule = new SnapshotSchedule(timing, done);
    schedule.schedule();
    schedule.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(writes).toEqual([]);
    await schedule.save();
    expect(writes.length).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(writes.length).toBe(1);
  });
});

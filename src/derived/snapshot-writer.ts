// How the derived indexes write their snapshots: side by side, each at the seq it includes, then
// the change log pruned as far as every snapshot reaches. When they are written is the schedule's
// (snapshot-schedule.ts).

import { nextTask } from '../next-task.js';
import type { FullStore } from '../store/full-store.js';
import type { DerivedSide, SideName, SideState } from './derived-side.js';

/** Whether a side has changes its snapshot does not hold. */
export function stale({ saved, altered }: SideState): boolean {
  return saved === undefined || altered > saved;
}

/**
 * Writes the snapshots of the sides that changed since their last ones, then prunes the change log
 * as far as every stored snapshot reaches. Resolves with the seq every side's snapshot includes (0
 * while a side has none).
 */
export async function writeSnapshots(
  store: FullStore,
  sides: readonly DerivedSide[],
  states: Record<SideName, SideState>,
): Promise<number> {
  // One side at a time, serialized at the seq it includes, then written: each side replays from its
  // own seq, so a find or a commit may run between them, and the longest the worker is held is one
  // side's serialization, not all of them together.
  for (const side of sides) {
    if (!stale(states[side.name])) continue;
    // A store's writes may settle without a task boundary (a sync access handle, memory): let
    // whatever waits run first.
    await nextTask();
    await side.settled();
    const state = states[side.name];
    const seq = state.applied;
    for (const { name, bytes } of side.serialize()) await store.putSnapshot({ name, seq, bytes });
    state.saved = seq;
    state.rebuilt = false;
  }
  const saved = sides.map((side) => states[side.name].saved);
  // Forgets the changes every stored snapshot already includes. A side without one rebuilds anyway.
  const needed = saved.filter((seq) => seq !== undefined);
  if (needed.length > 0 && Math.min(...needed) > 0) await store.pruneChanges(Math.min(...needed));
  return Math.min(...saved.map((seq) => seq ?? 0));
}

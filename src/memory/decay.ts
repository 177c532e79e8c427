// Time decay of event memories in ranking (docs/guide/memory-lifecycle.md, "Decay"): what happened
// long ago matters less to the next prompt than what happened this week, while a preference or a
// fact about a person does not fade with time. Only kind `events` decays.
import type { EventDecayOptions } from './memory-options.js';
import { type MemoryFields, memoryKindOf, memoryTimeOf } from './memory-time.js';

const DAY_MS = 86_400_000;

/**
 * The factor an event memory's score is multiplied by: 1 within `protectionDays` of when it
 * happened, then halving every `halfLifeDays`. Undefined for anything that does not decay (not an
 * event memory), so the trace can tell "not decayed" from "decayed by 1".
 *
 * @example
 * decayOf(eventOf97DaysAgo, now, { halfLifeDays: 90, protectionDays: 7 }); // 0.5
 */
export function decayOf(
  node: MemoryFields,
  now: number,
  options: Required<EventDecayOptions>,
): number | undefined {
  if (memoryKindOf(node) !== 'events') return undefined;
  const ageDays = (now - memoryTimeOf(node)) / DAY_MS;
  const decayedDays = ageDays - options.protectionDays;
  return decayedDays <= 0 ? 1 : 2 ** (-decayedDays / options.halfLifeDays);
}

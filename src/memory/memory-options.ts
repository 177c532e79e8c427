// The `memory` option of openLongship(): how long memories live and how event memories age in
// ranking (docs/guide/memory-lifecycle.md). Checked strictly: a kind or key that is not known is
// INVALID_ARGUMENT, since a misspelt `event` TTL would otherwise keep every event forever.
import * as v from 'valibot';
import { type MemoryCategory, memoryCategories } from '../llm/prompts.js';
import { functionSchema } from '../options.js';

/** A memory's kind: its `meta.category` (docs/guide/retrieval.md, "Memory kinds"). */
export type MemoryKind =
  | 'preferences'
  | 'entities'
  | 'events'
  | 'profile'
  | 'identity'
  | 'soul'
  | 'cases'
  | 'trajectories'
  | 'experiences'
  | 'tools'
  | 'skills'
  | 'agent';

// The kinds extraction writes: a kind added there fails to compile here until MemoryKind has it.
const kinds: readonly MemoryKind[] = memoryCategories;
const sameKinds: [MemoryCategory] extends [MemoryKind]
  ? [MemoryKind] extends [MemoryCategory]
    ? true
    : never
  : never = true;
void sameKinds;

export interface EventDecayOptions {
  /**
   * Days for an event memory's weight to halve once it is past the protection window. Default 90:
   * an event a season old still counts half, and one a year old about a tenth.
   */
  halfLifeDays?: number;
  /**
   * Days after it happened during which an event is not decayed at all (OpenViking's
   * `events_time_decay_protection`). Default 30: on REALTALK, whose questions ask about any day of
   * three-week chats, a 7-day window cost 0.014 of recall@10 and this one nothing
   * (docs/guide/memory-lifecycle.md, "Measured").
   */
  protectionDays?: number;
}

export interface MemoryOptions {
  /**
   * How long a memory of each kind lives, in ms after it happened (`meta.occurredAt`) or else after
   * its last update. A memory's own `meta.expiresAt` (ms since the epoch) wins over its kind's TTL.
   * Default: none; memories live until removed.
   *
   * @example
   * await openLongship({ memory: { ttl: { events: 30 * 86_400_000 } } });
   */
  ttl?: Partial<Record<MemoryKind, number>>;
  /** How event memories lose weight in ranking as they age; `false` turns it off. Default on. */
  decay?: EventDecayOptions | false;
  /**
   * The clock, in ms since the epoch. Default `Date.now`. For tests, and for replaying conversations
   * that happened in the past as if now were then.
   */
  now?: () => number;
}

/** The options with defaults filled in: what expiry, decay and the sweep read. */
export interface MemorySettings {
  ttl: Partial<Record<MemoryKind, number>>;
  decay: Required<EventDecayOptions> | false;
  now: () => number;
}

export const eventDecayDefaults: Required<EventDecayOptions> = { halfLifeDays: 90, protectionDays: 30 };

const positive = v.pipe(v.number(), v.finite(), v.gtValue(0, 'must be above 0'));
const days = v.pipe(v.number(), v.finite(), v.minValue(0, 'must be 0 or more'));

/** {@link MemoryOptions}, key by key. @internal */
export const memoryOptionsSchema = v.strictObject({
  ttl: v.optional(v.strictObject(Object.fromEntries(kinds.map((kind) => [kind, v.optional(positive)])))),
  decay: v.optional(
    v.union([
      v.literal(false),
      v.strictObject({ halfLifeDays: v.optional(positive), protectionDays: v.optional(days) }),
    ]),
  ),
  now: v.optional(functionSchema),
});

/**
 * The settings for `options` (already checked by {@link memoryOptionsSchema}).
 *
 * @example
 * memorySettings({ decay: false }).decay; // false
 */
export function memorySettings(options: MemoryOptions = {}): MemorySettings {
  const { ttl = {}, decay = {}, now = Date.now } = options;
  return { ttl, decay: decay === false ? false : { ...eventDecayDefaults, ...decay }, now };
}

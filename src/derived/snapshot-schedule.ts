// When the derived indexes write their snapshots: debounced (a job of many commits is not slowed by
// snapshots between them), never later than a deadline while changes keep coming (what an open after
// a crash replays stays bounded), only once enough records changed, and further apart after each
// failure. One save at a time (docs/internals/snapshots.md, "When snapshots are written").

import type { ChangeRecord } from '../store/store.js';
import { recordsOf } from './change-replay.js';

const MAX_RETRY_MS = 60_000;

export interface SnapshotTiming {
  /** How long the indexes must go unchanged before a save; `Infinity`: only on save(). */
  delayMs: number;
  /** The longest a change waits for its save while changes keep coming. */
  maxDelayMs: number;
  /** How many records may change after the last snapshots before a save is due (0: every change). */
  afterChanges: number;
}

/** What the schedule saves, and asks before it waits to. */
export interface SnapshotWork {
  /** Whether a side holds changes its snapshot lacks. */
  dirty(): boolean;
  /** Whether a side was rebuilt since its snapshot: an open would rebuild it again, so a save is due. */
  rebuilt(): boolean;
  /** Writes the snapshots of the sides that changed; the seq every stored snapshot includes. */
  write(): Promise<number>;
  /** Told about a timed save that failed. */
  report(error: unknown): void;
}

/**
 * @example
 * const schedule = new SnapshotSchedule({ delayMs: 2000, maxDelayMs: 30_000, afterChanges: 0 }, work);
 * schedule.changed(changes); // after a catch-up applied them
 * schedule.schedule();       // a save in 2 s, unless more changes push it back
 * await schedule.save();     // now (flush, close)
 */
export class SnapshotSchedule {
  readonly #timing: SnapshotTiming;
  readonly #work: SnapshotWork;
  /** The records each change applied since the oldest snapshot touched: what an open would replay. */
  #unsaved: { seq: number; records: number }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the pending save is due at the latest (Date.now()), set by the change that made it pending. */
  #deadline: number | undefined;
  #saving: Promise<void> | undefined;
  #failures = 0;
  #stopped = false;

  constructor(timing: SnapshotTiming, work: SnapshotWork) {
    this.#timing = timing;
    this.#work = work;
  }

  /** Counts the records of changes just applied toward {@link SnapshotTiming.afterChanges}. */
  changed(changes: readonly ChangeRecord[]): void {
    if (this.#timing.afterChanges > 0)
      for (const change of changes) this.#unsaved.push({ seq: change.seq, records: recordsOf(change) });
  }

  /**
   * (Re)starts the wait for the next save: debounced, each change pushes it back `delayMs`, but never
   * past the deadline the first unsaved change set. After failures, further apart each time.
   */
  schedule(): void {
    const { delayMs: base, maxDelayMs } = this.#timing;
    const delayMs = this.#failures === 0 ? base : Math.min(base * 2 ** this.#failures, MAX_RETRY_MS);
    if (this.#stopped || this.#saving || !Number.isFinite(delayMs)) return;
    if (!this.#work.dirty() || !this.#due()) return;
    const now = Date.now();
    this.#deadline ??= now + Math.max(delayMs, maxDelayMs);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => this.save().catch((error) => this.#work.report(error)),
      Math.min(delayMs, this.#deadline - now),
    );
    // Node: a pending save must not keep the process alive. Elsewhere timers have no unref.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Writes the snapshots now, one save at a time. A failure leaves the previous snapshots in place;
   * the next try comes later, further apart after each failure.
   */
  async save(): Promise<void> {
    // A save now takes the place of the pending one; the changes after it schedule the next.
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#deadline = undefined;
    while (this.#saving) await this.#saving.catch(() => undefined);
    const saving = this.#write();
    this.#saving = saving;
    try {
      await saving;
      this.#failures = 0;
    } catch (error) {
      this.#failures++;
      throw error;
    } finally {
      this.#saving = undefined;
      this.schedule();
    }
  }

  /** No more timed saves (save() still writes). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Resolves once the save under way, if any, has settled. */
  async idle(): Promise<void> {
    await this.#saving?.catch(() => undefined);
  }

  async #write(): Promise<void> {
    const through = await this.#work.write();
    this.#unsaved = this.#unsaved.filter((change) => change.seq > through);
  }

  /** Whether the changes since the snapshots are worth new ones: too many to replay, or a side has none. */
  #due(): boolean {
    if (this.#work.rebuilt()) return true;
    let records = 0;
    for (const { records: count } of this.#unsaved) records += count;
    return records >= this.#timing.afterChanges;
  }
}

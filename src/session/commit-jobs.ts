// Commits as background jobs, per engine: one at a time per session id, whichever Session object
// (or auto-commit) started them, each with an id, progress, a result to await and a way to cancel.
// The shape is the ingestion queue's (a promise with an id, src/ingest/queue.ts).

import { abortError } from '../abort.js';
import { LongshipError } from '../errors.js';
import { SerialQueue } from '../serial-queue.js';
import type { Report } from './commit.js';
import { describeError } from './extract.js';
import type { CommitJob, CommitOutcome, CommitProgress, CommitResult } from './session.js';

interface Running {
  controller: AbortController;
  settled: Promise<unknown>;
}

interface SessionJobs {
  queue: SerialQueue;
  jobs: Set<Running>;
  listeners: Set<(progress: CommitProgress) => void>;
  /** How the commits since the last time none was running ended. */
  outcomes: CommitOutcome[];
  waiters: ((outcomes: CommitOutcome[]) => void)[];
}

export interface StartOptions {
  auto: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: CommitProgress) => void;
}

export interface CommitJobs {
  /** Queues `run` behind the session's commits under way. */
  start(
    id: string,
    options: StartOptions,
    run: (signal: AbortSignal, report: Report) => Promise<CommitResult>,
  ): CommitJob;
  /** Whether a commit of `id` runs or waits. */
  busy(id: string): boolean;
  onProgress(id: string, listener: (progress: CommitProgress) => void): () => void;
  /** Once no commit of `id` runs or waits: how those since it was last idle ended (the last such, if idle now). */
  wait(id: string): Promise<CommitOutcome[]>;
  cancel(id: string): number;
  /** Cancels every commit (STORE_CLOSED) and resolves once they have all stopped. */
  close(): Promise<void>;
}

/**
 * The engine's commit jobs; `nextId` numbers them.
 *
 * @example
 * const job = jobs.start('chat-1', { auto: false }, (signal, report) => commitSession(deps, 'chat-1', { signal }, report));
 */
export function createCommitJobs(nextId: () => number): CommitJobs {
  const sessions = new Map<string, SessionJobs>();
  /** Each id's outcomes from when it was last busy: what wait() answers once it is idle. */
  const last = new Map<string, CommitOutcome[]>();
  let closed = false;
  const of = (id: string): SessionJobs => {
    let entry = sessions.get(id);
    if (!entry) {
      entry = { queue: new SerialQueue(), jobs: new Set(), listeners: new Set(), outcomes: [], waiters: [] };
      sessions.set(id, entry);
    }
    return entry;
  };
  /** Wakes the waiters once nothing runs; forgets an id nobody listens to. */
  const settleIdle = (id: string, entry: SessionJobs) => {
    if (entry.jobs.size > 0) return;
    const outcomes = entry.outcomes;
    entry.outcomes = [];
    if (outcomes.length > 0) last.set(id, outcomes);
    for (const wake of entry.waiters.splice(0)) wake(outcomes);
    if (entry.listeners.size === 0 && sessions.get(id) === entry) sessions.delete(id);
  };
  return {
    start(id, options, run) {
      const entry = of(id);
      const jobId = nextId();
      const controller = new AbortController();
      const emit = (phase: CommitProgress['phase'], done: number, total: number) => {
        const progress: CommitProgress = { jobId, session: id, auto: options.auto, phase, done, total };
        for (const listener of [...entry.listeners, ...(options.onProgress ? [options.onProgress] : [])]) {
          try {
            listener(progress);
          } catch {
            // A listener's bug must not fail the commit it listens to.
          }
        }
      };
      const outer = options.signal;
      const follow = () => controller.abort(outer?.reason);
      if (outer?.aborted) follow();
      else outer?.addEventListener('abort', follow, { once: true });
      if (closed) controller.abort(new LongshipError('STORE_CLOSED', 'Longship was closed'));
      emit('queued', 0, 0);
      const promise = entry.queue.run(async () => {
        if (controller.signal.aborted) throw abortError(controller.signal, 'commit()');
        return run(controller.signal, emit);
      });
      const running: Running = { controller, settled: promise.catch(() => undefined) };
      entry.jobs.add(running);
      const finish = (outcome: Omit<CommitOutcome, 'jobId' | 'auto'>) => {
        outer?.removeEventListener('abort', follow);
        entry.jobs.delete(running);
        entry.outcomes.push({ jobId, auto: options.auto, ...outcome });
        settleIdle(id, entry);
      };
      promise.then(
        (result) => finish({ status: 'done', result }),
        (error: unknown) =>
          finish({
            status: controller.signal.aborted ? 'cancelled' : 'failed',
            error: describeError(error),
          }),
      );
      // Awaiting a job is optional: an unawaited failure is reported by wait(), never unhandled.
      promise.catch(() => undefined);
      return Object.assign(promise, { id: jobId });
    },
    busy: (id) => (sessions.get(id)?.jobs.size ?? 0) > 0,
    onProgress(id, listener) {
      const entry = of(id);
      entry.listeners.add(listener);
      return () => {
        entry.listeners.delete(listener);
        settleIdle(id, entry);
      };
    },
    wait(id) {
      const entry = sessions.get(id);
      if (!entry || entry.jobs.size === 0) return Promise.resolve(last.get(id) ?? []);
      return new Promise((resolve) => entry.waiters.push(resolve));
    },
    cancel(id) {
      const jobs = [...(sessions.get(id)?.jobs ?? [])].filter((j) => !j.controller.signal.aborted);
      for (const job of jobs) job.controller.abort();
      return jobs.length;
    },
    async close() {
      closed = true;
      const reason = new LongshipError('STORE_CLOSED', 'Longship was closed while this commit was under way');
      const all = [...sessions.values()].flatMap((entry) => [...entry.jobs]);
      for (const job of all) job.controller.abort(reason);
      await Promise.all(all.map((job) => job.settled));
    },
  };
}

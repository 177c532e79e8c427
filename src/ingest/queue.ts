/**
 * The ingestion queue: jobs run one at a time, in order (IndexedDB serialises writes anyway, and
 * the embedder is the bottleneck either way). A failed or cancelled job does not stop the ones
 * after it. Cancelling stops a job between steps: documents it already committed stay, whole.
 */
import { roots } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import type {
  AddResourceOptions,
  AddSkillOptions,
  Ingestor,
  IngestProgress,
  IngestResult,
} from './ingest.js';
import type { ResourceInput } from './input.js';
import type { SkillInput } from './skill.js';

/** A job: what to pass to {@link Ingestor.addResource} or {@link Ingestor.addSkill}, and an optional signal. */
export type IngestJob =
  | {
      kind: 'resource';
      input: ResourceInput;
      options?: Omit<AddResourceOptions, 'signal' | 'onProgress'>;
      signal?: AbortSignal;
    }
  | {
      kind: 'skill';
      skill: SkillInput;
      options?: Omit<AddSkillOptions, 'signal' | 'onProgress'>;
      signal?: AbortSignal;
    };

/** A job's progress, as the queue's listeners hear it. */
export interface QueueProgress extends IngestProgress {
  jobId: number;
}

export interface JobOutcome {
  jobId: number;
  status: 'done' | 'failed' | 'cancelled';
  result?: IngestResult;
  /** Why it failed or was cancelled: a LongshipError (its `code`), or what the embedder or store threw. */
  error?: unknown;
  /**
   * Failed or cancelled: the document the job was embedding or writing then, by its node's URI
   * (one embedding call covers several documents, from this one on). Absent when the job ended
   * before it reached one (while reading or planning: the error names the input there).
   */
  at?: string;
  /** Documents the job finished (committed or found unchanged) before it ended: these stay. */
  finished: string[];
}

/** What a busy spell of the queue did, from its first job to the queue being empty again. */
export interface QueueSummary {
  jobs: JobOutcome[];
  done: number;
  failed: number;
  cancelled: number;
  /** Failures to bring the jobs' parent directories up to date (their documents are stored). */
  refreshErrors: unknown[];
}

/** What enqueue returns: the job's result, with the id to cancel it by. */
export type QueuedJob = Promise<IngestResult> & { readonly id: number };

export interface IngestQueue {
  /**
   * Adds a job; its promise settles when the job ends: the result, or the job's error (`ABORTED`
   * when cancelled). Listening to the promise is optional: an unawaited failure is reported by
   * {@link IngestQueue.waitProcessed}, never as an unhandled rejection.
   */
  enqueue(job: IngestJob): QueuedJob;
  /** Cancels one job (running or waiting), or every job when no id is given. Returns how many it cancelled. */
  cancel(jobId?: number): number;
  /** Hears every job's progress; returns the function that stops listening. */
  onProgress(listener: (progress: QueueProgress) => void): () => void;
  /** Resolves once no job is running or waiting, with what the jobs since the queue was last idle did. */
  waitProcessed(): Promise<QueueSummary>;
  /** Jobs waiting or running. */
  readonly size: number;
}

interface Entry {
  id: number;
  job: IngestJob;
  controller: AbortController;
  finished: string[];
  /** The document the job reported last and has not finished. */
  at?: string;
  settled: boolean;
  settle: (outcome: JobOutcome) => void;
  unlink: () => void;
}

function summarise(jobs: JobOutcome[], refreshErrors: unknown[]): QueueSummary {
  const count = (status: JobOutcome['status']) => jobs.filter((j) => j.status === status).length;
  return { jobs, done: count('done'), failed: count('failed'), cancelled: count('cancelled'), refreshErrors };
}

const aborted = (reason: unknown) =>
  new LongshipError('ABORTED', 'the ingestion job was cancelled before it started', { cause: reason });

/**
 * Creates a FIFO queue over `ingestor`.
 *
 * @example
 * const queue = createIngestQueue(createIngestor({ store, embedder }));
 * queue.onProgress(({ jobId, phase, done, total }) => console.log(jobId, phase, `${done}/${total}`));
 * queue.enqueue({ kind: 'resource', input: files, options: { target: 'viking://resources/repo' } });
 * const { failed, jobs } = await queue.waitProcessed();
 */
export function createIngestQueue(
  ingestor: Pick<Ingestor, 'addResource' | 'addSkill' | 'refreshParents'>,
): IngestQueue {
  const waiting: Entry[] = [];
  let running: Entry | undefined;
  /** A job or the parents' refresh is under way. */
  let busy = false;
  let nextId = 1;
  let outcomes: JobOutcome[] = [];
  let refreshErrors: unknown[] = [];
  /** Targets of the jobs run since the last refresh: their parent directories are out of date. */
  const stale = new Set<string>();
  /** Jobs done, settled once the refresh of their parents has committed. */
  const refreshed: (() => void)[] = [];
  let lastSummary: QueueSummary = summarise([], []);
  let waiters: ((summary: QueueSummary) => void)[] = [];
  const listeners = new Set<(progress: QueueProgress) => void>();

  const emit = (progress: QueueProgress) => {
    for (const listener of listeners) {
      try {
        listener(progress);
      } catch {
        // A listener's bug must not fail the job it listens to.
      }
    }
  };

  const drainIfIdle = () => {
    if (busy || waiting.length > 0 || stale.size > 0) return;
    if (outcomes.length > 0 || refreshErrors.length > 0) {
      lastSummary = summarise(outcomes, refreshErrors);
      outcomes = [];
      refreshErrors = [];
    }
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake(lastSummary);
  };

  const run = async (entry: Entry) => {
    const { job, controller, id } = entry;
    let done = 0;
    const onProgress = (progress: IngestProgress) => {
      if (progress.phase === 'write' && progress.done > done && progress.uri !== undefined) {
        entry.finished.push(progress.uri);
        if (entry.at === progress.uri) entry.at = undefined;
      } else if (progress.uri !== undefined) entry.at = progress.uri;
      done = progress.done;
      emit({ ...progress, jobId: id });
    };
    const signal = controller.signal;
    const refreshParents = false;
    const target = job.kind === 'resource' ? (job.options?.target ?? roots.resource[0]!) : roots.skill[0]!;
    // A job settles once everything it wrote is committed, its parents' refresh included (so
    // verify() holds then, and nothing it started writes after it); jobs queued behind it share
    // one refresh, at the end of the run. A job that wrote nothing leaves its parents alone.
    const settleAfterRefresh = async (outcome: JobOutcome, wrote: boolean) => {
      if (!wrote) return entry.settle(outcome);
      stale.add(target);
      refreshed.push(() => entry.settle(outcome));
      if (waiting.length === 0) await refresh();
    };
    try {
      const result =
        job.kind === 'resource'
          ? await ingestor.addResource(job.input, { ...job.options, signal, onProgress, refreshParents })
          : await ingestor.addSkill(job.skill, { ...job.options, signal, onProgress, refreshParents });
      await settleAfterRefresh({ jobId: id, status: 'done', result, finished: entry.finished }, true);
    } catch (error) {
      const cancelled =
        signal.aborted &&
        error instanceof LongshipError &&
        (error.code === 'ABORTED' || signal.reason === error);
      const outcome: JobOutcome = {
        jobId: id,
        status: cancelled ? 'cancelled' : 'failed',
        error,
        ...(entry.at === undefined ? {} : { at: entry.at }),
        finished: entry.finished,
      };
      await settleAfterRefresh(outcome, entry.finished.length > 0);
    }
  };

  const refresh = async () => {
    const targets = [...stale];
    stale.clear();
    for (const target of targets) {
      try {
        await ingestor.refreshParents(target);
      } catch (error) {
        // A target that never parsed failed its job already; nothing above it was written.
        if (!(error instanceof LongshipError && error.code === 'INVALID_URI')) refreshErrors.push(error);
      }
    }
    for (const settle of refreshed.splice(0)) settle();
  };

  const pump = () => {
    if (busy) return;
    const entry = waiting.shift();
    if (entry) {
      busy = true;
      running = entry;
      void run(entry).finally(() => {
        busy = false;
        running = undefined;
        pump();
      });
    } else if (stale.size > 0) {
      busy = true;
      void refresh().finally(() => {
        busy = false;
        pump();
      });
    } else drainIfIdle();
  };

  const cancelEntry = (entry: Entry, reason?: unknown) => {
    if (entry.settled || entry.controller.signal.aborted) return false;
    entry.controller.abort(reason);
    const index = waiting.indexOf(entry);
    if (index >= 0) {
      waiting.splice(index, 1);
      entry.settle({
        jobId: entry.id,
        status: 'cancelled',
        error: aborted(entry.controller.signal.reason),
        finished: [],
      });
      drainIfIdle();
    }
    return true;
  };

  return {
    enqueue(job) {
      if (job === null || typeof job !== 'object' || (job.kind !== 'resource' && job.kind !== 'skill')) {
        throw new LongshipError('INVALID_ARGUMENT', "a job needs kind 'resource' or 'skill'");
      }
      const id = nextId++;
      const controller = new AbortController();
      let resolve!: (result: IngestResult) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<IngestResult>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => undefined);
      const entry: Entry = {
        id,
        job,
        controller,
        finished: [],
        settled: false,
        unlink: () => undefined,
        settle: (outcome) => {
          entry.settled = true;
          entry.unlink();
          outcomes.push(outcome);
          if (outcome.status === 'done') resolve(outcome.result!);
          else reject(outcome.error);
        },
      };
      waiting.push(entry);
      const outer = job.signal;
      if (outer?.aborted) cancelEntry(entry, outer.reason);
      else if (outer) {
        const follow = () => cancelEntry(entry, outer.reason);
        outer.addEventListener('abort', follow, { once: true });
        entry.unlink = () => outer.removeEventListener('abort', follow);
      }
      pump();
      return Object.assign(promise, { id });
    },
    cancel(jobId) {
      const entries = [...(running ? [running] : []), ...waiting];
      let count = 0;
      for (const entry of entries) {
        if (jobId === undefined || entry.id === jobId) {
          if (cancelEntry(entry, new LongshipError('ABORTED', `ingestion job ${entry.id} was cancelled`)))
            count++;
        }
      }
      return count;
    },
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waitProcessed() {
      if (!busy && waiting.length === 0 && stale.size === 0) return Promise.resolve(lastSummary);
      return new Promise((resolve) => waiters.push(resolve));
    },
    get size() {
      return waiting.length + (running ? 1 : 0);
    },
  };
}

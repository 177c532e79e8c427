/**
 * The ingestion queue: jobs run one at a time, in order (IndexedDB serialises writes anyway, and
 * the embedder is the bottleneck either way). A failed or cancelled job does not stop the ones
 * after it. Cancelling stops a job between steps: documents it already committed stay, whole.
 */
import { abortError } from '../abort.js';
import { roots } from '../context/namespace.js';
import { LongshipError } from '../errors.js';
import type {
  AddResourceOptions,
  AddSkillOptions,
  Ingestor,
  IngestProgress,
  IngestResult,
} from './ingest.js';
import type { ResourceInput } from './input.js';
import type { SkillInput } from './skill/skill.js';

/**
 * A job: what to pass to {@link Ingestor.addResource}, {@link Ingestor.addSkill} or
 * {@link Ingestor.removeSkill}, and an optional signal. A removal is queued like an addition, so
 * that it comes after the additions queued before it.
 */
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
    }
  | { kind: 'remove-skill'; name: string; signal?: AbortSignal };

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

/**
 * Creates a FIFO queue over `ingestor`.
 *
 * @example
 * const queue = createIngestQueue(createIngestor({ store, embedder }));
 * queue.onProgress(({ jobId, phase, done, total }) => console.log(jobId, phase, `${done}/${total}`));
 * queue.enqueue({ kind: 'resource', input: files, options: { target: 'viking://resources/repo' } });
 * const { failed, jobs } = await queue.waitProcessed();
 */
export function createIngestQueue(ingestor: QueueIngestor, options: IngestQueueOptions = {}): IngestQueue {
  return new FifoIngestQueue(ingestor, options.nextId);
}

export interface IngestQueueOptions {
  /** Numbers the jobs (default 1, 2, …): an engine shares one count with its other jobs (session commits). */
  nextId?: () => number;
}

type QueueIngestor = Pick<Ingestor, 'addResource' | 'addSkill' | 'removeSkill' | 'refreshParents'>;

const jobKinds = new Set<unknown>(['resource', 'skill', 'remove-skill']);

class FifoIngestQueue implements IngestQueue {
  readonly #ingestor: QueueIngestor;
  readonly #waiting: Entry[] = [];
  #running: Entry | undefined;
  /** A job or the parents' refresh is under way. */
  #busy = false;
  #nextId = 1;
  #outcomes: JobOutcome[] = [];
  #refreshErrors: unknown[] = [];
  /** Targets of the jobs run since the last refresh: their parent directories are out of date. */
  readonly #stale = new Set<string>();
  /** Jobs done, settled once the refresh of their parents has committed. */
  readonly #refreshed: (() => void)[] = [];
  #lastSummary: QueueSummary = summarise([], []);
  #waiters: ((summary: QueueSummary) => void)[] = [];
  readonly #listeners = new Set<(progress: QueueProgress) => void>();

  readonly #newId: () => number;

  constructor(ingestor: QueueIngestor, nextId?: () => number) {
    this.#ingestor = ingestor;
    this.#newId = nextId ?? (() => this.#nextId++);
  }

  enqueue(job: IngestJob): QueuedJob {
    if (job === null || typeof job !== 'object' || !jobKinds.has(job.kind)) {
      throw new LongshipError('INVALID_ARGUMENT', "a job needs kind 'resource', 'skill' or 'remove-skill'");
    }
    const { entry, promise } = this.#entryFor(job);
    this.#waiting.push(entry);
    const outer = job.signal;
    if (outer?.aborted) this.#cancelEntry(entry, outer.reason);
    else if (outer) {
      const follow = () => this.#cancelEntry(entry, outer.reason);
      outer.addEventListener('abort', follow, { once: true });
      entry.unlink = () => outer.removeEventListener('abort', follow);
    }
    this.#pump();
    return Object.assign(promise, { id: entry.id });
  }

  cancel(jobId?: number): number {
    const entries = [...(this.#running ? [this.#running] : []), ...this.#waiting];
    let count = 0;
    for (const entry of entries) {
      if (jobId === undefined || entry.id === jobId) {
        if (this.#cancelEntry(entry, new LongshipError('ABORTED', `ingestion job ${entry.id} was cancelled`)))
          count++;
      }
    }
    return count;
  }

  onProgress(listener: (progress: QueueProgress) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  waitProcessed(): Promise<QueueSummary> {
    if (!this.#busy && this.#waiting.length === 0 && this.#stale.size === 0) {
      return Promise.resolve(this.#lastSummary);
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  get size(): number {
    return this.#waiting.length + (this.#running ? 1 : 0);
  }

  /** A new entry for `job`, and the promise its outcome settles (never an unhandled rejection). */
  #entryFor(job: IngestJob): { entry: Entry; promise: Promise<IngestResult> } {
    let resolve!: (result: IngestResult) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<IngestResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined);
    const entry: Entry = {
      id: this.#newId(),
      job,
      controller: new AbortController(),
      finished: [],
      settled: false,
      unlink: () => undefined,
      settle: (outcome) => {
        entry.settled = true;
        entry.unlink();
        this.#outcomes.push(outcome);
        if (outcome.status === 'done') resolve(outcome.result!);
        else reject(outcome.error);
      },
    };
    return { entry, promise };
  }

  #emit(progress: QueueProgress): void {
    for (const listener of this.#listeners) {
      try {
        listener(progress);
      } catch {
        // A listener's bug must not fail the job it listens to.
      }
    }
  }

  #drainIfIdle(): void {
    if (this.#busy || this.#waiting.length > 0 || this.#stale.size > 0) return;
    if (this.#outcomes.length > 0 || this.#refreshErrors.length > 0) {
      this.#lastSummary = summarise(this.#outcomes, this.#refreshErrors);
      this.#outcomes = [];
      this.#refreshErrors = [];
    }
    const woken = this.#waiters;
    this.#waiters = [];
    for (const wake of woken) wake(this.#lastSummary);
  }

  /** Tracks which documents the job finished and which it is on, and passes its progress on. */
  #progressOf(entry: Entry): (progress: IngestProgress) => void {
    let done = 0;
    return (progress) => {
      if (progress.phase === 'write' && progress.done > done && progress.uri !== undefined) {
        entry.finished.push(progress.uri);
        if (entry.at === progress.uri) entry.at = undefined;
      } else if (progress.uri !== undefined) entry.at = progress.uri;
      done = progress.done;
      this.#emit({ ...progress, jobId: entry.id });
    };
  }

  async #run(entry: Entry): Promise<void> {
    const { job, controller, id } = entry;
    const onProgress = this.#progressOf(entry);
    const signal = controller.signal;
    const refreshParents = false;
    const target = job.kind === 'resource' ? (job.options?.target ?? roots.resource[0]!) : roots.skill[0]!;
    try {
      const result = await this.#start(job, { signal, onProgress, refreshParents });
      const done: JobOutcome = { jobId: id, status: 'done', result, finished: entry.finished };
      await this.#settleAfterRefresh(entry, target, done, true);
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
      await this.#settleAfterRefresh(entry, target, outcome, entry.finished.length > 0);
    }
  }

  #start(
    job: IngestJob,
    options: { signal: AbortSignal; onProgress: (progress: IngestProgress) => void; refreshParents: false },
  ): Promise<IngestResult> {
    if (job.kind === 'resource') return this.#ingestor.addResource(job.input, { ...job.options, ...options });
    if (job.kind === 'skill') return this.#ingestor.addSkill(job.skill, { ...job.options, ...options });
    return this.#ingestor.removeSkill(job.name, options);
  }

  /**
   * A job settles once everything it wrote is committed, its parents' refresh included (so verify()
   * holds then, and nothing it started writes after it); jobs queued behind it share one refresh,
   * at the end of the run. A job that wrote nothing leaves its parents alone.
   */
  async #settleAfterRefresh(
    entry: Entry,
    target: string,
    outcome: JobOutcome,
    wrote: boolean,
  ): Promise<void> {
    if (!wrote) return entry.settle(outcome);
    this.#stale.add(target);
    this.#refreshed.push(() => entry.settle(outcome));
    if (this.#waiting.length === 0) await this.#refresh();
  }

  async #refresh(): Promise<void> {
    const targets = [...this.#stale];
    this.#stale.clear();
    for (const target of targets) {
      try {
        await this.#ingestor.refreshParents(target);
      } catch (error) {
        // A target that never parsed failed its job already; nothing above it was written.
        if (!(error instanceof LongshipError && error.code === 'INVALID_URI'))
          this.#refreshErrors.push(error);
      }
    }
    for (const settle of this.#refreshed.splice(0)) settle();
  }

  #pump(): void {
    if (this.#busy) return;
    const entry = this.#waiting.shift();
    if (entry) {
      this.#busy = true;
      this.#running = entry;
      void this.#run(entry).finally(() => {
        this.#busy = false;
        this.#running = undefined;
        this.#pump();
      });
    } else if (this.#stale.size > 0) {
      this.#busy = true;
      void this.#refresh().finally(() => {
        this.#busy = false;
        this.#pump();
      });
    } else this.#drainIfIdle();
  }

  #cancelEntry(entry: Entry, reason?: unknown): boolean {
    if (entry.settled || entry.controller.signal.aborted) return false;
    entry.controller.abort(reason);
    const index = this.#waiting.indexOf(entry);
    if (index >= 0) {
      this.#waiting.splice(index, 1);
      entry.settle({
        jobId: entry.id,
        status: 'cancelled',
        error: abortError(entry.controller.signal, `ingestion job ${entry.id}, still waiting,`),
        finished: [],
      });
      this.#drainIfIdle();
    }
    return true;
  }
}

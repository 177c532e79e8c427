import { describe, expect, it } from 'vitest';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { LongshipError } from '../../src/errors.js';
import { nodesPerEmbedCall } from '../../src/ingest/commit/commit-units.js';
import type { Ingestor, IngestResult } from '../../src/ingest/ingest.js';
import { createIngestor } from '../../src/ingest/ingestor.js';
import { createIngestQueue, type QueueProgress } from '../../src/ingest/queue.js';
import type { FullStore } from '../../src/store/full-store.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { dump, hashEmbedder, hookedStore, note, notes, quotaStore, stores } from './ingest-support.js';

async function setup(
  wrap: (store: FullStore) => FullStore = (s) => s,
  open: () => Promise<FullStore> = () => openMemoryStore(),
) {
  const base = await open();
  const { embedder } = hashEmbedder();
  const ingestor = createIngestor({ store: wrap(base), embedder });
  const queue = createIngestQueue(ingestor);
  const events: QueueProgress[] = [];
  queue.onProgress((p) => events.push(p));
  return { store: base, ingestor, queue, events };
}

const resource = (name: string, content = note(name)) =>
  ({ kind: 'resource', input: content, options: { name: `${name}.md` } }) as const;

async function failure(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

/** An ingestor whose jobs wait for `release` before they start: to see the queue's order. */
function gatedIngestor(inner: Ingestor) {
  const started: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const ingestor: Ingestor = {
    async addResource(input, options) {
      started.push(options?.name ?? '');
      await gate;
      return inner.addResource(input, options);
    },
    addSkill: (skill, options) => inner.addSkill(skill, options),
    removeSkill: (name, options) => inner.removeSkill(name, options),
    refreshParents: (uri, options) => inner.refreshParents(uri, options),
  };
  return { ingestor, started, release };
}

describe('createIngestQueue', () => {
  it('runs jobs one at a time in order and resolves each with its result', async () => {
    const store = await openMemoryStore();
    const { embedder } = hashEmbedder();
    const gated = gatedIngestor(createIngestor({ store, embedder }));
    const queue = createIngestQueue(gated.ingestor);
    const a = queue.enqueue(resource('a'));
    const b = queue.enqueue(resource('b'));
    expect([a.id, b.id]).toEqual([1, 2]);
    expect(queue.size).toBe(2);
    await Promise.resolve();
    expect(gated.started).toEqual(['a.md']);
    gated.release();
    expect((await a).uris).toEqual(['viking://resources/a.md']);
    expect((await b).uris).toEqual(['viking://resources/b.md']);
    expect(gated.started).toEqual(['a.md', 'b.md']);
    const summary = await queue.waitProcessed();
    expect(summary).toMatchObject({ done: 2, failed: 0, cancelled: 0, refreshErrors: [] });
    expect(summary.jobs.map((j) => [j.jobId, j.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
    ]);
    expect(queue.size).toBe(0);
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('reports progress: read, plan, embed, write for each document, with the job id', async () => {
    const { queue, events } = await setup();
    const folder = ['x', 'y'].map((n) => ({ path: `${n}.md`, content: note(n) }));
    await queue.enqueue({ kind: 'resource', input: folder, options: { name: 'f' } });
    const x = 'viking://resources/f/x.md';
    const y = 'viking://resources/f/y.md';
    expect(events).toEqual([
      { jobId: 1, phase: 'read', done: 0, total: 0 },
      // The folder's files as they are read, then its documents.
      { jobId: 1, phase: 'read', done: 1, total: 2 },
      { jobId: 1, phase: 'read', done: 2, total: 2 },
      { jobId: 1, phase: 'plan', done: 0, total: 2 },
      { jobId: 1, phase: 'embed', done: 0, total: 2, uri: x },
      // Both documents share one embedding call, so one commit: it starts, then each is done.
      { jobId: 1, phase: 'write', done: 0, total: 2, uri: x },
      { jobId: 1, phase: 'write', done: 1, total: 2, uri: x },
      { jobId: 1, phase: 'write', done: 2, total: 2, uri: y },
    ]);
    events.length = 0;
    await queue.enqueue({
      kind: 'skill',
      skill: { name: 'Sum', description: 'Adds numbers.', content: 'x + y' },
    });
    expect(events.map((e) => [e.jobId, e.phase, e.done, e.total])).toEqual([
      [2, 'plan', 0, 1],
      [2, 'embed', 0, 1],
      [2, 'write', 0, 1],
      [2, 'write', 1, 1],
    ]);
  });

  it('brings the parent directories up to date once, when the queue drains', async () => {
    const { queue, store } = await setup();
    for (const name of ['a', 'b', 'c']) queue.enqueue(resource(name));
    const seqs: number[] = [];
    queue.onProgress(async (p) => p.phase === 'read' && seqs.push((await store.meta()).seq));
    await queue.waitProcessed();
    const root = (await store.node('viking://resources'))!;
    expect(root.l0).toMatch(/^resources/);
    expect(root.l1).toContain('a');
    expect((await store.vectorsOfNode(root.key)).length).toBe(1);
    // One commit per document, then one for the root: no refresh in between.
    expect((await store.meta()).seq).toBe(4);
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('keeps going after a failed job and reports the failure in the summary', async () => {
    const { queue, store } = await setup();
    const bad = queue.enqueue({
      kind: 'resource',
      input: new Uint8Array([0, 1, 0]),
      options: { name: 'x.bin' },
    });
    const good = queue.enqueue(resource('good'));
    expect((await failure(bad)).code).toBe('BINARY_INPUT');
    expect((await good).added).toBe(1);
    const summary = await queue.waitProcessed();
    expect(summary).toMatchObject({ done: 1, failed: 1, cancelled: 0 });
    expect((summary.jobs[0]!.error as LongshipError).code).toBe('BINARY_INPUT');
    expect(await store.node('viking://resources/good.md')).toBeDefined();
  });

  it.each(stores)(
    'survives a commit failing for quota in a %s: typed error, consistent store, next job runs',
    async (_, open) => {
      const { queue, store } = await setup((s) => quotaStore(s, (n) => n === 1), open);
      const full = queue.enqueue(resource('full'));
      const next = queue.enqueue(resource('next'));
      expect((await failure(full)).code).toBe('QUOTA_EXCEEDED');
      expect((await next).added).toBe(1);
      const summary = await queue.waitProcessed();
      expect(summary.jobs.map((j) => j.status)).toEqual(['failed', 'done']);
      expect(await store.node('viking://resources/full.md')).toBeUndefined();
      expect(await store.node('viking://resources/next.md')).toBeDefined();
      expect(await store.verify()).toMatchObject({ ok: true });
    },
  );

  it('says which document a failed job was on, and why', async () => {
    // Two embedding calls, each committed whole: the second commit fails.
    const { queue } = await setup((s) => quotaStore(s, (n) => n === 2));
    const input = notes(nodesPerEmbedCall + 2);
    const folder = queue.enqueue({ kind: 'resource', input, options: { name: 'folder' } });
    expect((await failure(folder)).code).toBe('QUOTA_EXCEEDED');
    const [outcome] = (await queue.waitProcessed()).jobs;
    expect(outcome!.status).toBe('failed');
    // The first call also wrote the folder's directories; its documents stay, the next one is named.
    const kept = outcome!.finished.length;
    expect(kept).toBeGreaterThan(nodesPerEmbedCall / 2);
    expect(kept).toBeLessThan(input.length);
    expect(outcome!.at).toBe(`viking://resources/folder/${input[kept]!.path}`);
    expect((outcome!.error as LongshipError).message).toBe('the storage quota is used up');
  });

  it('names the document whose embedding failed, with the embedder’s message', async () => {
    const store = await openMemoryStore();
    const embedder = functionEmbedder({
      id: 'test/picky',
      dimensions: 8,
      embed: async (texts) => {
        if (texts.some((text) => text.includes('kraken'))) throw new Error('cannot embed the kraken');
        return texts.map(() => new Float32Array(8).fill(0.5));
      },
    });
    const queue = createIngestQueue(createIngestor({ store, embedder }));
    const calm = queue.enqueue(resource('calm'));
    const monster = queue.enqueue(resource('monster', 'The kraken rises from the deep.'));
    const summary = await queue.waitProcessed();
    // Listed as they settled: the done job waits for its parents' refresh, the failed one does not.
    const outcome = (job: { id: number }) => summary.jobs.find(({ jobId }) => jobId === job.id)!;
    expect([outcome(calm).status, outcome(monster).status]).toEqual(['done', 'failed']);
    expect(outcome(monster).at).toBe('viking://resources/monster.md');
    expect((outcome(monster).error as Error).message).toBe('cannot embed the kraken');
    expect(outcome(calm).at).toBeUndefined();
  });

  it('does not let an unawaited failure become an unhandled rejection', async () => {
    const { queue } = await setup();
    queue.enqueue({ kind: 'resource', input: new Uint8Array([0, 0]) });
    expect((await queue.waitProcessed()).failed).toBe(1);
  });

  it('cancels a waiting job before it starts, and a running one after the commit it is writing', async () => {
    let queue!: ReturnType<typeof createIngestQueue>;
    const setupResult = await setup((s) =>
      hookedStore(s, undefined, (commit) => commit === 1 && queue.cancel(1)),
    );
    queue = setupResult.queue;
    const { store } = setupResult;
    const folder = notes(nodesPerEmbedCall + 8);
    const running = queue.enqueue({ kind: 'resource', input: folder, options: { name: 'f' } });
    const waiting = queue.enqueue(resource('later'));
    const after = queue.enqueue(resource('after'));
    expect(queue.cancel(waiting.id)).toBe(1);
    expect(queue.cancel(waiting.id)).toBe(0);
    expect((await failure(waiting)).code).toBe('ABORTED');
    expect((await failure(running)).code).toBe('ABORTED');
    expect((await after).added).toBe(1);

    const summary = await queue.waitProcessed();
    expect(summary.jobs.map((j) => [j.jobId, j.status])).toEqual([
      [2, 'cancelled'],
      [1, 'cancelled'],
      [3, 'done'],
    ]);
    // The first commit's documents (one embedding call's) are in, whole; none of the rest.
    const finished = summary.jobs[1]!.finished;
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.length).toBeLessThan(folder.length);
    for (const { path } of folder) {
      const node = await store.node(`viking://resources/f/${path}`);
      if (!finished.includes(`viking://resources/f/${path}`)) expect(node).toBeUndefined();
      else expect((await store.vectorsOfNode(node!.key)).length).toBeGreaterThan(0);
    }
    expect(await store.node('viking://resources/later.md')).toBeUndefined();
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it("follows a job's own AbortSignal, and cancel() with no id stops everything", async () => {
    const { queue, store } = await setup();
    const before = await dump(store);
    const controller = new AbortController();
    controller.abort('no longer needed');
    const early = queue.enqueue({ ...resource('early'), signal: controller.signal });
    expect((await failure(early)).code).toBe('ABORTED');
    expect((await queue.waitProcessed()).jobs).toMatchObject([
      { jobId: early.id, status: 'cancelled', finished: [] },
    ]);

    const late = new AbortController();
    const first = queue.enqueue(resource('first'));
    const second = queue.enqueue({ ...resource('second'), signal: late.signal });
    late.abort('changed my mind');
    const error = await failure(second);
    expect(error.cause).toBe('changed my mind');
    await first;
    const third = queue.enqueue(resource('third'));
    const fourth = queue.enqueue(resource('fourth'));
    expect(queue.cancel()).toBe(2);
    await Promise.allSettled([third, fourth]);
    const summary = await queue.waitProcessed();
    expect(summary.jobs.map((j) => j.status)).toEqual(['cancelled', 'done', 'cancelled', 'cancelled']);
    expect((await dump(store)).nodes.has('viking://resources/second.md')).toBe(false);
    expect(before.nodes.size).toBe(0);
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('resolves waitProcessed at once when idle, with the last busy spell', async () => {
    const { queue } = await setup();
    expect(await queue.waitProcessed()).toEqual({
      jobs: [],
      done: 0,
      failed: 0,
      cancelled: 0,
      refreshErrors: [],
    });
    const result: IngestResult = await queue.enqueue(resource('a'));
    const [one, two] = await Promise.all([queue.waitProcessed(), queue.waitProcessed()]);
    expect(one).toBe(two);
    expect(one.jobs).toEqual([{ jobId: 1, status: 'done', result, finished: ['viking://resources/a.md'] }]);
    expect(await queue.waitProcessed()).toBe(one);
  });

  it('keeps a listener that throws from failing the job', async () => {
    const { queue } = await setup();
    const off = queue.onProgress(() => {
      throw new Error('listener bug');
    });
    expect((await queue.enqueue(resource('a'))).added).toBe(1);
    off();
  });

  it('refuses a job of an unknown kind', async () => {
    const { queue } = await setup();
    expect(() => queue.enqueue({ kind: 'memory' } as never)).toThrow(LongshipError);
  });
});

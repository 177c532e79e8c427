// Commits as jobs (docs/guide/sessions.md): progress, awaiting, cancelling, and the auto-commit policy
// (after N messages, N tokens, or an idle time) starting them in the background.
import { describe, expect, it } from 'vitest';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { type Longship, openLongship } from '../../src/engine.js';
import type { CommitProgress } from '../../src/session/session.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

const words = bagOfWordsEmbedder();
const info = { id: words.id, dimensions: words.dimensions };

/** An embedder that waits while `gate.hold` is set: a commit stays under way until it is released. */
function gated() {
  const gate: { hold?: Promise<void> } = {};
  const embedder = functionEmbedder({
    id: words.id,
    dimensions: words.dimensions,
    embed: async (texts) => {
      if (gate.hold) await gate.hold;
      return words.embed(texts);
    },
  });
  return { gate, embedder };
}

async function open(embedder = words): Promise<Longship> {
  return openLongship({ store: await openMemoryStore({ embedder: info }), embedder });
}

const archives = async (longship: Longship, id: string) =>
  (await longship.sessionInfo(id).catch(() => ({ archives: 0 }))).archives;

describe('commit jobs', () => {
  it('have ids, report their progress, and tell waitCommitted() how they ended', async () => {
    const longship = await open();
    const session = longship.session('jobs');
    for (const text of ['one', 'two', 'three']) await session.addMessage('user', text);
    const heard: CommitProgress[] = [];
    const own: CommitProgress[] = [];
    const stop = session.onCommitProgress((p) => heard.push(p));
    const job = session.commit({ onProgress: (p) => own.push(p) });
    expect(job.id).toBeGreaterThan(0);
    // An ingestion job of the same engine never gets the same id.
    const ingest = longship.addResource('A note.', { name: 'a.md' });
    expect(ingest.id).not.toBe(job.id);
    await ingest;
    const result = await job;
    expect(result.archive).toBe(`${session.uri}/0001`);
    const phases = own.map(({ phase, done, total }) => [phase, done, total]);
    expect(phases).toEqual([
      ['queued', 0, 0],
      ['archive', 0, 3],
      ['archive', 3, 3],
    ]);
    expect(heard).toEqual(own);
    expect(heard.every((p) => p.jobId === job.id && p.session === 'jobs' && !p.auto)).toBe(true);
    expect(await session.waitCommitted()).toEqual([{ jobId: job.id, auto: false, status: 'done', result }]);
    stop();
    await longship.close();
  });

  it('can be cancelled: the messages stay pending and a later commit archives them', async () => {
    const { gate, embedder } = gated();
    const longship = await open(embedder);
    const session = longship.session('cancel');
    await session.addMessage('user', 'Keep me.');
    let release!: () => void;
    gate.hold = new Promise((resolve) => {
      release = resolve;
    });
    const job = session.commit();
    const queued = session.commit();
    expect(await session.cancelCommits()).toBe(2);
    release();
    gate.hold = undefined;
    await expect(job).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(queued).rejects.toMatchObject({ code: 'ABORTED' });
    const outcomes = await session.waitCommitted();
    expect(outcomes.map((o) => [o.jobId, o.status, o.error?.slice(0, 8)])).toEqual([
      [job.id, 'cancelled', 'ABORTED:'],
      [queued.id, 'cancelled', 'ABORTED:'],
    ]);
    expect((await session.messages()).length).toBe(1);
    expect((await session.commit()).messages).toBe(1);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('stop at close(), leaving their messages pending in the store', async () => {
    const { gate, embedder } = gated();
    const store = await openMemoryStore({ embedder: info });
    const longship = await openLongship({ store, embedder });
    const session = longship.session('closing');
    await session.addMessage('user', 'Still here after close.');
    gate.hold = new Promise(() => {});
    const job = session.commit();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await longship.close();
    await expect(job).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});

describe('auto-commit', () => {
  it('commits in the background once N messages are pending', async () => {
    const longship = await open();
    const session = longship.session('by-count', { autoCommit: { messages: 3 } });
    const heard: CommitProgress[] = [];
    session.onCommitProgress((p) => heard.push(p));
    for (let i = 1; i <= 7; i++) {
      await session.addMessage('user', `message ${i}`);
      await session.waitCommitted();
    }
    expect(await archives(longship, 'by-count')).toBe(2);
    expect((await session.messages()).map((m) => m.parts)).toEqual([[{ type: 'text', text: 'message 7' }]]);
    expect(heard.filter((p) => p.phase === 'queued').every((p) => p.auto)).toBe(true);
    expect((await longship.ls(`${session.uri}/0002`)).map((n) => n.name)).toEqual([
      '0001-user',
      '0002-user',
      '0003-user',
    ]);
    await longship.close();
  });

  it('commits once the pending messages reach N tokens', async () => {
    const longship = await open();
    const session = longship.session('by-tokens', { autoCommit: { tokens: 12 } });
    await session.addMessage('user', 'short');
    await session.waitCommitted();
    expect(await archives(longship, 'by-tokens')).toBe(0);
    await session.addMessage('user', 'a longer message, with several words and some punctuation in it.');
    const [outcome] = await session.waitCommitted();
    expect(outcome).toMatchObject({ auto: true, status: 'done', result: { messages: 2 } });
    await longship.close();
  });

  it('commits after idleMs without a new message, and not before', async () => {
    const longship = await open();
    const session = longship.session('idle', { autoCommit: { idleMs: 400 } });
    await session.addMessage('user', 'first');
    await new Promise((resolve) => setTimeout(resolve, 250));
    await session.addMessage('user', 'second');
    await new Promise((resolve) => setTimeout(resolve, 250));
    // 500 ms since the first message, 250 since the second: the timer restarted.
    expect(await archives(longship, 'idle')).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [outcome] = await session.waitCommitted();
    expect(outcome).toMatchObject({ auto: true, status: 'done', result: { messages: 2 } });
    await longship.close();
  });

  it('waits for a commit under way when idle, then commits what it left pending', async () => {
    const { gate, embedder } = gated();
    const longship = await open(embedder);
    const session = longship.session('idle-busy', { autoCommit: { idleMs: 40 } });
    await session.addMessage('user', 'first');
    let release!: () => void;
    gate.hold = new Promise((resolve) => {
      release = resolve;
    });
    const job = session.commit();
    await new Promise((resolve) => setTimeout(resolve, 10));
    gate.hold = undefined;
    await session.addMessage('user', 'second');
    // The idle time passes while the first commit is held.
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    expect((await job).messages).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outcomes = await session.waitCommitted();
    expect(outcomes.map((o) => [o.auto, o.status, o.result?.messages])).toContainEqual([true, 'done', 1]);
    expect(await archives(longship, 'idle-busy')).toBe(2);
    expect(await session.messages()).toEqual([]);
    await longship.close();
  });

  it('reports a failed auto-commit to waitCommitted(), never as an unhandled rejection', async () => {
    const failing = functionEmbedder({
      id: words.id,
      dimensions: words.dimensions,
      embed: async (texts) => {
        if (texts.some((t) => t.includes('explode'))) throw new Error('the embedder broke');
        return words.embed(texts);
      },
    });
    const longship = await open(failing);
    const session = longship.session('broken', { autoCommit: { messages: 1 } });
    await session.addMessage('user', 'explode');
    const [outcome] = await session.waitCommitted();
    expect(outcome).toMatchObject({ auto: true, status: 'failed' });
    expect(outcome!.error).toContain('the embedder broke');
    expect((await session.messages()).length).toBe(1);
    await longship.close();
  });
});

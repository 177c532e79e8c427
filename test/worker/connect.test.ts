// The page ↔ worker protocol, in one process over a MessageChannel: the same comlink messages a
// Worker carries, with a memory store and a hashing embedder so each test takes milliseconds.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import type { QueueProgress } from '../../src/ingest/queue.js';
import type { Message } from '../../src/session/message.js';
import type { CommitProgress, CommitResult, Session } from '../../src/session/session.js';
import { loadUsearch } from '../../src/vector/usearch-module.js';
import { connectLongship, type RemoteLongship, transfer } from '../../src/worker/connect.js';
import { createLongshipHost, type ExposeLongshipOptions } from '../../src/worker/expose.js';
import { hashEmbedder } from '../context/fixtures.js';
import { gatedEmbedder, openGatedLongship, openTestLongship } from './fixture.js';

const R = 'viking://resources';
const ports: MessagePort[] = [];

afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

/** A host and one page connected to it; `open` defaults to a fresh test Longship. */
async function connected(open: ExposeLongshipOptions['open'] = openTestLongship) {
  const host = createLongshipHost({ open, locks: null });
  return { host, longship: await connectTo(host) };
}

async function connectTo(
  host: ReturnType<typeof createLongshipHost>,
  options: { user?: string; agent?: string } = {},
): Promise<RemoteLongship> {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  host.connect(port1);
  return connectLongship(port2, { ...options, dispose: () => port2.close() });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('connectLongship', () => {
  it('serves each page as the user it names, in the one engine', async () => {
    const host = createLongshipHost({ open: openTestLongship, locks: null });
    const alice = await connectTo(host, { user: 'alice' });
    const bob = await connectTo(host, { user: 'bob', agent: 'helper' });
    const plain = await connectTo(host);
    expect(alice.namespace).toEqual({ user: 'alice', agent: 'default' });
    expect(bob.namespace).toEqual({ user: 'bob', agent: 'helper' });
    expect(plain.namespace).toEqual({ user: 'default', agent: 'default' });
    const written = await alice.write(
      'viking://~/memories/events/trip',
      'Alice sails to the island in May.',
      {
        parents: true,
      },
    );
    expect(written.uri).toBe('viking://user/alice/memories/events/trip');
    expect((await alice.find('sails island May')).memories.map((m) => m.uri)).toEqual([written.uri]);
    expect((await bob.find('sails island May')).memories).toEqual([]);
    // A page that names a reserved id is refused at open, and the others go on.
    const error = await rejection(connectTo(host, { user: 'memories' }));
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
    expect(await plain.read(written.uri)).toContain('island');
    for (const page of [alice, bob, plain]) await page.close();
  });

  it('says whether the worker keeps its store: a folder does, memory does not', async () => {
    const path = await mkdtemp(join(tmpdir(), 'longship-connect-'));
    const { longship } = await connected(async () =>
      openLongship({ store: path, embedder: hashEmbedder, usearch: await loadUsearch() }),
    );
    expect(longship.persistent).toBe(true);
    await longship.close();
    await rm(path, { recursive: true, force: true });
  });

  it('has every method of Longship, and they work', async () => {
    const local = await openTestLongship();
    // as() and export() stay in the worker: one user and agent per worker, and streams do not cross.
    const methods = Object.keys(local).filter(
      (key) => typeof local[key as keyof Longship] === 'function' && key !== 'as' && key !== 'export',
    );
    await local.close();

    const { longship } = await connected();
    expect(Object.keys(longship).sort()).toEqual([...methods, 'embedder', 'persistent', 'namespace'].sort());
    expect(longship.namespace).toEqual({ user: 'default', agent: 'default' });
    expect(longship.embedder).toEqual({ id: 'test/hashed-words', dimensions: 32 });
    expect(longship.persistent).toBe(false);

    await longship.write(`${R}/notes/river.md`, 'The river floods every spring.', { parents: true });
    await longship.write(`${R}/notes/desert.md`, 'The desert is dry all year.');
    expect((await longship.ls(`${R}/notes`)).map((n) => n.name).sort()).toEqual(['desert.md', 'river.md']);
    expect(await longship.read(`${R}/notes/river.md`)).toBe('The river floods every spring.');
    expect(await longship.grep(/floods/)).toEqual([
      { uri: `${R}/notes/river.md`, line: 1, text: 'The river floods every spring.' },
    ]);
    const found = await longship.find('river floods', { limit: 1 });
    expect(found.resources.map((r) => r.uri)).toEqual([`${R}/notes/river.md`]);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('rejects with LongshipErrors that keep their class, code, message and the worker stack', async () => {
    const { longship } = await connected();
    const error = await rejection(longship.read(`${R}/missing.md`));
    expect(error).toBeInstanceOf(LongshipError);
    const typed = error as LongshipError;
    expect(typed.code).toBe('NOT_FOUND');
    expect(typed.name).toBe('LongshipError');
    expect(typed.message).toMatch(/no node/);
    expect(typed.stack).toMatch(/store-tree|tree/);

    const invalid = await rejection(longship.ls('not-a-uri'));
    expect((invalid as LongshipError).code).toBe('INVALID_URI');
    // A method the engine does not have, called by name, is refused the same way.
    const unknown = (longship as unknown as { nope: () => Promise<void> }).nope;
    expect(unknown).toBeUndefined();
    await longship.close();
  });

  it('keeps a foreign error its class and a LongshipError its cause', async () => {
    const { longship } = await connected(async () => {
      const engine = await openTestLongship();
      return {
        ...engine,
        stat: async () => {
          throw new LongshipError('STORE_ERROR', 'the disk is gone', { cause: new RangeError('offset 9') });
        },
        abstract: async () => {
          throw new TypeError('not a string');
        },
      };
    });
    const wrapped = (await rejection(longship.stat(`${R}`))) as LongshipError;
    expect(wrapped).toBeInstanceOf(LongshipError);
    expect(wrapped.code).toBe('STORE_ERROR');
    expect(wrapped.cause).toBeInstanceOf(RangeError);
    expect((wrapped.cause as Error).message).toBe('offset 9');
    const foreign = await rejection(longship.abstract(`${R}`));
    expect(foreign).toBeInstanceOf(TypeError);
    expect((foreign as Error).message).toBe('not a string');
    await longship.close();
  });

  it('returns errors inside results as LongshipErrors (a folder entry skipped as binary)', async () => {
    const { longship } = await connected();
    const result = await longship.addResource(
      [
        { path: 'a.md', content: '# A\n\nAlpha text.' },
        { path: 'b.bin', content: new Uint8Array([0, 1, 2, 0, 0, 0]) },
      ],
      { target: `${R}/mixed` },
    );
    expect(result.added).toBeGreaterThan(0);
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]!.error).toBeInstanceOf(LongshipError);
    expect(result.skipped[0]!.error.code).toBe('BINARY_INPUT');
    await longship.close();
  });

  it('sends a FileList as its folder: each File at its relative path, hidden entries left out', async () => {
    const picked = (path: string, content: string) =>
      Object.defineProperty(new File([content], path.split('/').at(-1)!), 'webkitRelativePath', {
        value: path,
      });
    const files = [
      picked('docs/a.md', '# A\n\nAlpha text.'),
      picked('docs/.git/HEAD', 'ref: main'),
      picked('docs/guide/b.md', '# B\n\nBeta text.'),
    ];
    // A FileList's shape; this one, like a real one in some browsers, does not survive structured clone.
    const list = { length: files.length, item: (i: number) => files[i] ?? null };
    const { longship } = await connected();
    const result = await longship.addResource(list, { target: `${R}/picked` });
    expect(result.uris).toEqual([`${R}/picked/docs/a.md`, `${R}/picked/docs/guide/b.md`]);
    expect(await longship.read(`${R}/picked/docs/guide/b.md`)).toBe('# B\n\nBeta text.');
    await longship.close();
  });

  it('runs addResource as a job: an id, every progress event before the result, the result', async () => {
    const { longship } = await connected();
    const heard: QueueProgress[] = [];
    const everything: QueueProgress[] = [];
    const stop = await longship.onProgress((progress) => everything.push(progress));
    const folder = Array.from({ length: 40 }, (_, i) => ({
      path: `river-${i}.md`,
      content: `# River ${i}\n\nRiver ${i} floods in spring.`,
    }));
    const job = longship.addResource(folder, {
      target: `${R}/rivers`,
      onProgress: (progress) => heard.push(progress),
    });
    const id = await job.id;
    expect(typeof id).toBe('number');
    const result = await job;
    // No waiting here: the job's own callbacks have all run once its result arrives.
    expect(heard.every((p) => p.jobId === id)).toBe(true);
    expect(heard.filter((p) => p.phase === 'write').at(-1)).toMatchObject({ done: 40, total: 40 });
    expect(result.added).toBe(40);
    const summary = await longship.waitProcessed();
    expect(summary.done).toBe(1);
    // A listener of the whole queue is not tied to one call: its messages may land a little later.
    await until(() => everything.some((p) => p.jobId === id));

    await stop();
    const before = everything.length;
    // A listener still subscribed (after the stopped one, so called after it) hears the next job
    // through: by then anything sent to the stopped one would have come too.
    const after: QueueProgress[] = [];
    const stopAfter = await longship.onProgress((progress) => after.push(progress));
    const own: QueueProgress[] = [];
    const lakes = longship.addResource('Lakes are still.', {
      name: 'lakes.md',
      onProgress: (progress) => own.push(progress),
    });
    const lakesId = await lakes.id;
    await lakes;
    expect(own.length).toBeGreaterThan(0);
    await until(() => after.filter((p) => p.jobId === lakesId).length >= own.length);
    await turns();
    expect(everything.length).toBe(before);
    await stopAfter();
    await longship.close();
  });

  it('rejects a failed job with its typed error, and its id too', async () => {
    const { longship } = await connected();
    const job = longship.addResource('x', { name: 'x.md', maxBytes: -1 });
    const error = await rejection(job);
    expect(error).toBeInstanceOf(LongshipError);
    expect(typeof (await job.id.catch(() => 0))).toBe('number');
    const bad = longship.addResource(Symbol('nope') as unknown as string);
    expect(await rejection(bad)).toBeInstanceOf(Error);
    await longship.close();
  });

  it('aborts find() and a queued job through their AbortSignals', async () => {
    const gate = gatedEmbedder();
    const { longship } = await connected(() => openGatedLongship(gate.embedder));
    gate.open();
    await longship.write(`${R}/before.md`, 'Something to find.');
    gate.shut();

    const controller = new AbortController();
    const finding = longship.find('anything at all', { signal: controller.signal, mode: 'quick' });
    await until(() => gate.waiting === 1);
    controller.abort(new Error('the user typed again'));
    const error = (await rejection(finding)) as LongshipError;
    expect(error).toBeInstanceOf(LongshipError);
    expect(error.code).toBe('ABORTED');
    // The reason crossed too, as the abort's cause.
    expect((error.cause as Error).message).toBe('the user typed again');

    const jobs = new AbortController();
    const first = longship.addResource('Held at the gate.', { name: 'held.md', signal: jobs.signal });
    const second = longship.addResource('Queued behind it.', { name: 'queued.md', signal: jobs.signal });
    await until(() => gate.waiting === 2);
    jobs.abort();
    expect(((await rejection(first)) as LongshipError).code).toBe('ABORTED');
    expect(((await rejection(second)) as LongshipError).code).toBe('ABORTED');
    // The queue then brings the parent directories up to date, which embeds: let it through.
    gate.open();
    const summary = await longship.waitProcessed();
    expect(summary.cancelled).toBe(2);

    const already = AbortSignal.abort();
    expect(((await rejection(longship.find('x', { signal: already }))) as LongshipError).code).toBe(
      'ABORTED',
    );
    await longship.write(`${R}/after.md`, 'Still works.');
    expect(await longship.read(`${R}/after.md`)).toBe('Still works.');
    await longship.close();
  });

  it('moves buffers: results always, arguments when marked with transfer()', async () => {
    const kept: Float32Array[] = [];
    const received: Uint8Array[] = [];
    // Table methods with other results and arguments than the engine's: only the wire is tested.
    const { longship } = await connected(async () => {
      const engine = await openTestLongship();
      return Object.assign(engine, {
        abstract: async (text: string) => {
          const [vector] = await engine.embedder.embed([text]);
          kept.push(vector!);
          return { vector, dims: vector!.length };
        },
        overview: async (bytes: Uint8Array) => {
          received.push(bytes);
          return bytes.byteLength;
        },
      });
    });
    const remote = longship as unknown as {
      abstract(text: string): Promise<{ vector: Float32Array; dims: number }>;
      overview(bytes: Uint8Array): Promise<number>;
    };
    const { vector, dims } = await remote.abstract('river');
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector.length).toBe(32);
    expect(dims).toBe(32);
    // The worker's copy was moved out, not cloned.
    expect(kept[0]!.byteLength).toBe(0);

    const copied = new Uint8Array(1024).fill(7);
    expect(await remote.overview(copied)).toBe(1024);
    expect(copied.byteLength).toBe(1024);
    const moved = new Uint8Array(2048).fill(9);
    expect(await remote.overview(transfer(moved, [moved.buffer]))).toBe(2048);
    expect(moved.byteLength).toBe(0);
    expect(received[1]![2047]).toBe(9);
    await longship.close();
  });

  it('hands back a session as a proxy of its own: the table’s methods and its data', async () => {
    const dropped: string[] = [];
    const { longship } = await connected(async () => {
      const engine = await openTestLongship();
      return Object.assign(engine, {
        session: (id: string) => {
          const messages: Message[] = [];
          const heard = new Set<(progress: CommitProgress) => void>();
          const session: Session = {
            id,
            uri: `viking://session/${id}`,
            messages: async () => [...messages],
            addMessage: async (role, parts) => {
              const message: Message = { role, parts: [{ type: 'text', text: String(parts) }], at: 1 };
              messages.push(message);
              return message;
            },
            used: async (uris) => uris.length,
            commit: () => {
              const progress: CommitProgress = {
                jobId: 7,
                session: id,
                auto: false,
                phase: 'archive',
                done: 0,
                total: 1,
              };
              for (const listener of heard) listener(progress);
              return Object.assign(Promise.resolve({ archived: true } as unknown as CommitResult), { id: 7 });
            },
            onCommitProgress: (listener) => {
              heard.add(listener);
              return () => heard.delete(listener);
            },
            waitCommitted: async () => [],
            cancelCommits: async () => 0,
            context: async () => ({
              recent: messages.slice(-1).map((m) => ({ role: m.role, text: 'last' })),
            }),
          };
          // Not in the table: the page never sees it.
          return Object.assign(session, { drop: () => dropped.push(id) });
        },
      });
    });
    const session = await longship.session('s1');
    expect(session.id).toBe('s1');
    expect(session.uri).toBe('viking://session/s1');
    expect(await session.messages()).toEqual([]);
    expect(Object.keys(session).sort()).toEqual([
      'addMessage',
      'cancelCommits',
      'commit',
      'context',
      'id',
      'messages',
      'onCommitProgress',
      'uri',
      'used',
      'waitCommitted',
    ]);
    await session.addMessage('user', 'hello');
    await session.addMessage('assistant', 'again');
    expect((await session.messages()).map((m) => m.parts[0])).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'text', text: 'again' },
    ]);
    expect((await session.context()).recent).toEqual([{ role: 'assistant', text: 'last' }]);
    expect(await session.used(['a', 'b'])).toBe(2);
    const heard: CommitProgress[] = [];
    const stop = await session.onCommitProgress((p) => heard.push(p));
    const job = session.commit();
    expect(await job.id).toBe(7);
    expect(await job).toEqual({ archived: true });
    await stop();
    expect(heard.map((p) => p.phase)).toEqual(['archive']);
    expect(dropped).toEqual([]);
    await longship.close();
  });

  it('lets go of an unsubscribe once called: a second call finds nothing', async () => {
    const { longship } = await connected();
    const stop = await longship.onProgress(() => {});
    await stop();
    expect(((await rejection(stop())) as LongshipError).code).toBe('NOT_FOUND');
    await longship.close();
  });

  it("runs the engine's own sessions through the proxy", async () => {
    const { longship } = await connected();
    const session = await longship.session('chat-1');
    expect(session.id).toBe('chat-1');
    expect(session.uri).toMatch(/chat-1$/);
    const message = await session.addMessage('user', 'How do rivers flood?');
    expect(message.role).toBe('user');
    expect(await session.messages()).toHaveLength(1);
    // Another proxy of the same id reads the same stored messages.
    const again = await longship.session('chat-1');
    expect((await again.messages()).map((m) => m.parts)).toEqual([
      [{ type: 'text', text: 'How do rivers flood?' }],
    ]);
    const job = session.commit();
    expect(typeof (await job.id)).toBe('number');
    const committed = await job;
    expect(committed.messages).toBe(1);
    expect(await session.messages()).toHaveLength(0);
    expect((await longship.listSessions()).map((s) => [s.id, s.pending, s.archives])).toEqual([
      ['chat-1', 0, 1],
    ]);
    await longship.close();
  });

  it("gives a callback's answer to a worker that awaits it, and a thrown value as it was", async () => {
    const { longship } = await connected(async () => {
      const engine = await openTestLongship();
      return Object.assign(engine, {
        stat: async (_uri: string, options: { question: (text: string) => Promise<string> }) =>
          `answer: ${await options.question('why?')}`,
        abstract: async () => {
          throw 'a string, not an Error';
        },
      });
    });
    const remote = longship as unknown as {
      stat(uri: string, options: { question: (text: string) => string }): Promise<string>;
      abstract(): Promise<void>;
    };
    expect(await remote.stat(R, { question: (text) => `because ${text}` })).toBe('answer: because why?');
    expect(await rejection(remote.abstract())).toBe('a string, not an Error');
    await longship.close();
  });

  it('shares one engine between pages and closes it with the last one', async () => {
    let opens = 0;
    let closes = 0;
    const host = createLongshipHost({
      locks: null,
      open: async () => {
        opens++;
        const engine = await openTestLongship();
        return {
          ...engine,
          close: async () => {
            closes++;
            await engine.close();
          },
        };
      },
    });
    const [a, b] = await Promise.all([connectTo(host), connectTo(host)]);
    await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => a.write(`${R}/a${i}.md`, `from a ${i}`)),
      ...Array.from({ length: 5 }, (_, i) => b.write(`${R}/b${i}.md`, `from b ${i}`)),
    ]);
    expect(opens).toBe(1);
    expect((await b.ls(R)).length).toBe(10);
    await a.close();
    expect(closes).toBe(0);
    expect(((await rejection(a.ls(R))) as LongshipError).code).toBe('STORE_CLOSED');
    expect(await b.read(`${R}/a3.md`)).toBe('from a 3');
    await b.close();
    expect(closes).toBe(1);

    // The next page opens it again.
    const c = await connectTo(host);
    expect(opens).toBe(2);
    await c.close();
  });

  it('lets a page close while its job runs on for the others: the write is not lost', async () => {
    const gate = gatedEmbedder();
    const host = createLongshipHost({ locks: null, open: () => openGatedLongship(gate.embedder) });
    const [a, b] = await Promise.all([connectTo(host), connectTo(host)]);
    const job = a.addResource('# Kept\n\nWritten after its page left.', { name: 'kept.md' });
    await job.id;
    await until(() => gate.waiting === 1);
    await a.close();
    // Page a hears no more; the job is the engine's, and runs on.
    expect(((await rejection(job)) as LongshipError).code).toBe('STORE_CLOSED');
    gate.open();
    const summary = await b.waitProcessed();
    expect(summary.done).toBe(1);
    expect(await b.read('viking://resources/kept.md')).toMatch(/Written after its page left/);
    await b.close();
  });

  it('fails to connect with the typed error of a failed open', async () => {
    const host = createLongshipHost({
      locks: null,
      open: async () => {
        throw new LongshipError('EMBEDDER_MISMATCH', 'the store was written by another model');
      },
    });
    const error = (await rejection(connectTo(host))) as LongshipError;
    expect(error).toBeInstanceOf(LongshipError);
    expect(error.code).toBe('EMBEDDER_MISMATCH');
  });
});

/** Turns of the event loop: messages already posted on a port are delivered within them. */
async function turns(count = 20): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

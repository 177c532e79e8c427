// How pending messages are kept (docs/guide/sessions.md, "Pending messages are kept in chunks"): an append
// writes and reads one chunk whatever the number pending, context() reads the last chunks only, a
// commit takes out exactly what it archived, and stores of the earlier layout (the messages in the
// session directory's meta) still open, read and move them.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { type Longship, openLongship } from '../../src/engine.js';
import type { Message } from '../../src/session/message.js';
import { CHUNK_MESSAGES } from '../../src/session/pending-messages.js';
import type { FullStore } from '../../src/store/full-store.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { NodeRecord, WriteBatch } from '../../src/store/store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';
import { tempFolder } from '../store/file-harness.js';

const embedder = bagOfWordsEmbedder();
const info = { id: embedder.id, dimensions: embedder.dimensions };

/** What went through the store since the last `reset()`: the batches committed, the nodes read. */
interface Traffic {
  written: WriteBatch[];
  read: NodeRecord[];
  reset(): void;
}

/** The store, with every commit and every node it hands out recorded. */
function recorded(store: FullStore): { store: FullStore; traffic: Traffic } {
  const traffic: Traffic = {
    written: [],
    read: [],
    reset() {
      traffic.written = [];
      traffic.read = [];
    },
  };
  const reads = new Set(['node', 'nodes', 'nodeByKey', 'children', 'descendants']);
  const proxy = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (name === 'commit') {
        return (batch: WriteBatch, ...rest: unknown[]) => {
          traffic.written.push(batch);
          return value.call(target, batch, ...rest);
        };
      }
      if (reads.has(name as string)) {
        return async (...args: unknown[]) => {
          const found = await value.apply(target, args);
          traffic.read.push(...[found].flat().filter(Boolean));
          return found;
        };
      }
      return value.bind(target);
    },
  });
  return { store: proxy, traffic };
}

/** The messages held by these nodes, in either layout. */
const messagesIn = (nodes: readonly (NodeRecord | undefined)[]) =>
  nodes.reduce((sum, node) => {
    const { messages, pending } = node?.meta ?? {};
    return (
      sum + (Array.isArray(messages) ? messages.length : 0) + (Array.isArray(pending) ? pending.length : 0)
    );
  }, 0);

const texts = async (longship: Longship, id: string) =>
  (await longship.session(id).messages()).map((m) => (m.parts[0] as { text: string }).text);

describe('an append', () => {
  it('writes and reads one chunk of messages, however many are pending', async () => {
    const { store, traffic } = recorded(await openMemoryStore({ embedder: info }));
    const longship = await openLongship({ store, embedder });
    const session = longship.session('long');
    const written: number[] = [];
    const read: number[] = [];
    for (let i = 1; i <= 5 * CHUNK_MESSAGES; i++) {
      traffic.reset();
      await session.addMessage(i % 2 ? 'user' : 'assistant', `message ${i}`);
      written.push(messagesIn(traffic.written.flatMap((b) => b.putNodes ?? [])));
      read.push(messagesIn(traffic.read));
    }
    // Before, each append wrote (and read) every message pending: 160 at the last one.
    expect(Math.max(...written)).toBeLessThanOrEqual(CHUNK_MESSAGES);
    expect(Math.max(...read)).toBeLessThanOrEqual(CHUNK_MESSAGES);

    traffic.reset();
    expect((await session.context()).recent.map((m) => m.text)).toEqual(
      [156, 157, 158, 159, 160].map((i) => `message ${i}`),
    );
    expect(messagesIn(traffic.read)).toBeLessThanOrEqual(2 * CHUNK_MESSAGES);
    expect(await texts(longship, 'long')).toEqual(Array.from({ length: 160 }, (_, i) => `message ${i + 1}`));
    expect((await longship.sessionInfo('long')).pending).toBe(160);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('fills chunks in order under the pending directory, which a commit removes', async () => {
    const longship = await openLongship({ store: await openMemoryStore({ embedder: info }), embedder });
    const session = longship.session('chunks');
    for (let i = 1; i <= 2 * CHUNK_MESSAGES + 1; i++) await session.addMessage('user', `m${i}`);
    expect((await longship.ls(session.uri)).map((n) => n.name)).toEqual(['pending']);
    expect((await longship.ls(`${session.uri}/pending`)).map((n) => n.name)).toEqual([
      '000001',
      '000002',
      '000003',
    ]);
    // Their text is in their meta only: pending messages are not grep's, nor read()'s.
    expect(await longship.read(`${session.uri}/pending/000001`)).toBe('');
    expect(await longship.grep('m7')).toEqual([]);
    const { archive, messages } = await session.commit();
    expect(messages).toBe(2 * CHUNK_MESSAGES + 1);
    expect((await longship.ls(session.uri)).map((n) => n.name)).toEqual(['0001']);
    expect((await longship.ls(archive!)).at(-1)?.name).toBe(`00${2 * CHUNK_MESSAGES + 1}-user`);
    // Later messages start a pending directory afresh.
    await session.addMessage('user', 'after');
    expect((await longship.ls(`${session.uri}/pending`)).map((n) => n.name)).toEqual(['000001']);
    expect((await session.context()).recent.map((m) => m.text).slice(-2)).toEqual([
      `m${2 * CHUNK_MESSAGES + 1}`,
      'after',
    ]);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('made while a commit embeds stays pending, in the chunk it shared or a new one', async () => {
    for (const before of [3, CHUNK_MESSAGES]) {
      const gate: { hold?: Promise<void> } = {};
      const slow = functionEmbedder({
        ...info,
        embed: async (input) => {
          if (gate.hold) await gate.hold;
          return embedder.embed(input);
        },
      });
      const longship = await openLongship({
        store: await openMemoryStore({ embedder: info }),
        embedder: slow,
      });
      const session = longship.session('busy');
      for (let i = 1; i <= before; i++) await session.addMessage('user', `old ${i}`);
      let release!: () => void;
      gate.hold = new Promise((resolve) => {
        release = resolve;
      });
      const job = session.commit();
      await new Promise((resolve) => setTimeout(resolve, 20));
      gate.hold = undefined;
      await session.addMessage('user', 'new 1');
      await session.addMessage('user', 'new 2');
      release();
      expect((await job).messages, `${before} before`).toBe(before);
      expect(await texts(longship, 'busy')).toEqual(['new 1', 'new 2']);
      expect((await longship.sessionInfo('busy')).pending).toBe(2);
      expect((await session.commit()).messages).toBe(2);
      expect(await longship.glob(`${session.uri}/**`)).not.toContain(`${session.uri}/pending`);
      expect((await longship.verify()).problems).toEqual([]);
      await longship.close();
    }
  });

  it('is NOT_A_DIRECTORY where a file stands in the way of the pending directory, and writes nothing', async () => {
    const longship = await openLongship({ store: await openMemoryStore({ embedder: info }), embedder });
    const session = longship.session('blocked');
    await longship.write(`${session.uri}/pending`, 'A file.', { parents: true });
    const seq = (await longship.store.meta()).seq;
    const error = await session.addMessage('user', 'hello').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'LongshipError', code: 'NOT_A_DIRECTORY' });
    expect((await longship.store.meta()).seq).toBe(seq);
    expect(await session.messages()).toEqual([]);
    expect(await session.commit()).toEqual({ messages: 0, extractions: [] });
    await longship.close();
  });

  it('keeps a pending directory someone else put a node in', async () => {
    const longship = await openLongship({ store: await openMemoryStore({ embedder: info }), embedder });
    const session = longship.session('shared');
    await session.addMessage('user', 'hello');
    await longship.write(`${session.uri}/pending/note.md`, 'Mine.');
    expect((await session.commit()).messages).toBe(1);
    expect(await longship.glob(`${session.uri}/pending/**`)).toEqual([`${session.uri}/pending/note.md`]);
    await session.addMessage('user', 'again');
    expect(await texts(longship, 'shared')).toEqual(['again']);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});

describe('a store written before pending messages were chunked', () => {
  const message = (text: string, at: number): Message => ({
    role: 'user',
    parts: [{ type: 'text', text }],
    at,
  });
  const legacy = [message('one', 1), message('two', 2), message('three', 3)];

  /** A file store whose session `old` keeps `legacy` in its directory's meta, as earlier versions did. */
  async function oldStore(): Promise<string> {
    const path = join(tempFolder(), `legacy-${Math.random().toString(36).slice(2)}`);
    const longship = await openLongship({ store: path, embedder });
    const session = longship.session('old');
    await session.used(['viking://resources/a.md']);
    const node = (await longship.store.node(session.uri))!;
    await longship.store.commit({
      putNodes: [{ ...node, meta: { ...node.meta, pending: legacy } }],
    });
    await longship.close();
    return path;
  }

  it('reads them, and moves them into chunks at the next message', async () => {
    const path = await oldStore();
    const first = await openLongship({ store: path, embedder });
    expect(await texts(first, 'old')).toEqual(['one', 'two', 'three']);
    expect((await first.sessionInfo('old')).pending).toBe(3);
    expect((await first.session('old').context()).recent.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    await first.session('old').addMessage('user', 'four');
    expect((await first.stat('viking://user/default/sessions/old')).meta.pending).toBeUndefined();
    await first.close();

    const second = await openLongship({ store: path, embedder });
    expect(await texts(second, 'old')).toEqual(['one', 'two', 'three', 'four']);
    const { archive, messages } = await second.session('old').commit();
    expect(messages).toBe(4);
    expect((await second.ls(archive!)).map((n) => n.name)).toEqual([
      '0001-user',
      '0002-user',
      '0003-user',
      '0004-user',
    ]);
    expect((await second.stat(archive!)).meta.used).toEqual(['viking://resources/a.md']);
    expect((await second.verify()).problems).toEqual([]);
    await second.close();
  });

  it('archives them at the next commit', async () => {
    const path = await oldStore();
    const longship = await openLongship({ store: path, embedder });
    const { archive, messages } = await longship.session('old').commit();
    expect(messages).toBe(3);
    expect(await longship.read(`${archive}/0003-user`)).toBe('three');
    expect(await texts(longship, 'old')).toEqual([]);
    expect((await longship.ls('viking://user/default/sessions/old')).map((n) => n.name)).toEqual(['0001']);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});

describe('pending messages in find()', () => {
  it('are never results, in either mode, and a node marked so neither', async () => {
    const longship = await openLongship({ store: await openMemoryStore({ embedder: info }), embedder });
    const session = longship.session('talk');
    for (let i = 1; i <= CHUNK_MESSAGES + 1; i++) await session.addMessage('user', `conversation part ${i}`);
    await longship.write('viking://resources/hidden.md', 'conversation part hidden', {
      meta: { searchable: false },
    });
    await longship.write('viking://resources/shown.md', 'conversation part shown');
    await longship.waitProcessed();
    for (const mode of ['quick', 'thinking'] as const) {
      const { memories, resources } = await longship.find('conversation part messages', { mode, limit: 20 });
      const uris = [...memories, ...resources].map((hit) => hit.uri);
      expect(uris).toContain('viking://resources/shown.md');
      expect(uris.filter((uri) => uri.includes('/pending') || uri.endsWith('hidden.md'))).toEqual([]);
    }
    await longship.close();
  });
});

describe('messages to several new sessions at once', () => {
  it('each land, whichever creates the sessions root, or heals one context() made bare', async () => {
    for (const bareRoot of [false, true]) {
      const longship = await openLongship({ store: await openMemoryStore({ embedder: info }), embedder });
      if (bareRoot) {
        // context() records what it gave a session, making its directory and the root with no vectors.
        await longship.write('viking://resources/notes.md', 'Upload retries back off.');
        await longship.context('upload retries', { budget: { tokens: 400 }, session: 's0' });
      }
      // Found by the model test: both wrote the sessions root, and one failed with INVALID_ARGUMENT.
      await Promise.all(['s1', 's2', 's3'].map((id) => longship.session(id).addMessage('user', id)));
      for (const id of ['s1', 's2', 's3']) expect(await texts(longship, id)).toEqual([id]);
      expect((await longship.verify()).problems).toEqual([]);
      await longship.close();
    }
  });
});

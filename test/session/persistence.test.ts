// Sessions that persist (docs/guide/sessions.md): each message is in the store when addMessage()
// resolves, every Session object of an id reads the same state, a new process on the same folder
// too; sessions are listed, read, checked and deleted by id; bad input writes nothing.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder, urisOf } from '../retrieve/fixture.js';
import { tempFolder } from '../store/file-harness.js';

const embedder = bagOfWordsEmbedder();
const info = { id: embedder.id, dimensions: embedder.dimensions };

async function open(): Promise<Longship> {
  return openLongship({ store: await openMemoryStore({ embedder: info }), embedder });
}

async function failure(run: () => unknown): Promise<LongshipError> {
  const error = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

const texts = async (longship: Longship, id: string) =>
  (await longship.session(id).messages()).map((m) => (m.parts[0] as { text: string }).text);

describe('a session reopened by id', () => {
  it('sees the messages another Session object added, and commits them once', async () => {
    const longship = await open();
    const first = longship.session('chat');
    const message = await first.addMessage('user', 'The kettle is in the blue cupboard.', { at: 5 });
    expect(message).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'The kettle is in the blue cupboard.' }],
      at: 5,
    });
    const second = longship.session('chat');
    await second.addMessage('assistant', 'Noted: blue cupboard.');
    expect(await texts(longship, 'chat')).toEqual([
      'The kettle is in the blue cupboard.',
      'Noted: blue cupboard.',
    ]);
    expect((await first.context()).recent.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect((await second.commit()).messages).toBe(2);
    expect(await first.messages()).toEqual([]);
    expect(await first.commit()).toEqual({ messages: 0, extractions: [] });
    expect((await longship.ls(first.uri)).map((n) => n.name)).toEqual(['0001']);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('keeps pending messages out of search results until they are archived', async () => {
    const longship = await open();
    await longship.write('viking://resources/notes.md', 'Kettles and cupboards.');
    const session = longship.session('quiet');
    await session.addMessage('user', 'hello');
    const query = 'zanzibar quokka marmalade';
    const ranked = async () =>
      (await longship.find(query, { limit: 10 })).memories.map((m) => [m.uri, m.score, m.abstract]);
    const before = await ranked();
    await session.addMessage('user', query);
    // The session's directory is one node whose posting and vectors hold its abstract: its pending
    // messages change nothing find() scores.
    expect(await ranked()).toEqual(before);
    expect(await longship.grep('quokka')).toEqual([]);
    const { archive } = await session.commit();
    const after = await longship.find('zanzibar quokka marmalade', { limit: 10 });
    expect(urisOf(after)).toContain(`${archive}/0002-user`);
    await longship.close();
  });

  it('survives close and a new process on the file store', async () => {
    const path = join(tempFolder(), 'sessions-reopen');
    const a = await openLongship({ store: path, embedder });
    await a.session('trip').addMessage('user', 'We land in Porto at noon.');
    await a.session('trip').used(['viking://resources/porto.md']);
    await a.close();
    const b = await openLongship({ store: path, embedder });
    expect(await texts(b, 'trip')).toEqual(['We land in Porto at noon.']);
    const { archive } = await b.session('trip').commit();
    // The URI reported used before the reopen is in the archive, unknown as it is.
    expect((await b.stat(archive!)).meta.used).toEqual(['viking://resources/porto.md']);
    expect((await b.verify()).problems).toEqual([]);
    await b.close();
  });

  it('keeps a message added while a commit embeds, and archives only what the commit read', async () => {
    let release!: () => void;
    let hold: Promise<void> | undefined;
    const slow = functionEmbedder({
      id: embedder.id,
      dimensions: embedder.dimensions,
      embed: async (input) => {
        if (hold) await hold;
        return embedder.embed(input);
      },
    });
    const longship = await openLongship({ store: await openMemoryStore({ embedder: info }), embedder: slow });
    const session = longship.session('busy');
    await session.addMessage('user', 'one');
    hold = new Promise((resolve) => {
      release = resolve;
    });
    const job = session.commit();
    await new Promise((resolve) => setTimeout(resolve, 20));
    hold = undefined;
    await session.addMessage('user', 'two');
    release();
    expect((await job).messages).toBe(1);
    expect(await texts(longship, 'busy')).toEqual(['two']);
    expect((await longship.ls(`${session.uri}/0001`)).map((n) => n.name)).toEqual(['0001-user']);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});

describe('listing, reading, checking and deleting sessions', () => {
  it('lists each session with its pending messages, archives and times', async () => {
    let now = 1_000;
    const longship = await open();
    expect(await longship.listSessions()).toEqual([]);
    const a = longship.session('a');
    await a.addMessage('user', 'first', { at: now });
    await a.commit();
    await a.addMessage('user', 'second');
    await longship.session('b').addMessage('user', 'hello');
    now += 1;
    const list = await longship.listSessions();
    expect(list.map(({ id, uri, pending, archives }) => ({ id, uri, pending, archives }))).toEqual([
      { id: 'a', uri: 'viking://user/default/sessions/a', pending: 1, archives: 1 },
      { id: 'b', uri: 'viking://user/default/sessions/b', pending: 1, archives: 0 },
    ]);
    for (const s of list) expect(s.updatedAt).toBeGreaterThanOrEqual(s.createdAt);
    expect(await longship.sessionInfo('a')).toEqual(list[0]);
    expect(await longship.sessionExists('b')).toBe(true);
    expect(await longship.sessionExists('c')).toBe(false);
    expect((await failure(() => longship.sessionInfo('c'))).code).toBe('NOT_FOUND');
    await longship.close();
  });

  it('deletes messages, archives and state, keeps memories, and refuses unknown or bad ids', async () => {
    const longship = await open();
    await longship.write('viking://user/default/memories/preferences/tea', 'Likes green tea.', {
      parents: true,
    });
    const session = longship.session('gone');
    await session.addMessage('user', 'I like green tea.');
    await session.commit();
    await session.addMessage('user', 'And jasmine.');
    // Its directory, the archive and its one file, the pending directory and its one chunk.
    expect(await longship.deleteSession('gone')).toEqual({ id: 'gone', pending: 1, archives: 1, nodes: 5 });
    expect(await longship.sessionExists('gone')).toBe(false);
    expect(await session.messages()).toEqual([]);
    expect(await longship.read('viking://user/default/memories/preferences/tea')).toBe('Likes green tea.');
    const seq = (await longship.store.meta()).seq;
    expect((await failure(() => longship.deleteSession('gone'))).code).toBe('NOT_FOUND');
    for (const bad of ['', 'a/b', 'a%20b', 'e\u0301', 42]) {
      expect((await failure(() => longship.deleteSession(bad as string))).code).toBe('INVALID_ARGUMENT');
      expect((await failure(() => longship.session(bad as string))).code).toBe('INVALID_ARGUMENT');
      expect((await failure(() => longship.sessionExists(bad as string))).code).toBe('INVALID_ARGUMENT');
    }
    expect((await longship.store.meta()).seq).toBe(seq);
    // Used again after the deletion, it starts afresh.
    await session.addMessage('user', 'Hello again.');
    expect((await session.commit()).archive).toBe(`${session.uri}/0001`);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder, urisOf } from '../retrieve/fixture.js';
import { chatReply, type OpenAiServer, promptData, startOpenAiServer } from '../support/openai-server.js';

const KEY = 'sk-session-KEY-abcdef123456';
let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer({ dimensions: 4 });
});
afterAll(() => server.close());

async function open(withLlm = false): Promise<Longship> {
  const embedder = bagOfWordsEmbedder();
  const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
  return openLongship({
    store,
    embedder,
    ...(withLlm
      ? {
          llm: openAiCompatibleLlm({
            baseUrl: server.baseUrl,
            apiKey: KEY,
            model: 'chat',
            retryBaseMs: 1,
          }),
        }
      : {}),
  });
}

async function failure(promise: Promise<unknown> | (() => unknown)): Promise<LongshipError> {
  const error = await (typeof promise === 'function' ? Promise.resolve().then(promise) : promise).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

const memories = (list: object[], summary = 'They talked about the trip.') =>
  chatReply(JSON.stringify({ summary, memories: list }));

describe('sessions without an LLM', () => {
  it('archives the messages in one commit, indexed so that find() and search() reach them', async () => {
    const longship = await open();
    const session = longship.session('chat-1');
    expect(session.uri).toBe('viking://user/default/sessions/chat-1');
    await session.addMessage('user', 'We are flying to Lisbon on the ninth of May.');
    await session.addMessage('assistant', [
      { type: 'text', text: 'Noted. Shall I look for hotels near Alfama?' },
      { type: 'context', uri: 'viking://resources/travel/lisbon.md' },
    ]);
    await session.addMessage('user', 'Yes, quiet ones please.', { name: 'Ana' });
    const seqBefore = (await longship.store.meta()).seq;
    const result = await session.commit();
    // The archive is one commit; the rules' record on it (none of these sentences is one a rule is
    // sure of) is the other.
    expect((await longship.store.meta()).seq).toBe(seqBefore + 2);
    expect(result).toEqual({
      archive: 'viking://user/default/sessions/chat-1/0001',
      messages: 3,
      extractions: [
        { archive: 'viking://user/default/sessions/chat-1/0001', state: 'done', by: 'rules', memories: [] },
      ],
    });
    expect(await session.messages()).toEqual([]);
    const files = await longship.ls(result.archive!);
    expect(files.map((f) => f.name)).toEqual(['0001-user', '0002-assistant', '0003-user']);
    expect(await longship.read(`${result.archive}/0003-user`)).toBe('Ana: Yes, quiet ones please.');
    expect(files[1]!.meta.parts).toEqual([{ type: 'context', uri: 'viking://resources/travel/lisbon.md' }]);
    expect((await longship.stat(result.archive!)).meta).toMatchObject({
      extraction: 'done',
      extractedBy: 'rules',
      messages: 3,
    });

    const found = await longship.find('flying Lisbon May', { filter: { contextType: 'memory' }, limit: 3 });
    expect(urisOf(found)).toContain(`${result.archive}/0001-user`);
    const searched = await longship.search('hotels near Alfama', { limit: 5 });
    expect(searched.intent.source).toBe('fallback');
    expect(urisOf(searched)).toContain(`${result.archive}/0002-assistant`);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('numbers later archives on, gives search() the last 5 messages, and skips an empty commit', async () => {
    const longship = await open();
    const session = longship.session('chat-2');
    for (let i = 1; i <= 4; i++) await session.addMessage(i % 2 ? 'user' : 'assistant', `message ${i}`);
    await session.commit();
    await session.addMessage('user', 'message 5');
    await session.addMessage('assistant', 'message 6');
    expect((await session.context()).recent.map((m) => m.text)).toEqual([
      'message 2',
      'message 3',
      'message 4',
      'message 5',
      'message 6',
    ]);
    expect((await session.commit()).archive).toBe('viking://user/default/sessions/chat-2/0002');
    expect(await session.commit()).toEqual({ messages: 0, extractions: [] });
    // Another object for the same id continues the numbering from the store.
    const again = longship.session('chat-2');
    await again.addMessage('user', 'message 7');
    expect((await again.commit()).archive).toBe('viking://user/default/sessions/chat-2/0003');
    expect((await longship.ls('viking://user/default/sessions')).map((n) => n.name)).toEqual(['chat-2']);
    await longship.close();
  });

  it('refuses a message under a file, and numbers archives past nodes named like archives', async () => {
    const longship = await open();
    await longship.write('viking://user/default/sessions', 'Not a directory.');
    const session = longship.session('chat-3');
    const seq = (await longship.store.meta()).seq;
    expect((await failure(session.addMessage('user', 'Hello.'))).code).toBe('NOT_A_DIRECTORY');
    expect((await longship.store.meta()).seq).toBe(seq);
    expect(await longship.glob('viking://user/default/*')).toEqual([
      'viking://user/default/memories',
      'viking://user/default/sessions',
    ]);

    await longship.rm('viking://user/default/sessions');
    await longship.mkdir('viking://user/default/sessions/chat-3/0001', { parents: true });
    await session.addMessage('user', 'Hello.');
    expect((await session.commit()).archive).toBe('viking://user/default/sessions/chat-3/0002');
    expect(await longship.ls('viking://user/default/sessions/chat-3/0001')).toEqual([]);
    expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    await longship.close();
  });

  it('keeps the messages when a commit is aborted, and writes nothing', async () => {
    const longship = await open();
    const session = longship.session('aborted');
    await session.addMessage('user', 'Remember the blue folder.');
    const controller = new AbortController();
    controller.abort();
    const before = await longship.store.stats();
    expect((await failure(session.commit({ signal: controller.signal }))).code).toBe('ABORTED');
    expect(await session.messages()).toHaveLength(1);
    expect(await longship.store.stats()).toEqual(before);
    expect((await session.commit()).archive).toBe('viking://user/default/sessions/aborted/0001');
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('gives new sessions distinct ids and refuses bad ids, roles and parts', async () => {
    const longship = await open();
    const a = longship.session();
    const b = longship.session();
    expect(a.id).not.toBe(b.id);
    expect((await failure(() => longship.session('a/b'))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(() => longship.session('..'))).code).toBe('INVALID_URI');
    expect((await failure(() => a.addMessage('robot' as 'user', 'x'))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(() => a.addMessage('user', []))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(() => a.addMessage('user', [{ type: 'image' } as never]))).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await a.messages()).toEqual([]);
    await longship.close();
  });

  it('used() bumps use counts and last use, which find()’s hotness blend reads', async () => {
    const longship = await open();
    await longship.write('viking://resources/a.md', 'Apples grow on trees in orchards.');
    await longship.write('viking://resources/b.md', 'Apples grow on trees in gardens.');
    const session = longship.session('s');
    expect(
      await session.used(['viking://resources/b.md', 'viking://resources/b.md', 'viking://resources/none']),
    ).toBe(1);
    expect(await session.used(['viking://resources/b.md'])).toBe(1);
    const b = await longship.store.node('viking://resources/b.md');
    expect(b).toMatchObject({ useCount: 2 });
    expect(b!.lastUsedAt).toBeGreaterThan(0);
    const cold = await longship.find('apples trees', { limit: 2 });
    const hot = await longship.find('apples trees', { limit: 2, hotness: 0.5 });
    expect(hot.resources[0]!.uri).toBe('viking://resources/b.md');
    expect(hot.resources[0]!.score).toBeGreaterThan(
      cold.resources.find((r) => r.uri === 'viking://resources/b.md')!.score * 0.5,
    );
    expect((await failure(session.used(['http://x']))).code).toBe('INVALID_URI');
    // The archive records what was used.
    await session.addMessage('user', 'thanks');
    const { archive } = await session.commit();
    // Every URI reported, the unknown one too (as OpenViking keeps it); only b.md's count went up.
    expect((await longship.stat(archive!)).meta.used).toEqual([
      'viking://resources/b.md',
      'viking://resources/none',
    ]);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
  it('used() never reverts a write that lands while it runs', async () => {
    const embedder = bagOfWordsEmbedder();
    const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
    const uri = 'viking://resources/b.md';
    // Hold used()'s first read of b.md until a write to b.md has committed.
    let release!: () => void;
    let held: Promise<void> | undefined;
    const node = store.node.bind(store);
    store.node = async (u) => {
      const read = await node(u);
      if (u === uri && held) {
        const wait = held;
        held = undefined;
        await wait;
      }
      return read;
    };
    const longship = await openLongship({ store, embedder });
    await longship.write(uri, 'Apples grow on trees in gardens.');
    held = new Promise((resolve) => {
      release = resolve;
    });
    const using = longship.session('s').used([uri]);
    await longship.write(uri, 'Pears grow on trees in orchards.');
    release();
    expect(await using).toBe(1);
    expect(await longship.read(uri)).toContain('Pears');
    expect(await store.node(uri)).toMatchObject({ useCount: 1 });
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});

describe('sessions with an LLM', () => {
  it('extracts memories into their categories and sends the conversation as data', async () => {
    const longship = await open(true);
    const session = longship.session('trip');
    await session.addMessage(
      'user',
      'I prefer window seats, and my sister Rita is coming to Lisbon with me.',
    );
    server.script(
      memories([
        {
          category: 'preferences',
          name: 'Seat preference',
          abstract: 'The user prefers window seats.',
          content: 'Prefers window seats on flights.',
        },
        {
          category: 'entities',
          name: 'Rita',
          abstract: "Rita is the user's sister.",
          content: 'Rita: sister; travels to Lisbon.',
        },
        {
          category: 'agent',
          name: 'Travel tips',
          abstract: 'Ask about seats early.',
          content: 'Ask about seats early.',
        },
      ]),
    );
    const seen = server.nextRequest();
    const result = await session.commit();
    const data = promptData(await seen);
    expect(data.conversation).toEqual([
      { role: 'user', text: 'I prefer window seats, and my sister Rita is coming to Lisbon with me.' },
    ]);
    expect(result.extractions).toEqual([
      {
        archive: 'viking://user/default/sessions/trip/0001',
        state: 'done',
        by: 'llm',
        memories: [
          'viking://user/default/memories/preferences/seat-preference',
          'viking://user/default/memories/entities/rita',
          'viking://agent/default/memories/notes/travel-tips',
        ],
      },
    ]);
    expect(result.usage?.totalTokens).toBeGreaterThan(0);
    expect(await longship.read('viking://user/default/memories/entities/rita')).toBe(
      'Rita: sister; travels to Lisbon.',
    );
    expect(await longship.abstract('viking://user/default/memories/preferences/seat-preference')).toBe(
      'The user prefers window seats.',
    );
    expect((await longship.stat(result.archive!)).meta).toMatchObject({
      extraction: 'done',
      summary: 'They talked about the trip.',
    });
    expect((await session.context()).summary).toBe('They talked about the trip.');
    const found = await longship.find('window seats', {
      targetUri: 'viking://user/default/memories/preferences',
    });
    expect(found.memories[0]!.uri).toBe('viking://user/default/memories/preferences/seat-preference');
    expect(found.memories[0]!.category).toBe('preferences');
    await longship.close();
  });

  it('updates an existing memory instead of duplicating it', async () => {
    const longship = await open(true);
    const first = longship.session('one');
    await first.addMessage('user', 'I like green tea in the morning.');
    server.script(
      memories([
        {
          category: 'preferences',
          name: 'Tea',
          abstract: 'Likes green tea.',
          content: 'Green tea in the morning.',
        },
      ]),
    );
    await first.commit();

    // The model is shown the memory and says it updates it: the merged text replaces the old.
    const second = longship.session('two');
    await second.addMessage('user', 'Actually I like green tea with jasmine, in the morning.');
    server.script((request) => {
      const existing = promptData(request).existing_memories as { uri: string; content: string }[];
      expect(existing).toContainEqual({
        uri: 'viking://user/default/memories/preferences/tea',
        category: 'preferences',
        content: 'Green tea in the morning.',
      });
      return memories([
        {
          category: 'preferences',
          name: 'Green tea habit',
          abstract: 'Likes jasmine green tea.',
          content: 'Jasmine green tea in the morning.',
          updates: 'viking://user/default/memories/preferences/tea',
        },
      ]);
    });
    const result = await second.commit();
    expect(result.extractions[0]!.memories).toEqual(['viking://user/default/memories/preferences/tea']);
    expect(await longship.read('viking://user/default/memories/preferences/tea')).toBe(
      'Jasmine green tea in the morning.',
    );

    // The same name again without `updates`: merged into the file, not a second file.
    const third = longship.session('three');
    await third.addMessage('user', 'And black tea after lunch.');
    server.script(
      memories([
        { category: 'preferences', name: 'Tea', abstract: 'Tea habits.', content: 'Black tea after lunch.' },
        // `updates` pointing at something it was not shown is not followed: the memory goes to its own
        // URI, and the report says so.
        {
          category: 'events',
          name: 'Lunch',
          abstract: 'Lunch.',
          content: 'Had lunch.',
          updates: 'viking://resources/important.md',
        },
      ]),
    );
    const third_ = await third.commit();
    expect(third_.extractions[0]!.memories).toEqual([
      'viking://user/default/memories/preferences/tea',
      'viking://user/default/memories/events/lunch',
    ]);
    expect(third_.extractions[0]!.redirected).toEqual([
      {
        category: 'events',
        name: 'Lunch',
        wanted: 'viking://resources/important.md',
        reason: 'UPDATES_NOT_OFFERED: viking://resources/important.md was not offered to update',
        uri: 'viking://user/default/memories/events/lunch',
      },
    ]);
    expect(await longship.read('viking://user/default/memories/preferences/tea')).toBe(
      'Jasmine green tea in the morning.\n\nBlack tea after lunch.',
    );
    expect((await longship.ls('viking://user/default/memories/preferences')).map((n) => n.name)).toEqual([
      'tea',
    ]);
    await expect(longship.stat('viking://resources/important.md')).rejects.toThrow(LongshipError);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('keeps the archive when extraction fails, and the next commit retries it', async () => {
    const longship = await open(true);
    const session = longship.session('flaky');
    await session.addMessage('user', 'My name is Joana and I work in Porto.');
    server.script(chatReply('Sorry, I cannot do JSON today.'));
    const failed = await session.commit();
    expect(failed.extractions).toHaveLength(1);
    expect(failed.extractions[0]).toMatchObject({ state: 'failed', memories: [] });
    expect(failed.extractions[0]!.error).toMatch(/^LLM_OUTPUT/);
    expect((await longship.stat(failed.archive!)).meta).toMatchObject({ extraction: 'failed' });
    expect(await longship.read(`${failed.archive}/0001-user`)).toBe('My name is Joana and I work in Porto.');

    server.script({ status: 500, text: 'a' }, { status: 500, text: 'b' }, { status: 500, text: 'c' });
    const again = await session.commit();
    expect(again.archive).toBeUndefined();
    expect(again.extractions[0]!.error).toMatch(/^REMOTE_HTTP/);

    server.script(
      memories([
        {
          category: 'profile',
          name: 'Profile',
          abstract: 'Joana, works in Porto.',
          content: 'Name: Joana. Works in Porto.',
        },
      ]),
    );
    const retried = await session.commit();
    expect(retried.extractions).toEqual([
      {
        archive: failed.archive,
        state: 'done',
        by: 'llm',
        memories: ['viking://user/default/memories/profile'],
      },
    ]);
    expect((await longship.stat(failed.archive!)).meta.extraction).toBe('done');
    expect((await longship.stat(failed.archive!)).meta.extractionError).toBeUndefined();
    expect(await longship.read('viking://user/default/memories/profile')).toBe(
      'Name: Joana. Works in Porto.',
    );
    // Nothing left to do: no more calls.
    const before = server.requests.length;
    expect((await session.commit()).extractions).toEqual([]);
    expect(server.requests.length).toBe(before);
    await longship.close();
  });

  it('never writes the API key into the store', async () => {
    const longship = await open(true);
    const session = longship.session('keys');
    await session.addMessage('user', 'hello');
    server.script({ status: 401, json: { error: { message: `bad key ${KEY}` } } });
    const result = await session.commit();
    expect(result.extractions[0]!.error).toContain('[redacted]');
    let everything = '';
    for await (const batch of longship.store.scan('nodes')) everything += JSON.stringify(batch);
    for await (const batch of longship.store.scan('postings')) everything += JSON.stringify(batch);
    expect(everything).toContain('extractionError');
    expect(everything).not.toContain(KEY);
    await longship.close();
  });

  it('plans search() from the session’s recent messages', async () => {
    const longship = await open(true);
    await longship.write(
      'viking://resources/trains.md',
      'Night trains from Lisbon to Madrid leave at nine.',
      {
        parents: true,
      },
    );
    const session = longship.session('plan');
    await session.addMessage('user', 'I need to get from Lisbon to Madrid.');
    server.script((request) => {
      expect((promptData(request).recent_messages as { text: string }[])[0]!.text).toBe(
        'I need to get from Lisbon to Madrid.',
      );
      return chatReply(
        JSON.stringify({ queries: [{ query: 'trains Lisbon Madrid', context_type: 'resource' }] }),
      );
    });
    const result = await longship.search('what are my options?', { session });
    expect(result.intent.source).toBe('llm');
    expect(result.resources[0]!.uri).toBe('viking://resources/trains.md');
    await longship.close();
  });
});

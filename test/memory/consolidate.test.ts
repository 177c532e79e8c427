import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultNamespace } from '../../src/context/namespace.js';
import { parentOf, type VikingUri } from '../../src/context/uri.js';
import type { Longship } from '../../src/engine.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { duplicateGroups } from '../../src/memory/duplicates.js';
import { mergeSentences, sentencesOf } from '../../src/memory/extractive-merge.js';
import { memoryUri } from '../../src/session/extract.js';
import { chatReply, type OpenAiServer, promptData, startOpenAiServer } from '../support/openai-server.js';
import { DAY, NOW, openWithMemory, remember } from './fixture.js';

describe('duplicateGroups', () => {
  const item = (text: string, name = text) => ({ name, text });

  it('groups the same words, the same name and word sets similar enough', () => {
    const groups = duplicateGroups(
      [
        item('Ana moved to Lisbon in May.', 'a'),
        item('Ana moved to Lisbon in May!', 'b'),
        item('Bruno plays the cello.', 'c'),
        item('Something else entirely.', 'C'),
        item('Bruno plays cello every evening.', 'd'),
        item('Bruno plays cello every evening, loudly.', 'e'),
      ],
      0.75,
    );
    expect(groups).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });

  it('keeps apart what shares too few words', () => {
    expect(duplicateGroups([item('Ana likes tea.'), item('Ana likes coffee and cake.')], 0.8)).toEqual([]);
  });

  it('grows a group until nothing left is similar to it', () => {
    // b alone is not similar enough to c, but a and b together are.
    const a = 'alpha beta gamma delta';
    const b = 'alpha beta gamma epsilon';
    const c = 'alpha beta gamma delta epsilon zeta eta theta iota';
    expect(duplicateGroups([item(a), item(b), item(c)], 0.5)).toEqual([[0, 1, 2]]);
  });
});

describe('mergeSentences', () => {
  it('keeps each distinct sentence once, the newest text’s first', () => {
    expect(mergeSentences(['Ana lives in Porto.', 'Ana lives in Lisbon. Ana lives in Porto.'])).toBe(
      'Ana lives in Porto.\nAna lives in Lisbon.',
    );
  });

  it('keeps a title with its name and an initial with its surname', () => {
    expect(sentencesOf('Dr. Lee called. J. R. Smith too!  Really?\nYes')).toEqual([
      'Dr. Lee called.',
      'J. R. Smith too!',
      'Really?',
      'Yes',
    ]);
  });

  it('never loses a sentence', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { maxLength: 6 }), (texts) => {
        const merged = new Set(sentencesOf(mergeSentences(texts)));
        for (const text of texts)
          for (const sentence of sentencesOf(text)) expect(merged.has(sentence)).toBe(true);
      }),
    );
  });
});

/** Every sentence of the memories of `kind`, with their sources. */
async function sentencesOfKind(longship: Longship, kind: 'events' | 'preferences') {
  const dir = parentOf(memoryUri(defaultNamespace, kind, 'x') as VikingUri)!;
  const sentences = new Set<string>();
  const sources = new Set<string>();
  // No memory of that kind yet: no directory.
  const files = await longship.ls(dir).catch((error: { code?: string }) => {
    if (error.code === 'NOT_FOUND') return [];
    throw error;
  });
  for (const file of files) {
    for (const sentence of sentencesOf(await longship.read(file.uri))) sentences.add(sentence);
    for (const source of (file.meta.sources as string[] | undefined) ?? []) sources.add(source);
  }
  return { sentences, sources };
}

describe('consolidateMemories() without an LLM', () => {
  it('merges duplicates into the newest, with every sentence, the union of sources and the earliest time', async () => {
    const longship = await openWithMemory({ memory: { now: () => NOW } });
    const older = await remember(
      longship,
      'events',
      'lisbon move',
      'Ana moved to Lisbon in May. She loves it.',
      {
        occurredAt: NOW - 20 * DAY,
        sources: ['viking://session/a'],
        expiresAt: NOW + 10 * DAY,
      },
    );
    const newer = await remember(
      longship,
      'events',
      'move to lisbon',
      'Ana moved to Lisbon in May! She loves it.',
      {
        occurredAt: NOW - 2 * DAY,
        sources: ['viking://session/b', 'viking://session/a'],
        expiresAt: NOW + 30 * DAY,
      },
    );
    const apart = await remember(longship, 'events', 'cello', 'Bruno plays the cello.');
    // The same words in another kind stay apart.
    const preference = await remember(longship, 'preferences', 'lisbon', 'Ana moved to Lisbon in May.');
    const before = (await longship.store.meta()).seq;

    const result = await longship.consolidateMemories();

    expect(result).toEqual({
      merges: [{ into: newer, from: [older], kind: 'events', via: 'extractive' }],
      removed: 1,
    });
    // One write of the merged memory, one commit of the removal.
    expect((await longship.store.meta()).seq).toBe(before + 2);
    expect(await longship.read(newer)).toBe(
      'Ana moved to Lisbon in May!\nShe loves it.\nAna moved to Lisbon in May.',
    );
    const merged = await longship.stat(newer);
    expect(merged.meta).toMatchObject({
      category: 'events',
      sources: ['viking://session/b', 'viking://session/a'],
      occurredAt: NOW - 20 * DAY,
      expiresAt: NOW + 30 * DAY,
    });
    await expect(longship.stat(older)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await longship.stat(apart)).uri).toBe(apart);
    expect((await longship.stat(preference)).uri).toBe(preference);
    const found = (await longship.find('Ana Lisbon')).memories.map((m) => m.uri);
    expect(found).toContain(newer);
    expect(found).not.toContain(older);
    expect((await longship.verify()).problems).toEqual([]);
    expect(await longship.consolidateMemories()).toEqual({ merges: [], removed: 0 });
    await longship.close();
  });

  it('never loses a distinct sentence or a source, and finds nothing more on a second run', async () => {
    const pool = [
      'Ana likes green tea.',
      'Ana likes green tea a lot.',
      'Bruno moved to Porto.',
      'Bruno moved to Porto last spring.',
      'The dentist is on Friday.',
      'Carla plays the cello.',
    ];
    const memory = fc.record({
      kind: fc.constantFrom('events' as const, 'preferences' as const),
      sentences: fc.uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: 3 }),
      source: fc.constantFrom('s1', 's2', 's3', 's4'),
      daysAgo: fc.integer({ min: 0, max: 60 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(memory, { minLength: 1, maxLength: 6 }), async (memories) => {
        const longship = await openWithMemory({ memory: { now: () => NOW } });
        try {
          for (const [i, m] of memories.entries()) {
            await remember(longship, m.kind, `m${i}`, m.sentences.join(' '), {
              sources: [m.source],
              occurredAt: NOW - m.daysAgo * DAY,
            });
          }
          const before = {
            events: await sentencesOfKind(longship, 'events'),
            preferences: await sentencesOfKind(longship, 'preferences'),
          };
          const first = await longship.consolidateMemories();
          for (const kind of ['events', 'preferences'] as const) {
            const after = await sentencesOfKind(longship, kind);
            expect([...before[kind].sentences].filter((s) => !after.sentences.has(s))).toEqual([]);
            expect([...before[kind].sources].filter((s) => !after.sources.has(s))).toEqual([]);
          }
          for (const merge of first.merges) expect(merge.from).not.toContain(merge.into);
          expect(await longship.consolidateMemories()).toEqual({ merges: [], removed: 0 });
        } finally {
          await longship.close();
        }
      }),
      { numRuns: 15 },
    );
  });

  it('changes nothing when aborted', async () => {
    const longship = await openWithMemory({ memory: { now: () => NOW } });
    const a = await remember(longship, 'events', 'a', 'Dentist on Friday.');
    const b = await remember(longship, 'events', 'b', 'Dentist on Friday!');
    const controller = new AbortController();
    controller.abort();
    const before = (await longship.store.meta()).seq;
    await expect(longship.consolidateMemories({ signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    expect((await longship.store.meta()).seq).toBe(before);
    expect([(await longship.stat(a)).uri, (await longship.stat(b)).uri]).toEqual([a, b]);
    await longship.close();
  });

  it('leaves expired memories to the sweep', async () => {
    const longship = await openWithMemory({ memory: { now: () => NOW } });
    await remember(longship, 'events', 'a', 'Dentist on Friday.', { expiresAt: NOW - 1 });
    await remember(longship, 'events', 'b', 'Dentist on Friday.');
    expect(await longship.consolidateMemories()).toEqual({ merges: [], removed: 0 });
    await longship.close();
  });
});

describe('consolidateMemories() with an LLM', () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer({ dimensions: 4 });
  });
  afterAll(() => server.close());

  async function openWithLlm() {
    const llm = openAiCompatibleLlm({
      baseUrl: server.baseUrl,
      model: 'chat',
      retryBaseMs: 1,
      maxRetries: 0,
    });
    const longship = await openWithMemory({ llm, memory: { now: () => NOW } });
    const older = await remember(longship, 'preferences', 'tea', 'Ana likes green tea.', {
      occurredAt: NOW - 9 * DAY,
      sources: ['s1'],
    });
    const newer = await remember(longship, 'preferences', 'green tea', 'Ana likes green tea!', {
      occurredAt: NOW - DAY,
      sources: ['s2'],
    });
    return { longship, older, newer };
  }

  it('writes the LLM’s merge, sent the duplicates newest first as data', async () => {
    const { longship, older, newer } = await openWithLlm();
    server.script(
      chatReply(JSON.stringify({ abstract: 'Ana’s tea.', content: 'Ana likes green tea, a lot.' })),
    );
    const seen = server.nextRequest();
    const result = await longship.consolidateMemories();
    expect(promptData(await seen)).toEqual({
      kind: 'preferences',
      memories: [
        { uri: newer, content: 'Ana likes green tea!', occurredAt: new Date(NOW - DAY).toISOString() },
        { uri: older, content: 'Ana likes green tea.', occurredAt: new Date(NOW - 9 * DAY).toISOString() },
      ],
    });
    expect(result.merges).toEqual([{ into: newer, from: [older], kind: 'preferences', via: 'llm' }]);
    expect(await longship.read(newer)).toBe('Ana likes green tea, a lot.');
    expect(await longship.abstract(newer)).toBe('Ana’s tea.');
    expect((await longship.stat(newer)).meta).toMatchObject({
      sources: ['s2', 's1'],
      occurredAt: NOW - 9 * DAY,
    });
    await longship.close();
  });

  it('merges extractively when the LLM’s answer does not fit, and says why', async () => {
    const { longship, newer } = await openWithLlm();
    server.script(chatReply('no idea'));
    const [merge] = (await longship.consolidateMemories()).merges;
    expect(merge).toMatchObject({ into: newer, via: 'extractive' });
    expect(merge?.error).toMatch(/memory-merge/);
    expect(await longship.read(newer)).toBe('Ana likes green tea!\nAna likes green tea.');
    await longship.close();
  });
});

// The memory kinds (docs/guide/retrieval.md, "Memory kinds"): OpenViking's eleven and the agent's
// notes, each placed by memoryUri(defaultNamespace, ), each memory knowing its source, and none dropped unrecorded.

import { afterEach, describe, expect, it } from 'vitest';
import { defaultNamespace } from '../../src/context/namespace.js';
import { type Longship, openLongship } from '../../src/engine.js';
import type { LLM } from '../../src/llm/llm.js';
import { memoryCategories } from '../../src/llm/prompts.js';
import { memoryUri } from '../../src/session/extract.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

/** An LLM that answers every extraction with `memories`, and keeps the prompts it was sent. */
function extracting(memories: object[], sent: string[] = []): LLM {
  return {
    model: 'scripted',
    usage,
    complete: async (messages) => {
      sent.push(messages.map((m) => m.content).join('\n'));
      return { text: JSON.stringify({ summary: 'A talk.', memories }), usage };
    },
  };
}

let longship: Longship | undefined;
afterEach(async () => {
  await longship?.close();
  longship = undefined;
});

async function open(llm?: LLM): Promise<Longship> {
  const embedder = bagOfWordsEmbedder();
  const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
  longship = await openLongship({ store, embedder, ...(llm ? { llm } : {}) });
  return longship;
}

const singleFile = ['profile', 'identity', 'soul'];

describe('memoryUri', () => {
  it('makes profile, identity and soul one file each, and every other kind a directory of memories', () => {
    for (const kind of memoryCategories) {
      const a = memoryUri(defaultNamespace, kind, 'First thing');
      const b = memoryUri(defaultNamespace, kind, 'Second thing');
      if (singleFile.includes(kind)) {
        expect(a).toBe(b);
        expect(a.endsWith(`/memories/${kind}`)).toBe(true);
      } else {
        expect(a).not.toBe(b);
        expect(a.endsWith('/first-thing')).toBe(true);
      }
    }
    expect(memoryUri(defaultNamespace, 'agent', 'x').startsWith('viking://agent/')).toBe(true);
    expect(memoryUri(defaultNamespace, 'trajectories', 'x').startsWith('viking://user/')).toBe(true);
  });
});

describe('extraction with an LLM', () => {
  it('writes every kind where memoryUri(defaultNamespace, ) places it, with its session as its source', async () => {
    const answer = memoryCategories.map((kind) => ({
      category: kind,
      name: `${kind} one`,
      abstract: `About ${kind}.`,
      content: `What the conversation said about ${kind}.`,
      ...(kind === 'events' ? { occurred_at: '2024-05-01' } : {}),
    }));
    const sent: string[] = [];
    const longship = await open(extracting(answer, sent));
    const session = longship.session('every-kind');
    await session.addMessage('user', 'A conversation about everything.');
    const { extractions } = await session.commit();
    // The prompt names every kind, and is the version that does.
    for (const kind of memoryCategories) expect(sent[0]).toContain(`- ${kind}: `);
    const uris = memoryCategories.map((kind) => memoryUri(defaultNamespace, kind, `${kind} one`));
    expect(extractions).toEqual([
      { archive: `${session.uri}/0001`, state: 'done', by: 'llm', memories: uris },
    ]);
    for (const [i, kind] of memoryCategories.entries()) {
      const node = await longship.stat(uris[i]!);
      expect(node.kind).toBe('file');
      expect(node.meta).toMatchObject({
        category: kind,
        origin: 'session',
        sources: ['session:every-kind#1'],
        prompt: 'memory-extraction@2',
      });
      expect(await longship.read(uris[i]!)).toBe(`What the conversation said about ${kind}.`);
    }
    expect((await longship.stat(memoryUri(defaultNamespace, 'events', 'events one'))).meta.occurredAt).toBe(
      Date.UTC(2024, 4, 1),
    );
    // A result says which kind a memory is.
    const found = await longship.find('conversation said about trajectories', {
      filter: { contextType: 'memory' },
    });
    expect(
      found.memories.find((m) => m.uri === uris[memoryCategories.indexOf('trajectories')])?.category,
    ).toBe('trajectories');
    expect((await longship.verify()).problems).toEqual([]);
  });

  it('takes an occurred_at that is no date as none, and keeps the memory', async () => {
    const longship = await open(
      extracting([
        {
          category: 'events',
          name: 'Launch',
          abstract: 'A launch.',
          content: 'Launched.',
          occurred_at: null,
        },
        { category: 'events', name: 'Demo', abstract: 'A demo.', content: 'Demoed.', occurred_at: 'soon' },
      ]),
    );
    const session = longship.session('undated');
    await session.addMessage('user', 'We launched, and demo soon.');
    const [report] = (await session.commit()).extractions;
    expect(report).toMatchObject({
      state: 'done',
      memories: [
        memoryUri(defaultNamespace, 'events', 'Launch'),
        memoryUri(defaultNamespace, 'events', 'Demo'),
      ],
    });
    expect((await longship.stat(memoryUri(defaultNamespace, 'events', 'Launch'))).meta).not.toHaveProperty(
      'occurredAt',
    );
    expect((await longship.stat(memoryUri(defaultNamespace, 'events', 'Demo'))).meta).not.toHaveProperty(
      'occurredAt',
    );
  });

  it('offers the single-file kinds to update, and unions the sources of an updated memory', async () => {
    const sent: string[] = [];
    const soul = memoryUri(defaultNamespace, 'soul', 'soul');
    const longship = await open(
      extracting(
        [{ category: 'soul', name: 'Soul', abstract: 'Be brief.', content: 'Be brief.', updates: soul }],
        sent,
      ),
    );
    const first = longship.session('first');
    await first.addMessage('user', 'Keep your answers brief.');
    await first.commit();
    const second = longship.session('second');
    await second.addMessage('user', 'Brief, please.');
    await second.commit();
    // The second extraction was shown the soul, and its `updates` was honoured.
    expect(sent[1]).toContain(soul);
    expect((await longship.stat(soul)).meta.sources).toEqual(['session:first#1', 'session:second#1']);
  });

  it('writes a memory whose place is a directory at the next name, and says so', async () => {
    const longship = await open(
      extracting([
        { category: 'preferences', name: 'Tea', abstract: 'Tea.', content: 'Likes green tea.' },
        { category: 'identity', name: 'Identity', abstract: 'Named Nova.', content: 'Its name is Nova.' },
      ]),
    );
    const tea = memoryUri(defaultNamespace, 'preferences', 'Tea');
    const identity = memoryUri(defaultNamespace, 'identity', 'identity');
    await longship.mkdir(tea, { parents: true });
    await longship.mkdir(identity, { parents: true });
    const session = longship.session('taken');
    await session.addMessage('user', 'I like green tea. Your name is Nova.');
    const [report] = (await session.commit()).extractions;
    // A single-file kind has no other name: it goes among the agent's notes.
    const notes = memoryUri(defaultNamespace, 'agent', 'identity Identity');
    expect(report!.memories).toEqual([memoryUri(defaultNamespace, 'preferences', 'Tea 2'), notes]);
    expect(report!.redirected).toEqual([
      {
        category: 'preferences',
        name: 'Tea',
        wanted: tea,
        reason: `IS_A_DIRECTORY: ${tea} is a directory`,
        uri: memoryUri(defaultNamespace, 'preferences', 'Tea 2'),
      },
      {
        category: 'identity',
        name: 'Identity',
        wanted: identity,
        reason: `IS_A_DIRECTORY: no place for the identity memory "Identity" (IS_A_DIRECTORY: ${identity} is a directory)`,
        uri: notes,
      },
    ]);
    expect(await longship.read(notes)).toBe('Its name is Nova.');
    expect((await longship.stat(`${session.uri}/0001`)).meta.memories).toEqual(report!.memories);
  });

  it('lists a memory nothing can hold, without a uri, rather than dropping it unsaid', async () => {
    const longship = await open(
      extracting([{ category: 'soul', name: 'Soul', abstract: 'Kind.', content: 'Be kind.' }]),
    );
    // The soul's place is a directory, and so is the place among the notes it would go to.
    await longship.mkdir(memoryUri(defaultNamespace, 'soul', 'soul'), { parents: true });
    await longship.mkdir(memoryUri(defaultNamespace, 'agent', 'soul Soul'), { parents: true });
    for (let i = 2; i <= 9; i++) await longship.mkdir(memoryUri(defaultNamespace, 'agent', `soul Soul ${i}`));
    const session = longship.session('nowhere');
    await session.addMessage('user', 'Be kind.');
    const [report] = (await session.commit()).extractions;
    expect(report).toMatchObject({ state: 'done', memories: [] });
    expect(report!.redirected).toEqual([
      expect.objectContaining({
        category: 'soul',
        name: 'Soul',
        wanted: memoryUri(defaultNamespace, 'soul', 'soul'),
      }),
    ]);
    expect(report!.redirected![0]!.uri).toBeUndefined();
    expect(report!.redirected![0]!.reason).toMatch(/^IS_A_DIRECTORY: /);
  });
});

describe('extraction without an LLM', () => {
  it('reads the kinds rules can off a commit, with the archive as their source', async () => {
    const longship = await open();
    const session = longship.session('plain');
    await session.addMessage('user', 'My name is Priya. I prefer tabs over spaces.');
    await session.addMessage('assistant', 'Noted, Priya. I like tabs too.');
    await session.addMessage(
      'user',
      'Yesterday I migrated the invoices table. Remember that staging resets every Sunday. Your name is Pixel.',
    );
    const result = await session.commit();
    const expected = [
      memoryUri(defaultNamespace, 'profile', 'profile'),
      memoryUri(defaultNamespace, 'preferences', 'tabs over spaces'),
      expect.stringMatching(/\/memories\/events\/\d{4}-\d{2}-\d{2}-i-migrated-the-invoices-table$/),
      memoryUri(defaultNamespace, 'agent', 'staging resets every Sunday'),
      memoryUri(defaultNamespace, 'identity', 'identity'),
    ];
    expect(result.extractions).toEqual([
      { archive: result.archive, state: 'done', by: 'rules', memories: expected },
    ]);
    for (const uri of result.extractions[0]!.memories) {
      expect((await longship.stat(uri)).meta).toMatchObject({
        origin: 'session',
        extractedBy: 'rules',
        sources: ['session:plain#1'],
      });
    }
    expect(await longship.read(memoryUri(defaultNamespace, 'preferences', 'tabs over spaces'))).toBe(
      'The user said: "I prefer tabs over spaces."',
    );
    const event = await longship.stat(result.extractions[0]!.memories[2]!);
    expect(event.meta.occurredAt).toBe(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000);
    expect((await longship.stat(result.archive!)).meta).toMatchObject({
      extraction: 'done',
      extractedBy: 'rules',
      memories: result.extractions[0]!.memories,
    });
    // The same statement in a later session adds its source, not its text again.
    const again = longship.session('again');
    await again.addMessage('user', 'I prefer tabs over spaces.');
    await again.commit();
    const tabs = memoryUri(defaultNamespace, 'preferences', 'tabs over spaces');
    expect(await longship.read(tabs)).toBe('The user said: "I prefer tabs over spaces."');
    expect((await longship.stat(tabs)).meta.sources).toEqual(['session:plain#1', 'session:again#1']);
    expect((await longship.verify()).problems).toEqual([]);
  });

  it('writes nothing for the kinds that need an LLM', async () => {
    const longship = await open();
    const session = longship.session('work');
    await session.addMessage('user', 'Fix the flaky test in billing.');
    await session.addMessage('tool', 'ran pytest: 1 failed');
    await session.addMessage('assistant', 'I used ripgrep to find the retry loop, then fixed the timeout.');
    const result = await session.commit();
    expect(result.extractions[0]!.memories).toEqual([]);
    for (const kind of [
      'entities',
      'cases',
      'trajectories',
      'experiences',
      'tools',
      'skills',
      'soul',
    ] as const) {
      await expect(longship.ls(memoryUri(defaultNamespace, kind, 'x').replace(/\/x$/, ''))).rejects.toThrow();
    }
  });
});

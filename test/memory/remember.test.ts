// remember() (docs/guide/retrieval.md, "Remember"): a memory is written, or the call fails with a
// typed error and the store is as it was; it is never dropped.

import { afterEach, describe, expect, it } from 'vitest';
import { defaultNamespace } from '../../src/context/namespace.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { memoryCategories } from '../../src/llm/prompts.js';
import { memoryUri } from '../../src/session/extract.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

let longship: Longship;
afterEach(() => longship.close());

async function open(): Promise<Longship> {
  const embedder = bagOfWordsEmbedder();
  const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
  return openLongship({ store, embedder });
}

async function failure(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

describe('remember', () => {
  it('writes every kind where memoryUri(defaultNamespace, ) places it, and says whether it was new, merged or held', async () => {
    longship = await open();
    for (const kind of memoryCategories) {
      const uri = memoryUri(defaultNamespace, kind, 'Deploys');
      expect(await longship.remember('Deploys run on Fridays.', { kind, name: 'Deploys' })).toEqual({
        uri,
        outcome: 'new',
      });
      expect((await longship.stat(uri)).meta).toMatchObject({
        category: kind,
        origin: 'remember',
        sources: [],
      });
    }
    const uri = memoryUri(defaultNamespace, 'preferences', 'Deploys');
    expect(await longship.remember('Not after 4pm.', { kind: 'preferences', name: 'Deploys' })).toEqual({
      uri,
      outcome: 'merged',
    });
    expect(await longship.read(uri)).toBe('Deploys run on Fridays.\n\nNot after 4pm.');
    const seq = (await longship.store.meta()).seq;
    expect(await longship.remember('Not after 4pm.', { kind: 'preferences', name: 'Deploys' })).toEqual({
      uri,
      outcome: 'held',
    });
    expect((await longship.store.meta()).seq).toBe(seq);
    // Without a name: its first six words; a single-file kind needs none.
    expect(
      (await longship.remember('Tea, never coffee, after noon please thanks.', { kind: 'preferences' })).uri,
    ).toBe(memoryUri(defaultNamespace, 'preferences', 'Tea, never coffee, after noon please'));
    expect((await longship.remember('Lives in Porto.', { kind: 'profile' })).uri).toBe(
      memoryUri(defaultNamespace, 'profile', 'x'),
    );
  });

  it('writes meta.expiresAt and meta.occurredAt, and unions sources', async () => {
    longship = await open();
    await longship.write('viking://resources/notes/a.md', 'A.', { parents: true });
    const first = await longship.remember('Launch on May 1.', {
      kind: 'events',
      name: 'Launch',
      sources: ['viking://resources/notes/a.md'],
      occurredAt: Date.UTC(2024, 4, 1),
      expiresAt: Date.UTC(2024, 5, 1),
    });
    const second = await longship.remember('Moved to May 2.', {
      kind: 'events',
      name: 'Launch',
      sources: ['session:chat#3', 'viking://resources/notes/a.md'],
    });
    expect(second).toEqual({ uri: first.uri, outcome: 'merged' });
    expect((await longship.stat(first.uri)).meta).toMatchObject({
      occurredAt: Date.UTC(2024, 4, 1),
      expiresAt: Date.UTC(2024, 5, 1),
      sources: ['viking://resources/notes/a.md', 'session:chat#3'],
    });
    // Held text with a new source: the source is recorded, the text not added again.
    expect(
      await longship.remember('Moved to May 2.', {
        kind: 'events',
        name: 'Launch',
        sources: ['session:chat#4'],
      }),
    ).toEqual({ uri: first.uri, outcome: 'held' });
    expect((await longship.stat(first.uri)).meta.sources).toEqual([
      'viking://resources/notes/a.md',
      'session:chat#3',
      'session:chat#4',
    ]);
  });

  it('goes to the next free name when a directory holds its place, and says where it belonged', async () => {
    longship = await open();
    const wanted = memoryUri(defaultNamespace, 'entities', 'Ana');
    await longship.mkdir(wanted, { parents: true });
    expect(await longship.remember('Ana is the designer.', { kind: 'entities', name: 'Ana' })).toEqual({
      uri: memoryUri(defaultNamespace, 'entities', 'Ana 2'),
      outcome: 'new',
      wanted,
    });
    expect(await longship.read(memoryUri(defaultNamespace, 'entities', 'Ana 2'))).toBe(
      'Ana is the designer.',
    );
  });

  it('fails with a typed error, writing nothing, when no place can hold it', async () => {
    longship = await open();
    await longship.mkdir(memoryUri(defaultNamespace, 'identity', 'x'), { parents: true });
    const seq = (await longship.store.meta()).seq;
    expect((await failure(longship.remember('Named Nova.', { kind: 'identity' }))).code).toBe(
      'IS_A_DIRECTORY',
    );
    // The kind's directory is a file: no name under it resolves.
    await longship.write(memoryUri(defaultNamespace, 'tools', 'x').replace(/\/x$/, ''), 'Not a directory.', {
      parents: true,
    });
    expect((await failure(longship.remember('ripgrep is fast.', { kind: 'tools' }))).code).toBe(
      'NOT_A_DIRECTORY',
    );
    expect((await longship.store.meta()).seq).toBe(seq + 1);
    expect((await longship.verify()).problems).toEqual([]);
  });

  it.each([
    ['empty content', '', { kind: 'agent' }],
    ['blank content', '   ', { kind: 'agent' }],
    ['content not a string', 42, { kind: 'agent' }],
    ['content over 20,000 characters', 'x'.repeat(20_001), { kind: 'agent' }],
    ['no kind', 'Fine.', {}],
    ['no options', 'Fine.', undefined],
    ['an unknown kind', 'Fine.', { kind: 'feelings' }],
    ['an unknown option', 'Fine.', { kind: 'agent', colour: 'red' }],
    ['an empty name', 'Fine.', { kind: 'agent', name: '' }],
    ['a source not a string', 'Fine.', { kind: 'agent', sources: ['ok', 3] }],
    ['expiresAt NaN', 'Fine.', { kind: 'agent', expiresAt: Number.NaN }],
    ['occurredAt a string', 'Fine.', { kind: 'agent', occurredAt: '2024-01-01' }],
  ])('refuses %s: INVALID_ARGUMENT, nothing written', async (_, content, options) => {
    longship = await open();
    const seq = (await longship.store.meta()).seq;
    const error = await failure(longship.remember(content as string, options as never));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect((await longship.store.meta()).seq).toBe(seq);
  });
});

// Provenance (docs/guide/retrieval.md, "Provenance"): removing a resource removes the memories derived
// only from it, in the same commit, and flags those derived partly from it.

import { afterEach, describe, expect, it } from 'vitest';
import { defaultNamespace } from '../../src/context/namespace.js';
import { type Longship, openLongship } from '../../src/engine.js';
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

const exists = (uri: string) =>
  longship.stat(uri).then(
    () => true,
    () => false,
  );

describe('removing a resource', () => {
  it('removes a memory derived only from it, and flags one derived partly from it', async () => {
    longship = await open();
    const guide = 'viking://resources/guide/style.md';
    const other = 'viking://resources/other.md';
    await longship.write(guide, 'Use tabs.', { parents: true });
    await longship.write(other, 'Deploy on Fridays.', { parents: true });
    const only = await longship.remember('The guide says tabs.', { kind: 'preferences', sources: [guide] });
    const partly = await longship.remember('Tabs, and Friday deploys.', {
      kind: 'experiences',
      sources: [guide, other],
    });
    const fromSession = await longship.remember('Tabs, said in chat.', {
      kind: 'agent',
      sources: ['session:chat#1', guide],
    });
    const unrelated = await longship.remember('Fridays.', { kind: 'events', sources: [other] });
    const seq = (await longship.store.meta()).seq;

    expect(await longship.rm(guide)).toBe(1);
    // One commit: the resource and what derived only from it.
    expect((await longship.store.meta()).seq).toBe(seq + 1);
    expect(await exists(only.uri)).toBe(false);
    expect((await longship.stat(partly.uri)).meta).toMatchObject({
      sources: [other],
      orphanedSources: [guide],
    });
    expect((await longship.stat(fromSession.uri)).meta).toMatchObject({
      sources: ['session:chat#1'],
      orphanedSources: [guide],
    });
    expect((await longship.stat(unrelated.uri)).meta).not.toHaveProperty('orphanedSources');
    // Still found, with its text; the removed memory is not.
    const found = await longship.find('tabs friday deploys', { filter: { contextType: 'memory' } });
    expect(found.memories.map((m) => m.uri)).toContain(partly.uri);
    expect(found.memories.map((m) => m.uri)).not.toContain(only.uri);

    // Its last source gone too: the flagged memory goes.
    await longship.rm(other);
    expect(await exists(partly.uri)).toBe(false);
    expect(await exists(unrelated.uri)).toBe(false);
    expect(await exists(fromSession.uri)).toBe(true);
    expect((await longship.verify()).problems).toEqual([]);
  });

  it('counts every resource of a removed subtree', async () => {
    longship = await open();
    await longship.write('viking://resources/book/ch1.md', 'One.', { parents: true });
    await longship.write('viking://resources/book/ch2.md', 'Two.', { parents: true });
    const both = await longship.remember('The book has two chapters.', {
      kind: 'entities',
      name: 'Book',
      sources: ['viking://resources/book/ch1.md', 'viking://resources/book/ch2.md'],
    });
    const dir = await longship.remember('About the book.', {
      kind: 'entities',
      name: 'Book folder',
      sources: ['viking://resources/book'],
    });
    expect(await longship.rm('viking://resources/book', { recursive: true })).toBe(3);
    expect(await exists(both.uri)).toBe(false);
    expect(await exists(dir.uri)).toBe(false);
  });

  it('leaves memories alone when what is removed is no resource', async () => {
    longship = await open();
    const memory = await longship.remember('Notes.', {
      kind: 'agent',
      sources: [memoryUri(defaultNamespace, 'preferences', 'gone')],
    });
    await longship.write(memoryUri(defaultNamespace, 'preferences', 'gone'), 'Gone soon.', { parents: true });
    await longship.rm(memoryUri(defaultNamespace, 'preferences', 'gone'));
    expect((await longship.stat(memory.uri)).meta).toMatchObject({
      sources: [memoryUri(defaultNamespace, 'preferences', 'gone')],
    });
    expect((await longship.stat(memory.uri)).meta).not.toHaveProperty('orphanedSources');
  });
});

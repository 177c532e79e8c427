// mkdir()'s L0. OpenViking's mkdir takes a `description`, strips it, writes it as the directory's
// abstract and embeds it, and writes no abstract for a blank or missing one; Longship's takes
// `abstract`, trimmed the same way, and a directory always has an L0: its name when none is given.
import { beforeAll, describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import { embedderInfo, hashEmbedder, openParts, uriOfVector } from './fixtures.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const R = 'viking://resources';

async function fresh() {
  return openParts(await openMemoryStore({ embedder: embedderInfo }), usearch);
}

describe('mkdir() L0', () => {
  it('is the abstract given, trimmed as OpenViking strips a description', async () => {
    const { tree } = await fresh();
    const made = await tree.mkdir(`${R}/trips`, { abstract: '  Travel plans and bookings.\n' });
    expect(made.abstract).toBe('Travel plans and bookings.');
    expect(await tree.abstract(`${R}/trips`)).toBe('Travel plans and bookings.');
  });

  it('is the name for a blank abstract, which OpenViking takes as none', async () => {
    const { tree } = await fresh();
    expect((await tree.mkdir(`${R}/trips`, { abstract: ' \n\t' })).abstract).toBe('trips');
    expect((await tree.mkdir(`${R}/notes`)).abstract).toBe('notes');
    expect((await tree.stat(`${R}/notes`)).summaryKind).toBe('extractive');
  });

  it('is embedded with the directory, as OpenViking vectorizes a directory’s abstract', async () => {
    const parts = await fresh();
    await parts.tree.mkdir(`${R}/a`, { abstract: 'Lighthouse keepers and foghorns.' });
    await parts.tree.mkdir(`${R}/b`, { abstract: 'Sourdough starters and ovens.' });
    const [query] = await hashEmbedder.embed(['lighthouse keepers foghorns']);
    const [best] = parts.indexes.vectors.search(query!, 1);
    expect(await uriOfVector(parts.store, best!.key)).toBe(`${R}/a`);
  });
});

// The derived indexes make every index through the factories the engine hands them, and a side that
// fails to apply a change is rebuilt from the store rather than left in doubt.

import { beforeAll, describe, expect, it } from 'vitest';
import { bm25Indexes } from '../../src/lexical/bm25-index.js';
import type { LexicalIndex, LexicalIndexFactory } from '../../src/lexical/lexical-index.js';
import { MemoryData } from '../../src/store/memory/memory-data.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { usearchIndexes } from '../../src/vector/usearch-index.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import type { VectorIndexFactory } from '../../src/vector/vector-index.js';
import { embedderInfo, openParts } from '../context/fixtures.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const R = 'viking://resources';

/** The engine's factories, counting what they are asked for. */
function counted(vector: VectorIndexFactory, lexical: LexicalIndexFactory) {
  const calls = { vectorCreate: 0, vectorAllocate: 0, lexicalCreate: 0, lexicalLoad: 0 };
  const factories = {
    vector: {
      create: (options: Parameters<VectorIndexFactory['create']>[0]) => {
        calls.vectorCreate++;
        return vector.create(options);
      },
      allocate: (length: number) => {
        calls.vectorAllocate++;
        return vector.allocate(length);
      },
    },
    lexical: {
      ...lexical,
      create: (options?: Parameters<LexicalIndexFactory['create']>[0]) => {
        calls.lexicalCreate++;
        return lexical.create(options);
      },
      load: (...args: Parameters<LexicalIndexFactory['load']>) => {
        calls.lexicalLoad++;
        return lexical.load(...args);
      },
    },
  };
  return { calls, factories };
}

describe('the derived indexes', () => {
  it('make their indexes through the factories they are given: built on a first open, loaded on the next', async () => {
    const data = new MemoryData();
    const first = counted(usearchIndexes(usearch), bm25Indexes);
    const a = await openParts(await openMemoryStore({ embedder: embedderInfo, data }), usearch, {
      factories: first.factories,
    });
    expect(a.indexes.openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' });
    expect(first.calls).toEqual({ vectorCreate: 1, vectorAllocate: 0, lexicalCreate: 1, lexicalLoad: 0 });
    await a.tree.write(`${R}/a.md`, 'glacier river delta', { parents: true });
    await a.indexes.close();

    const second = counted(usearchIndexes(usearch), bm25Indexes);
    const b = await openParts(await openMemoryStore({ embedder: embedderInfo, data }), usearch, {
      factories: second.factories,
    });
    expect(b.indexes.openedFrom).toEqual({ vector: 'snapshot', lexical: 'snapshot', nodes: 'snapshot' });
    expect(second.calls).toEqual({ vectorCreate: 0, vectorAllocate: 1, lexicalCreate: 0, lexicalLoad: 1 });
    expect(b.indexes.lexical.search('glacier').length).toBe(1);
    await b.indexes.close();
  });

  it('rebuild a side that throws while applying a change, report it, and still include the change', async () => {
    let armed = false;
    /** BM25 indexes whose next replace() throws once armed, as an index out of memory might. */
    const failing: LexicalIndexFactory = {
      ...bm25Indexes,
      create: (options) =>
        new Proxy(bm25Indexes.create(options), {
          get(target, property) {
            const value = Reflect.get(target, property);
            if (property === 'replace' && armed) {
              armed = false;
              return () => {
                throw new Error('no room for the posting');
              };
            }
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }) as LexicalIndex,
    };
    const errors: unknown[] = [];
    const { tree, indexes } = await openParts(await openMemoryStore({ embedder: embedderInfo }), usearch, {
      factories: { vector: usearchIndexes(usearch), lexical: failing },
      onError: (error) => errors.push(error),
    });
    await tree.write(`${R}/a.md`, 'glacier river delta', { parents: true });
    const before = indexes.lexical;
    armed = true;
    await tree.write(`${R}/b.md`, 'volcano canyon reef');
    expect(errors.map((error) => (error as Error).message)).toEqual(['no room for the posting']);
    expect(indexes.lexical).not.toBe(before);
    expect(indexes.openedFrom.lexical).toBe('rebuild');
    expect(indexes.lexical.search('volcano').length).toBe(1);
    expect(await indexes.verify()).toEqual({ ok: true, problems: [] });
    await indexes.close();
  });
});

import { expect, it } from 'vitest';
import { createRetriever, find } from '../../src/retrieve/retriever.js';
import { type FindFilter, filterPredicate, loadScope, resolveRoots } from '../../src/retrieve/scope.js';
import { eligibleNodes } from '../../src/retrieve/walk/quick.js';
import { corpus } from './corpus.js';
import { buildTree } from './fixture.js';

it('a cached scope answers each of many filters as a fresh one does, in any order', async () => {
  const { sources } = await buildTree(corpus);
  const retriever = createRetriever(sources);
  const filters: (FindFilter | undefined)[] = [
    undefined,
    { meta: { audience: 'operator' } },
    { meta: { audience: 'developer' } },
    { meta: { audience: ['operator', 'developer'] } },
    { kind: 'file' },
    { kind: 'dir' },
    { contextType: 'skill' },
    { contextType: ['resource', 'skill'], kind: 'file' },
    // Not named by a string: never remembered, filtered each time.
    { meta: { audience: new Set(['operator']) } },
  ];
  const queries = ['error codes retry', 'networking retries timeouts'];
  for (const order of [filters, [...filters].reverse(), filters]) {
    for (const filter of order) {
      for (const query of queries) {
        const options = { mode: 'quick' as const, limit: 20, ...(filter ? { filter } : {}) };
        expect(await retriever.find(query, options)).toEqual(await find(sources, query, options));
      }
    }
  }
});

it('remembers the nodes each filter admits per scope, and never mixes two filters up', async () => {
  const { sources } = await buildTree(corpus);
  const scope = await loadScope(sources, resolveRoots(undefined, undefined));
  const filters: (FindFilter | undefined)[] = [
    undefined,
    { kind: 'file' },
    { kind: 'dir' },
    { contextType: 'skill' },
    { meta: { audience: 'operator' } },
    { meta: { audience: ['operator', 'developer'] } },
    { meta: { audience: null } },
    { meta: { audience: new Set(['operator']) } },
  ];
  for (const filter of [...filters, ...filters.reverse()]) {
    const matches = filterPredicate(filter);
    const expected = scope.nodes.filter(matches).map((node) => node.uri);
    expect(eligibleNodes(scope, filter, matches).map((node) => node.uri)).toEqual(expected);
  }
  // Remembered: the same list, not a new one.
  const files = filterPredicate({ kind: 'file' });
  expect(eligibleNodes(scope, { kind: 'file' }, files)).toBe(eligibleNodes(scope, { kind: 'file' }, files));
});

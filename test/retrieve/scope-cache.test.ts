import { expect, it } from 'vitest';
import { createRetriever } from '../../src/retrieve/retriever.js';
import { corpus } from './corpus.js';
import { buildTree, urisOf } from './fixture.js';

it('reads the scope from the store once while the store does not change, and again after a write', async () => {
  const { sources, store } = await buildTree(corpus);
  let reads = 0;
  const counted = {
    ...sources,
    store: {
      meta: () => store.meta(),
      node: (uri: string) => store.node(uri),
      vectorsOfNode: (key: number) => store.vectorsOfNode(key),
      relations: (uri: string) => store.relations(uri),
      descendants: (uri: string) => {
        reads++;
        return store.descendants(uri);
      },
    },
  };
  const retriever = createRetriever(counted);
  const first = await retriever.find('retry backoff');
  await retriever.find('retry backoff', { mode: 'quick' });
  await retriever.find('something else entirely');
  const readsBefore = reads;
  expect(readsBefore).toBeGreaterThan(0);

  // Any committed batch moves the sequence number: the next query reloads the scope.
  const node = (await store.node(urisOf(first)[0]!))!;
  await store.commit({ putNodes: [{ ...node, useCount: node.useCount + 1 }] });
  await retriever.find('retry backoff');
  expect(reads).toBe(readsBefore * 2);
});

// find()'s hybrid.exact: every vector search scans the vectors instead of walking the HNSW graph,
// so the nearest chunks are the exact ones; results otherwise rank as the graph's do when it finds
// them all (docs/guide/retrieval.md, "Hybrid scoring").
import { beforeAll, describe, expect, it } from 'vitest';
import { find } from '../../src/retrieve/retriever.js';
import type { RetrievalSources } from '../../src/retrieve/sources.js';
import type { SearchOptions } from '../../src/vector/vector-index.js';
import { corpus } from './corpus.js';
import { buildTree, type Tree } from './fixture.js';

let tree: Tree;
beforeAll(async () => {
  tree = await buildTree(corpus);
});

/** The sources, with each vector search's options recorded. */
function watched(): { sources: RetrievalSources; calls: SearchOptions[] } {
  const calls: SearchOptions[] = [];
  const vectors = tree.sources.vectors;
  const sources: RetrievalSources = {
    ...tree.sources,
    vectors: {
      metric: vectors.metric,
      get size() {
        return vectors.size;
      },
      search: (query, k, options = {}) => {
        calls.push(options);
        return vectors.search(query, k, options);
      },
    },
  };
  return { sources, calls };
}

const isExact = (options: SearchOptions) =>
  options.exact === true || (options.allow !== undefined && options.exactBelow === options.allow.length);

describe('hybrid.exact', () => {
  it('makes every vector search a scan, in both modes, and leaves the ranking of a small store as it was', async () => {
    for (const mode of ['quick', 'thinking'] as const) {
      const graph = watched();
      const scanned = watched();
      const query = 'how do I route traffic through a proxy?';
      const byGraph = await find(graph.sources, query, { mode });
      const byScan = await find(scanned.sources, query, { mode, hybrid: { exact: true } });
      expect(graph.calls.some((options) => !isExact(options))).toBe(true);
      expect(scanned.calls.length).toBeGreaterThan(0);
      expect(scanned.calls.every(isExact)).toBe(true);
      // A store this small: the graph finds every neighbour, so the answers agree.
      expect(byScan.resources.map((hit) => hit.uri)).toEqual(byGraph.resources.map((hit) => hit.uri));
    }
  });
});

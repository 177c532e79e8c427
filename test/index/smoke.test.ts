import { describe, expect, it } from 'vitest';
import { createVectorIndex, loadUsearch, loadVectorIndex } from '../../src/index.js';

describe('VectorIndex smoke', () => {
  it('finds the nearest of three vectors and survives a serialize → view round trip', async () => {
    const usearch = await loadUsearch();
    const index = createVectorIndex(usearch, { dimensions: 4 });
    index.add(1, new Float32Array([1, 0, 0, 0]));
    index.add(2, new Float32Array([0, 1, 0, 0]));
    index.add(7, new Float32Array([1, 1, 0, 0]));
    const query = new Float32Array([1, 0.1, 0, 0]);
    expect(index.search(query, 3).map((hit) => hit.key)).toEqual([1, 7, 2]);
    const view = loadVectorIndex(usearch, index.serialize(), { view: true });
    expect(view.search(query, 3)).toEqual(index.search(query, 3));
    view.dispose();
    index.dispose();
  });
});

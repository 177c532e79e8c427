// The bench-only embedder that blends the bundled model with GloVe, so that one ingestion serves every
// blend. Documents get [a/√2, g₁/√(2k), …, g_k/√(2k)]: the bundled vector a and k pooled GloVe vectors
// (one per vocabulary cut and pooling), each at unit length, so the whole is at unit length. A query
// for block i at weight w gets [√2·w·a, 0, …, √(2k)·(1−w)·g_i, …, 0], so that under the inner-product
// metric its score against a document is exactly w·cos(a) + (1−w)·cos(g_i): the w-blend of the two
// cosines, as if each blend had been ingested on its own. w = 1 is the bundled model alone.
import type { Embedder, EmbedOptions } from '../../src/embed/embedder.js';
import { type GloveVocabulary, type Pooling, pooledVector, unit } from './glove-model.js';

export interface GloveBlock {
  vocabulary: GloveVocabulary;
  pooling: Pooling;
}

/** What the next embed() calls are for: documents (undefined), or a query of one block at weight w. */
export interface QueryBlend {
  block: number;
  w: number;
}

export interface BlendEmbedder extends Embedder {
  /** Set before find(); left undefined while ingesting. */
  query: QueryBlend | undefined;
}

export function blendEmbedder(bundled: Embedder, blocks: readonly GloveBlock[]): BlendEmbedder {
  const a = bundled.dimensions;
  const g = blocks[0]?.vocabulary.dimensions ?? 0;
  const k = blocks.length;
  const blend: BlendEmbedder = {
    id: `${bundled.id}+glove`,
    dimensions: a + k * g,
    query: undefined,
    async embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
      const vectors = await bundled.embed(texts, options);
      const query = blend.query;
      return texts.map((text, t) => {
        const out = new Float32Array(a + k * g);
        const own = unit(Float32Array.from(vectors[t]!));
        const aScale = query ? Math.SQRT2 * query.w : Math.SQRT1_2;
        for (let i = 0; i < a; i++) out[i] = aScale * own[i]!;
        blocks.forEach(({ vocabulary, pooling }, b) => {
          if (query && query.block !== b) return;
          const gScale = Math.sqrt(2 * k) * (query ? 1 - query.w : 1 / (2 * k));
          if (gScale === 0) return;
          const pooled = pooledVector(vocabulary, text, pooling);
          for (let i = 0; i < g; i++) out[a + b * g + i] = gScale * pooled[i]!;
        });
        return out;
      });
    },
  };
  return blend;
}

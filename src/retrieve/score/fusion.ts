// How a BM25 score and a vector similarity become one score in [0, 1]. Both sides are normalised
// against per-query references taken once, from the global searches over the whole scope, so that
// a child scored deep in the walk is on the same scale as a hit from the first search: normalising
// within one directory's children would give the best child of a poor directory a perfect score.
//
// Measured on ObliQA (bench/results/quality-obliqa.md): reciprocal-rank fusion drags a strong BM25
// down when the vector side is weak, a convex blend weighted towards BM25 does not; hence the
// default blend. Every method is kept as an option.

/** `minmax` and `zscore` are convex blends of normalised scores; `rrf` blends reciprocal ranks. */
export type FusionMethod = 'minmax' | 'zscore' | 'rrf';

export interface FusionSettings {
  method: FusionMethod;
  /** Weight of the lexical side in [0, 1]; the vector side gets the rest. */
  lexicalWeight: number;
  useVector: boolean;
  useLexical: boolean;
  /** RRF's k: 1 / (k + rank). */
  rrfK: number;
}

/** The per-query references: the scope's best BM25 scores and best vector similarities, best first. */
export interface FusionReference {
  /** BM25 scores of the best lexical matches in scope (one per node), descending. */
  lexical: readonly number[];
  /** Similarities (1 − cosine distance) of the best vector matches in scope (one per node), descending. */
  vector: readonly number[];
  /** 1-based global ranks, for RRF. */
  lexicalRank: ReadonlyMap<number, number>;
  vectorRank: ReadonlyMap<number, number>;
}

/** One node's raw scores: BM25 (0 when no query term matches) and similarity (undefined without a vector). */
export interface RawScores {
  lexical: number;
  vector: number | undefined;
}

export interface Fuser {
  /** The fused score of node `key`, in [0, 1]. */
  fuse(key: number, raw: RawScores): number;
  /** What the normalisation used, for the trace. */
  describe(): {
    method: FusionMethod;
    lexicalWeight: number;
    lexical: [number, number];
    vector: [number, number];
  };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function meanAndDeviation(values: readonly number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
  return [mean, Math.sqrt(variance) || 1];
}

/**
 * Builds the fusion for one query.
 * - `minmax`: lexical = BM25 / best BM25 in scope (a non-match is 0, BM25's natural floor);
 *   vector = (similarity − lowest reference) / (best − lowest reference), clamped to [0, 1].
 * - `zscore`: each side's z-score against its reference, squashed by the logistic function.
 * - `rrf`: 1/(k + global rank) on each side (absent from the reference: 0), scaled so rank 1 is 1.
 * The blend is `w · lexical + (1 − w) · vector`; with one side off, the other alone.
 */
export function createFuser(settings: FusionSettings, reference: FusionReference): Fuser {
  const wLex = !settings.useVector ? 1 : !settings.useLexical ? 0 : settings.lexicalWeight;
  const wVec = 1 - wLex;
  const lexHi = reference.lexical[0] ?? 0;
  const vecHi = reference.vector[0] ?? 0;
  const vecLo = reference.vector[reference.vector.length - 1] ?? 0;
  const [lexMean, lexDev] = meanAndDeviation(reference.lexical);
  const [vecMean, vecDev] = meanAndDeviation(reference.vector);
  const { method, rrfK } = settings;

  const lexicalPart = (key: number, bm25: number): number => {
    if (method === 'rrf') {
      const rank = reference.lexicalRank.get(key);
      return rank === undefined ? 0 : (rrfK + 1) / (rrfK + rank);
    }
    if (method === 'zscore') return bm25 > 0 ? sigmoid((bm25 - lexMean) / lexDev) : 0;
    return lexHi > 0 ? clamp01(bm25 / lexHi) : 0;
  };
  const vectorPart = (key: number, similarity: number | undefined): number => {
    if (similarity === undefined) return 0;
    if (method === 'rrf') {
      const rank = reference.vectorRank.get(key);
      return rank === undefined ? 0 : (rrfK + 1) / (rrfK + rank);
    }
    if (method === 'zscore') return sigmoid((similarity - vecMean) / vecDev);
    const span = vecHi - vecLo;
    return span > 1e-9 ? clamp01((similarity - vecLo) / span) : similarity >= vecHi - 1e-9 ? 1 : 0;
  };

  return {
    fuse(key, raw) {
      let score = 0;
      if (wLex > 0) score += wLex * lexicalPart(key, raw.lexical);
      if (wVec > 0) score += wVec * vectorPart(key, raw.vector);
      return score;
    },
    describe() {
      const lexical: [number, number] = method === 'zscore' ? [lexMean, lexDev] : [0, lexHi];
      const vector: [number, number] = method === 'zscore' ? [vecMean, vecDev] : [vecLo, vecHi];
      return { method, lexicalWeight: wLex, lexical, vector };
    },
  };
}

/** Ranks (1-based) of keys listed best first. */
export function ranksOf(keys: Iterable<number>): Map<number, number> {
  const ranks = new Map<number, number>();
  for (const key of keys) if (!ranks.has(key)) ranks.set(key, ranks.size + 1);
  return ranks;
}

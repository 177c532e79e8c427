// Seeded synthetic documents: a clustered unit vector and a short text for each id, computed on
// demand so that 100k documents never sit in memory twice. Random uniform vectors are HNSW's worst
// case (DESIGN.md), so vectors are drawn around 100 cluster centres.

const CLUSTERS = 100;
const WORDS = (
  'index vector store snapshot replay commit memory resource skill agent query context layer ' +
  'abstract overview content directory file relation search score rank fusion lexical token ' +
  'model embed chunk summary session user preference event entity graph node edge batch'
).split(' ');

/** A small fast PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
}

export class Documents {
  private readonly centres: Float32Array[];

  constructor(
    private readonly dims: number,
    private readonly seed: number,
  ) {
    const next = random(seed);
    this.centres = Array.from({ length: CLUSTERS }, () =>
      Float32Array.from({ length: dims }, () => gaussian(next)),
    );
  }

  /** A unit vector near one of the cluster centres. */
  vector(id: number): Float32Array {
    const next = random(this.seed * 1_000_003 + id);
    const centre = this.centres[id % CLUSTERS]!;
    const vector = new Float32Array(this.dims);
    let norm = 0;
    for (let i = 0; i < this.dims; i++) {
      const x = centre[i]! + 0.6 * gaussian(next);
      vector[i] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm);
    for (let i = 0; i < this.dims; i++) vector[i]! /= norm;
    return vector;
  }

  /** About 60 words: one chunk for the bundled model (128 tokens). */
  text(id: number): string {
    const next = random(this.seed * 7_000_003 + id);
    const words = Array.from({ length: 60 }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    return `Document ${id}: ${words.join(' ')}.`;
  }
}

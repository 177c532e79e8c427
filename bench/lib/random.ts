/** A small, fast, seeded PRNG (sfc32 seeded through splitmix32) with Gaussian draws. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;
  #spare: number | undefined;

  constructor(seed: number, stream = 0) {
    let state = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
    const next = () => {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = next();
    for (let i = 0; i < 16; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [0, bound). */
  below(bound: number): number {
    return Math.floor(this.uniform() * bound);
  }

  /** Standard normal (Box–Muller). */
  gaussian(): number {
    if (this.#spare !== undefined) {
      const spare = this.#spare;
      this.#spare = undefined;
      return spare;
    }
    let u = 0;
    while (u === 0) u = this.uniform();
    const v = this.uniform();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.#spare = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }
}

/** A copy of `items` in a seeded random order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = new Random(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

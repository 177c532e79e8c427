// Embeddings cached on disk between benchmark runs, outside the repository, keyed by a hash of
// each text, so a rerun embeds nothing it embedded before.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder, EmbedOptions } from '../../src/embed/embedder.js';

export const cacheDir = join(tmpdir(), 'longship-eval-cache');

const hashOf = (text: string) => createHash('sha1').update(text).digest('hex');

/** An embedding cache in one append-only file: 40 hex characters of SHA-1, then the vector. */
export class EmbeddingCache {
  readonly #file: string;
  readonly #dimensions: number;
  readonly #vectors = new Map<string, Float32Array>();

  constructor(name: string, dimensions: number) {
    mkdirSync(cacheDir, { recursive: true });
    this.#file = join(cacheDir, `${name}.bin`);
    this.#dimensions = dimensions;
    if (!existsSync(this.#file)) return;
    const bytes = readFileSync(this.#file);
    const record = 40 + dimensions * 4;
    for (let at = 0; at + record <= bytes.length; at += record) {
      const hash = bytes.toString('latin1', at, at + 40);
      const vector = new Float32Array(dimensions);
      new Uint8Array(vector.buffer).set(bytes.subarray(at + 40, at + record));
      this.#vectors.set(hash, vector);
    }
  }

  get size(): number {
    return this.#vectors.size;
  }

  /** Vectors for all texts, embedding (and saving) only those not cached. */
  async embed(
    embedder: Embedder,
    texts: readonly string[],
    options: EmbedOptions & { label?: string } = {},
  ): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.#vectors.has(hashOf(t))))];
    const started = performance.now();
    for (let i = 0; i < missing.length; i += 256) {
      const batch = missing.slice(i, i + 256);
      const vectors = await embedder.embed(batch, options.signal ? { signal: options.signal } : {});
      const out = Buffer.alloc(batch.length * (40 + this.#dimensions * 4));
      batch.forEach((text, j) => {
        const hash = hashOf(text);
        this.#vectors.set(hash, vectors[j]!);
        const at = j * (40 + this.#dimensions * 4);
        out.write(hash, at, 'latin1');
        Buffer.from(vectors[j]!.buffer, vectors[j]!.byteOffset, vectors[j]!.byteLength).copy(out, at + 40);
      });
      appendFileSync(this.#file, out);
      const done = Math.min(i + 256, missing.length);
      const rate = done / ((performance.now() - started) / 1000);
      if (options.label) {
        process.stdout.write(
          `\r  embedding ${options.label}: ${done}/${missing.length} (${rate.toFixed(0)}/s)   `,
        );
      }
    }
    if (options.label && missing.length > 0) process.stdout.write('\n');
    return texts.map((t) => this.#vectors.get(hashOf(t))!);
  }
}

/**
 * An embedder that answers from `cache` and embeds only what it has not seen, with `inner`
 * (printing its progress under `label`, if given).
 * `embedMs` adds up the time spent in calls, so a benchmark can leave embedding out of latency.
 */
export function cachedEmbedder(
  inner: Embedder,
  cache: EmbeddingCache,
  label?: string,
): Embedder & { embedMs: number } {
  const wrapper = {
    id: inner.id,
    dimensions: inner.dimensions,
    embedMs: 0,
    async embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
      const started = performance.now();
      try {
        return await cache.embed(inner, texts, { ...options, ...(label ? { label } : {}) });
      } finally {
        wrapper.embedMs += performance.now() - started;
      }
    },
  };
  return wrapper;
}

/** Progress of a long embedding job, reported after each batch. */
export interface EmbedProgress {
  done: number;
  total: number;
}

export interface EmbedOptions {
  signal?: AbortSignal;
  onProgress?: (progress: EmbedProgress) => void;
}

/**
 * Turns texts into vectors. Made by `transformersEmbedder` (on device, the default),
 * `remoteEmbedder` (an OpenAI-compatible endpoint) or `functionEmbedder` (a plain function).
 */
export interface Embedder {
  /** Model id and revision, stored beside every vector so a model swap is detectable. */
  readonly id: string;
  readonly dimensions: number;
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * Releases what the embedder holds (an on-device model's session); a later `embed` loads it again.
   * Longship calls it at close() for the embedder it made, never for one it was given.
   */
  dispose?(): Promise<void>;
}

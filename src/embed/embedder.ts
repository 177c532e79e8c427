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
 * Turns texts into vectors. Implementations: TransformersEmbedder (on device, the default),
 * RemoteEmbedder (an OpenAI-compatible endpoint), or a plain function via `functionEmbedder`.
 */
export interface Embedder {
  /** Model id and revision, stored beside every vector so a model swap is detectable. */
  readonly id: string;
  readonly dimensions: number;
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

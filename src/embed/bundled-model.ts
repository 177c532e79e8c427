// The embedding model that ships inside the package: Google's Universal Sentence Encoder Lite,
// converted to ONNX on install by tools/model/convert.ts (the hub is not reachable everywhere
// Longship runs, so the default model must come with the package). Credits: model/README.md.

/**
 * Where the bundled model lives and what it produces. The directory is a transformers.js model
 * folder (config.json, tokenizer.json, onnx/model.onnx, onnx/model_quantized.onnx). Its URL is
 * relative to this module, which sits two levels below the package root both as
 * src/embed/bundled-model.ts and as dist/embed/bundled-model.js. A bundler moves this module, so a
 * browser app serves the package's `model/use-lite/` folder itself and says where:
 * `new TransformersEmbedder({ model: { ...bundledModel, directory: '/models/use-lite/' } })`.
 *
 * @example
 * const embedder = new TransformersEmbedder(); // uses bundledModel
 * embedder.id === bundledModel.id; // 'longship/use-lite'
 */
export const bundledModel = {
  /** Stored beside every vector; change it whenever the conversion changes the vectors. */
  id: 'longship/use-lite',
  dimensions: 512,
  /** Longer texts are cut to their first 128 tokens. */
  maxTokens: 128,
  directory: new URL('../../model/use-lite/', import.meta.url),
} as const;

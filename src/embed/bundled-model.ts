// The embedding model that ships inside the package: Google's Universal Sentence Encoder Lite,
// converted to ONNX on install by tools/model/convert.ts (the hub is not reachable everywhere
// Longship runs, so the default model must come with the package). Credits: model/README.md.

/**
 * What the bundled model is and produces. Its files come with the package and are found from it
 * (docs/guide/assets.md); spread it into a {@link ModelFolder} to serve them from somewhere else and
 * keep its id: `{ ...bundledModel, directory: '/models/use-lite/' }`.
 *
 * @example
 * const embedder = transformersEmbedder(); // uses bundledModel
 * embedder.id === bundledModel.id; // 'longship/use-lite'
 */
export const bundledModel = {
  /** Stored beside every vector; change it whenever the conversion changes the vectors. */
  id: 'longship/use-lite',
  dimensions: 512,
  /** Longer texts are cut to their first 128 tokens. */
  maxTokens: 128,
} as const;

/** A model file: its URL (a string or a URL), or its bytes. */
export type ModelFile = string | URL | ArrayBuffer | ArrayBufferView;

/** A model folder's files by their names in it: `config.json`, `onnx/model_quantized.onnx`. */
export type ModelFiles = Record<string, ModelFile>;

/**
 * The bundled model's files (int8 weights), each by its own literal `new URL(…, import.meta.url)`:
 * the form Vite, webpack, Rollup and esbuild plugins follow to copy a file into an app's build.
 * A function, called only when a model loads: workerd has no `import.meta.url`, and a URL made at
 * import would fail there before anything ran. The paths are relative to this module, which sits
 * two levels below the package root as src/embed/, dist/embed/ and the bundled dist/worker/entry.js.
 */
export function bundledModelFiles(): ModelFiles {
  return {
    'config.json': new URL('../../model/use-lite/config.json', import.meta.url),
    'tokenizer.json': new URL('../../model/use-lite/tokenizer.json', import.meta.url),
    'tokenizer_config.json': new URL('../../model/use-lite/tokenizer_config.json', import.meta.url),
    'onnx/model_quantized.onnx': new URL('../../model/use-lite/onnx/model_quantized.onnx', import.meta.url),
  };
}

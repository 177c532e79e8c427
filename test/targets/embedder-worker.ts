// A module Worker, bundled for Chromium by chromium-embedder.test.ts: it embeds the texts it is sent
// with the bundled model, served by the test from the URLs in the message, and posts the vectors back.
import { bundledModel } from '../../src/embed/bundled-model.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { LongshipError } from '../../src/errors.js';

export interface EmbedderWorkerRequest {
  /** The URL of the folder holding the bundled model's files. */
  modelDirectory: string;
  /** The URL prefix of onnxruntime-web's dist files. */
  wasmPaths: string;
  texts: string[];
}

export type EmbedderWorkerAnswer =
  | { id: string; vectors: Float32Array[]; isWorker: boolean; crossOriginIsolated: boolean }
  | { error: string };

// The DOM typings describe a Window; a worker's global scope has these two members.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<EmbedderWorkerRequest>) => void) | null;
  postMessage(message: EmbedderWorkerAnswer): void;
};

scope.onmessage = async ({ data }) => {
  try {
    const embedder = transformersEmbedder({
      model: { ...bundledModel, directory: data.modelDirectory },
      wasmPaths: data.wasmPaths,
    });
    scope.postMessage({
      id: embedder.id,
      vectors: await embedder.embed(data.texts),
      isWorker: typeof document === 'undefined',
      crossOriginIsolated: globalThis.crossOriginIsolated,
    });
  } catch (error) {
    const cause = error instanceof LongshipError ? `${error.code}: ${error.message} (${error.cause})` : '';
    scope.postMessage({ error: cause || String(error) });
  }
};

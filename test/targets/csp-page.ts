// The page side of chromium-csp.test.ts: loads USearch and the model from the files the page's
// origin serves, under whatever Content Security Policy the page was served with, and leaves what
// happened in `globalThis.cspResults`.
import { bundledModel } from '../../src/embed/bundled-model.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import { loadUsearch } from '../../src/vector/usearch-module.js';

export interface Outcome {
  ok: boolean;
  code?: string;
  message?: string;
}

async function attempt(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    await run();
    return { ok: true };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return { ok: false, code: code ?? 'none', message: message ?? String(error) };
  }
}

async function run(): Promise<Record<string, Outcome>> {
  const usearch = await attempt(() => loadUsearch(new URL('/wasm/dist/usearch.wasm', location.href)));
  const model = await attempt(() =>
    transformersEmbedder({
      model: { ...bundledModel, directory: '/model/use-lite/' },
      wasmPaths: '/dist/ort/',
    }).embed(['a page about boats']),
  );
  // Everything from one folder: the package's own layout under the origin's root.
  const longship = await attempt(async () => {
    const opened = await openLongship({ store: 'memory', assets: '/' });
    try {
      await opened.write('viking://resources/boat.md', 'The longship sails at dawn.', { parents: true });
      const { resources } = await opened.find('when does the ship leave?');
      if (resources[0]?.uri !== 'viking://resources/boat.md') throw new Error('not found');
    } finally {
      await opened.close();
    }
  });
  return { usearch, model, longship };
}

(globalThis as Record<string, unknown>).cspResults = run();

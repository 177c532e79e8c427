// A Cloudflare Worker: workerd compiles no WebAssembly from bytes and has no file system, so the
// WASM comes in as compiled modules and the model's files as bytes (docs/guide/workerd.md).
import { openLongship, transformersEmbedder } from 'longship';
import { bundledModel } from 'longship/extend';
import config from 'longship/model/use-lite/config.json';
import model from 'longship/model/use-lite/onnx/model_quantized.onnx';
import tokenizer from 'longship/model/use-lite/tokenizer.json';
import tokenizerConfig from 'longship/model/use-lite/tokenizer_config.json';
import ortWasm from 'longship/ort-wasm-simd-threaded.wasm';
import usearch from 'longship/usearch.wasm';

const embedder = transformersEmbedder({
  model: {
    ...bundledModel,
    files: {
      'config.json': config,
      'tokenizer.json': tokenizer,
      'tokenizer_config.json': tokenizerConfig,
      'onnx/model_quantized.onnx': model,
    },
  },
  // Compiled by workerd; its glue is in onnxruntime-web's `wasm` bundle (the alias in wrangler.toml).
  wasmPaths: { wasm: ortWasm },
});

export default {
  async fetch(request) {
    const longship = await openLongship({ embedder, usearch });
    await longship.addResource([
      { path: 'rivers.md', content: '# Rivers\n\nRivers flood in spring when the snow melts.' },
      { path: 'deserts.md', content: '# Deserts\n\nDeserts get less than 250 mm of rain a year.' },
      { path: 'bread.md', content: '# Bread\n\nKnead the dough for ten minutes, then let it rise.' },
    ]);
    const query = new URL(request.url).searchParams.get('q') ?? 'When do rivers flood?';
    const { resources } = await longship.find(query);
    await longship.close();
    return Response.json(resources.map((r) => ({ uri: r.uri, score: r.score })));
  },
};

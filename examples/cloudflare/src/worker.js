// A Longship per agent on Cloudflare: the Worker routes /{agent}/… to that agent's Durable Object,
// whose Longship keeps its store in the object's SQLite storage. The model's files come from the
// MODELS bucket at run time, so the deployed Worker holds only the script and the two WASM modules.
import { openLongship, transformersEmbedder } from 'longship';
import { openDurableObjectStore } from 'longship/cloudflare';
import { bundledModel } from 'longship/extend';
// workerd compiles no WASM from bytes at run time: these come in as compiled modules.
import ortWasm from 'longship/ort-wasm-simd-threaded.wasm';
import usearch from 'longship/usearch.wasm';

/** The model's files, by their names in its folder; each is `use-lite/{name}` in the bucket. */
const modelFiles = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];

/** One embedder per isolate: its files are fetched once, the model loaded on first use. */
let embedder;

function sharedEmbedder(bucket) {
  embedder ??= fetchModel(bucket)
    .then((files) =>
      transformersEmbedder({ model: { ...bundledModel, files }, wasmPaths: { wasm: ortWasm } }),
    )
    .catch((error) => {
      embedder = undefined;
      throw error;
    });
  return embedder;
}

async function fetchModel(bucket) {
  const entries = await Promise.all(
    modelFiles.map(async (name) => {
      const object = await bucket.get(`use-lite/${name}`);
      if (!object)
        throw new Error(`use-lite/${name} is not in the MODELS bucket: upload the model (README.md)`);
      return [name, await object.arrayBuffer()];
    }),
  );
  return Object.fromEntries(entries);
}

export class AgentObject {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }

  /** Opened on the object's first request; after an eviction, from its snapshots and change log. */
  longship() {
    this.opening ??= sharedEmbedder(this.env.MODELS)
      .then(async (embedder) => {
        const store = await openDurableObjectStore(this.ctx.storage);
        return openLongship({ store, embedder, usearch });
      })
      .catch((error) => {
        this.opening = undefined;
        throw error;
      });
    return this.opening;
  }

  async fetch(request) {
    const url = new URL(request.url);
    const action = url.pathname.split('/')[2];
    try {
      const longship = await this.longship();
      if (action === 'documents' && request.method === 'POST') {
        const { name, text } = await request.json();
        // The job is done when its promise settles: the document is stored and indexed.
        await longship.addResource(text, { name });
        return Response.json({ added: name });
      }
      if (action === 'find') {
        const { resources } = await longship.find(url.searchParams.get('q') ?? '');
        return Response.json(resources.map((hit) => ({ uri: hit.uri, score: hit.score })));
      }
      return Response.json({ error: 'POST /{agent}/documents or GET /{agent}/find?q=…' }, { status: 404 });
    } catch (error) {
      return Response.json({ error: error.message, code: error.code }, { status: 500 });
    }
  }
}

export default {
  fetch(request, env) {
    const agent = new URL(request.url).pathname.split('/')[1];
    if (!agent) return Response.json({ error: 'name the agent: /{agent}/…' }, { status: 404 });
    return env.AGENT.get(env.AGENT.idFromName(agent)).fetch(request);
  },
};

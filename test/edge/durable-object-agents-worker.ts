// Bundled by durable-object-agents-miniflare.ts and run in workerd by Miniflare, for
// durable-object-agents.test.ts and durable-object-abort.test.ts: one Durable Object per agent, each
// a Longship over its own SQLite storage in a namespace named for the agent (viking://~ is
// viking://user/{agent}), embedding with the bundled model (docs/guide/durable-objects.md, "Many
// agents"). The .wasm files come in as modules, the model's files as bindings; the embedder is made
// once per isolate and shared by its objects.

import ortWasm from '../../dist/ort/ort-wasm-simd-threaded.wasm';
import { bundledModel } from '../../src/exports/extend.js';
import { type Embedder, openLongship, transformersEmbedder } from '../../src/index.js';
import { DurableObjectStore } from '../../src/store/durable-object/durable-object-store.js';
import type { DurableObjectSqlStorage } from '../../src/store/durable-object/sql-storage.js';
import type { StoreWrites } from '../../src/store/store.js';
import usearch from '../../wasm/dist/usearch.wasm';

interface Env {
  AGENT: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
  MODEL_CONFIG: ArrayBuffer;
  MODEL_TOKENIZER: ArrayBuffer;
  MODEL_TOKENIZER_CONFIG: ArrayBuffer;
  MODEL_ONNX: ArrayBuffer;
}

/** What the object uses of its `ctx`: its SQL storage, and abort() to reset itself. */
interface AgentState {
  storage: DurableObjectSqlStorage;
  abort(reason?: string): void;
}

type Longship = Awaited<ReturnType<typeof openLongship>>;

let embedder: Embedder | undefined;

/** The bundled model, loaded once per isolate: every object in it embeds with the same one. */
function embedderOf(env: Env): Embedder {
  embedder ??= transformersEmbedder({
    model: {
      ...bundledModel,
      files: {
        'config.json': env.MODEL_CONFIG,
        'tokenizer.json': env.MODEL_TOKENIZER,
        'tokenizer_config.json': env.MODEL_TOKENIZER_CONFIG,
        'onnx/model_quantized.onnx': env.MODEL_ONNX,
      },
    },
    wasmPaths: { wasm: ortWasm },
  });
  return embedder;
}

/**
 * The model behind a timer, as an embedder over the network waits for its answer. workerd commits
 * a Durable Object's writes when its code waits for I/O: the commits before each wait are durable.
 */
function awaitingIo(inner: Embedder): Embedder {
  return {
    id: inner.id,
    dimensions: inner.dimensions,
    async embed(texts, options) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return inner.embed(texts, options);
    },
  };
}

/** The store, counting its commits: `abortAt` is the commit after which the object resets itself. */
class CountingStore extends DurableObjectStore {
  commits = 0;
  abortAt = Number.POSITIVE_INFINITY;

  constructor(
    storage: DurableObjectSqlStorage,
    private readonly abort: () => void,
  ) {
    super(storage);
  }

  override async write(writes: StoreWrites): Promise<boolean> {
    const written = await super.write(writes);
    if (written && ++this.commits === this.abortAt) this.abort();
    return written;
  }
}

export class AgentObject {
  #longship: Promise<Longship> | undefined;
  #store: CountingStore | undefined;

  constructor(
    private readonly ctx: AgentState,
    private readonly env: Env,
  ) {}

  /** One Longship per object, in the agent's namespace, opened on the first request. */
  #open(agent: string): Promise<Longship> {
    this.#longship ??= (async () => {
      const store = new CountingStore(this.ctx.storage, () => this.ctx.abort('aborted mid-ingest'));
      this.#store = store;
      const model = embedderOf(this.env);
      // An object named remote-… embeds as if over the network (see awaitingIo).
      const embedder = agent.startsWith('remote-') ? awaitingIo(model) : model;
      return openLongship({ store, embedder, usearch, user: agent });
    })().catch((error) => {
      this.#longship = undefined;
      throw error;
    });
    return this.#longship;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const [, agent = '', action] = url.pathname.split('/');
    const longship = await this.#open(agent);
    const uri = url.searchParams.get('uri') ?? 'viking://resources';
    switch (action) {
      case 'add': {
        const { name, text } = (await request.json()) as { name: string; text: string };
        const { uris } = await longship.addResource(text, { name });
        return Response.json({ uris });
      }
      case 'write': {
        // A private note, in the agent's own space: viking://~ is viking://user/{agent}.
        const { text } = (await request.json()) as { text: string };
        return Response.json({ uri: (await longship.write(uri, text, { parents: true })).uri });
      }
      case 'ingest': {
        // A folder, in commits of several documents; given `abortAfter`, the object resets itself
        // after that many of this request's commits, with the rest of the folder still to come.
        const { name, files, abortAfter } = (await request.json()) as {
          name: string;
          files: { path: string; content: string }[];
          abortAfter?: number;
        };
        const store = this.#store!;
        store.abortAt = abortAfter === undefined ? Number.POSITIVE_INFINITY : store.commits + abortAfter;
        const { uris } = await longship.addResource(files, { name });
        return Response.json({ uris });
      }
      case 'find': {
        const { resources } = await longship.find(url.searchParams.get('q') ?? '');
        return Response.json(resources.map((hit) => ({ uri: hit.uri, abstract: hit.abstract })));
      }
      case 'ls':
        return Response.json((await longship.ls(uri)).map((node) => node.uri));
      case 'read':
        return Response.json(await longship.read(uri));
      case 'verify':
        return Response.json(await longship.verify());
      default:
        return new Response(`no action ${action}`, { status: 404 });
    }
  }
}

export default {
  // One object per agent, named by the path's first segment: /agent-07/… goes to agent-07's.
  async fetch(request: Request, env: Env): Promise<Response> {
    const agent = new URL(request.url).pathname.split('/')[1] ?? '';
    return env.AGENT.get(env.AGENT.idFromName(agent)).fetch(request);
  },
};

// Bundled by durable-object-shards.test.ts and run in workerd by Miniflare: a corpus over four
// Durable Objects, each a Longship over its own SQLite storage serving its part as a shard over
// RPC (docs/guide/sharding.md), and a fifth object holding the whole corpus to compare with. The
// embedder is the tests' hashed words: what is proven is how shards answer and merge.

import { DurableObject } from 'cloudflare:workers';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openDurableObjectStore } from '../../src/exports/cloudflare.js';
import { corpusShard, openShardedCorpus } from '../../src/exports/shard.js';
import { openLongship } from '../../src/index.js';
import type { CorpusShard } from '../../src/shard/shard-protocol.js';
import type { DurableObjectSqlStorage } from '../../src/store/durable-object/sql-storage.js';
import usearch from '../../wasm/dist/usearch.wasm';
import { DIMENSIONS, hashedWords } from '../context/hash-embedder.js';

interface Env {
  SHARD: { idFromName(name: string): unknown; get(id: unknown): ShardObject & CorpusShard };
}

const embedder = functionEmbedder({
  id: 'test/hashed-words',
  dimensions: DIMENSIONS,
  embed: async (texts) => texts.map(hashedWords),
});

type Longship = Awaited<ReturnType<typeof openLongship>>;
const R = 'viking://resources';

export class ShardObject extends DurableObject<Env> {
  #longship: Promise<Longship> | undefined;
  #shard: Promise<CorpusShard> | undefined;
  #delayMs = 0;

  #open(): Promise<Longship> {
    this.#longship ??= openDurableObjectStore(this.ctx.storage as unknown as DurableObjectSqlStorage).then(
      (store) => openLongship({ store, embedder, usearch }),
    );
    return this.#longship;
  }

  #served(): Promise<CorpusShard> {
    this.#shard ??= this.#open().then(corpusShard);
    return this.#shard;
  }

  /** Answers every shard call this much later: a shard that is slow, for the corpus's deadline. */
  delay(ms: number): void {
    this.#delayMs = ms;
  }

  async add(name: string, files: { path: string; content: string }[]): Promise<string[]> {
    return (await (await this.#open()).addResource(files, { name })).uris;
  }

  async find(query: string, options: { limit: number }) {
    return (await (await this.#open()).find(query, { ...options, targetUri: R })).resources;
  }

  async statistics(query: Parameters<CorpusShard['statistics']>[0]) {
    await this.#wait();
    return (await this.#served()).statistics(query);
  }

  async candidates(query: Parameters<CorpusShard['candidates']>[0]) {
    await this.#wait();
    return (await this.#served()).candidates(query);
  }

  async node(uri: string) {
    return (await this.#served()).node(uri);
  }

  async relations(uri: string) {
    return (await this.#served()).relations(uri);
  }

  async #wait(): Promise<void> {
    if (this.#delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#delayMs));
  }
}

const shardsOf = (env: Env) => [0, 1, 2, 3].map((i) => env.SHARD.get(env.SHARD.idFromName(`shard-${i}`)));
const corpusOf = (env: Env) => openShardedCorpus({ shards: shardsOf(env), deadlineMs: 2000 });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const single = env.SHARD.get(env.SHARD.idFromName('single'));
    switch (url.pathname) {
      case '/load': {
        // Every folder to the single store, and to the shard the corpus places it in.
        const folders = (await request.json()) as {
          name: string;
          files: { path: string; content: string }[];
        }[];
        const corpus = corpusOf(env);
        const shards = shardsOf(env);
        for (const { name, files } of folders) {
          await single.add(name, files);
          await shards[corpus.shardOf(`${R}/${name}`)]!.add(name, files);
        }
        return Response.json({ loaded: folders.length });
      }
      case '/compare': {
        const queries = (await request.json()) as string[];
        const corpus = corpusOf(env);
        const compared = [];
        for (const query of queries) {
          const sharded = await corpus.find(query, { limit: 10 });
          compared.push({ query, sharded, single: await single.find(query, { limit: 10 }) });
        }
        return Response.json(compared);
      }
      case '/delay': {
        const { shard, ms } = (await request.json()) as { shard: number; ms: number };
        await shardsOf(env)[shard]!.delay(ms);
        return Response.json({ shard, ms });
      }
      default:
        return new Response('not found', { status: 404 });
    }
  },
};

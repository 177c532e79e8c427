// Bundled by durable-object-shards.test.ts and run in workerd by Miniflare: a corpus over four
// Durable Objects, each a Longship over its own SQLite storage serving its part as a shard over
// RPC (docs/guide/sharding.md), and a fifth object holding the whole corpus to compare with. The
// embedder is the tests' hashed words: what is proven is how shards answer and merge.

import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openShardedCorpus } from '../../src/exports/shard.js';
import { DIMENSIONS, hashedWords } from '../context/hash-embedder.js';
import { type ShardObjectStub, shardObjectClass } from './shard-object.js';

interface Env {
  SHARD: { idFromName(name: string): unknown; get(id: unknown): ShardObjectStub };
}

const R = 'viking://resources';

export const ShardObject = shardObjectClass(
  functionEmbedder({
    id: 'test/hashed-words',
    dimensions: DIMENSIONS,
    embed: async (texts) => texts.map(hashedWords),
  }),
);

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
          await single.add(files, { name });
          await shards[corpus.shardOf(`${R}/${name}`)]!.add(files, { name });
        }
        return Response.json({ loaded: folders.length });
      }
      case '/compare': {
        const queries = (await request.json()) as string[];
        const corpus = corpusOf(env);
        const compared = [];
        for (const query of queries) {
          const sharded = await corpus.find(query, { limit: 10 });
          compared.push({ query, sharded, single: await single.find(query, { limit: 10, targetUri: R }) });
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

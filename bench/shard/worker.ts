// Bundled by bench/shard/workerd.ts and run in workerd by Miniflare: Durable Objects with SQLite
// storage, each a Longship serving its part of a corpus over RPC (docs/guide/sharding.md), and a
// Worker that times find() over N of them, or over one object holding everything, inside workerd.
// The embedder hashes words into 512 dimensions: it costs microseconds, so the figures are
// retrieval's and the calls', not a model's.

import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openShardedCorpus } from '../../src/exports/shard.js';
import { type ShardObjectStub, shardObjectClass } from '../../test/edge/shard-object.js';

interface Env {
  SHARD: { idFromName(name: string): unknown; get(id: unknown): ShardObjectStub };
}

const DIMENSIONS = 512;

/** Each word adds to 8 dimensions chosen by its hash; the sum is normalised. */
const embedder = functionEmbedder({
  id: 'bench/hashed-words-512',
  dimensions: DIMENSIONS,
  embed: async (texts) =>
    texts.map((text) => {
      const vector = new Float32Array(DIMENSIONS);
      for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        let h = 2166136261;
        for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
        for (let j = 0; j < 8; j++) vector[((h >>> 0) + j * 7919) % DIMENSIONS]! += 1 / (j + 1);
      }
      vector[0]! += 0.01;
      const norm = Math.hypot(...vector);
      return vector.map((x) => x / norm);
    }),
});

const R = 'viking://resources';

export const ShardObject = shardObjectClass(embedder);

const objectsOf = (env: Env, count: number) =>
  Array.from({ length: count }, (_, i) => env.SHARD.get(env.SHARD.idFromName(`of-${count}-${i}`)));

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    const body = (await request.json()) as {
      shards: number;
      documents?: { path: string; content: string }[];
      queries?: string[];
    };
    const objects = objectsOf(env, body.shards);
    const corpus = openShardedCorpus({ shards: objects });
    if (pathname === '/load') {
      // Each folder to the object the corpus places it in (one object: all of them).
      const parts = objects.map(() => [] as { path: string; content: string }[]);
      for (const doc of body.documents ?? []) {
        parts[body.shards === 1 ? 0 : corpus.shardOf(`${R}/${doc.path.split('/')[0]}`)]!.push(doc);
      }
      const started = performance.now();
      const added = await Promise.all(objects.map((object, i) => object.add(parts[i]!, { target: R })));
      return Response.json({ added, ms: performance.now() - started });
    }
    // Each query timed here, in workerd: one object's find() over RPC, or the corpus's two rounds.
    const times: number[] = [];
    for (const query of body.queries ?? []) {
      const started = performance.now();
      if (body.shards === 1) await objects[0]!.find(query, { targetUri: R });
      else await corpus.find(query);
      times.push(performance.now() - started);
    }
    return Response.json({ times });
  },
};

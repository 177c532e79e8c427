// A Durable Object class that hosts one Longship over its SQLite storage and serves it as a shard
// of a corpus over RPC (docs/guide/sharding.md), for the Workers of durable-object-shards.test.ts
// and bench/shard: each passes the embedder its objects use.

import { DurableObject } from 'cloudflare:workers';
import { openDurableObjectStore } from '../../src/exports/cloudflare.js';
import { corpusShard } from '../../src/exports/shard.js';
import type { AddResourceOptions } from '../../src/exports/types.js';
import { type Embedder, type FindOptions, openLongship } from '../../src/index.js';
import type { CorpusShard } from '../../src/shard/shard-protocol.js';
import type { DurableObjectSqlStorage } from '../../src/store/durable-object/sql-storage.js';
import usearch from '../../wasm/dist/usearch.wasm';

type Longship = Awaited<ReturnType<typeof openLongship>>;

/** The class, its objects embedding with `embedder`: export it under the binding's class name. */
export function shardObjectClass(embedder: Embedder) {
  return class ShardObject extends DurableObject {
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

    /** Answers every shard call this much later: a shard slower than a corpus's deadline. */
    delay(ms: number): void {
      this.#delayMs = ms;
    }

    async add(files: { path: string; content: string }[], options: AddResourceOptions): Promise<string[]> {
      return (await (await this.#open()).addResource(files, options)).uris;
    }

    /** This object's own find(), as one store of the whole corpus answers. */
    async find(query: string, options: FindOptions) {
      return (await (await this.#open()).find(query, options)).resources;
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
  };
}

/** A stub of such an object, as a Worker's binding gives it: its methods over RPC. */
export type ShardObjectStub = InstanceType<ReturnType<typeof shardObjectClass>> & CorpusShard;

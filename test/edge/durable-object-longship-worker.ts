// Bundled by test/edge/durable-object-longship.test.ts and run in workerd by Miniflare: the recipe of
// docs/guide/durable-objects.md, a Longship per Durable Object, opened on the object's first request
// over its own storage, and opened again from its snapshots and log after the object is evicted.

import { openLongship } from '../../src/index.js';
import { DurableObjectStore } from '../../src/store/durable-object/durable-object-store.js';
import type { DurableObjectSqlStorage } from '../../src/store/durable-object/sql-storage.js';
import type { RecordTables } from '../../src/store/store.js';
import usearch from '../../wasm/dist/usearch.wasm';
import { hashEmbedder } from '../context/hash-embedder.js';

interface Env {
  AGENT: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
}

type Longship = Awaited<ReturnType<typeof openLongship>>;

/** The store, noting which tables are scanned: an open that rebuilds an index scans its records. */
class ScanNotingStore extends DurableObjectStore {
  readonly scanned: string[] = [];
  override scan<T extends keyof RecordTables>(table: T, batchSize?: number) {
    this.scanned.push(table);
    return super.scan(table, batchSize);
  }
}

export class AgentObject {
  #longship: Promise<Longship> | undefined;
  #store: ScanNotingStore | undefined;

  constructor(private readonly ctx: { storage: DurableObjectSqlStorage }) {}

  /** One Longship per object, opened on first use; a failed open is tried again by the next request. */
  #open(): Promise<Longship> {
    this.#longship ??= (async () => {
      const store = new ScanNotingStore(this.ctx.storage);
      this.#store = store;
      // Snapshots only at close(): the test decides what the log holds past them.
      return openLongship({ store, embedder: hashEmbedder, usearch, snapshots: { delayMs: Infinity } });
    })().catch((error) => {
      this.#longship = undefined;
      throw error;
    });
    return this.#longship;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const action = url.pathname.split('/')[2];
    if (action === 'close') {
      await (await this.#open()).close();
      this.#longship = undefined;
      return Response.json({ closed: true });
    }
    const longship = await this.#open();
    if (action === 'add') {
      const { name, text } = (await request.json()) as { name: string; text: string };
      await longship.addResource(text, { name });
      return Response.json({ added: name });
    }
    if (action === 'find') {
      const found = await longship.find(url.searchParams.get('q') ?? '');
      return Response.json({ uris: found.resources.map((hit) => hit.uri) });
    }
    if (action === 'verify') return Response.json(await longship.verify());
    // What the store holds: the seq, the seq each snapshot covers; and what this open scanned.
    const sql = this.ctx.storage.sql;
    const [meta] = sql.exec('SELECT seq FROM longship_meta').toArray();
    const snapshots = sql
      .exec('SELECT header FROM longship_snapshots ORDER BY name')
      .toArray()
      .map((row) => (JSON.parse(row.header as string) as { seq: number }).seq);
    return Response.json({ seq: meta?.seq, snapshots, scanned: this.#store?.scanned });
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const name = new URL(request.url).pathname.split('/')[1] ?? '';
    return env.AGENT.get(env.AGENT.idFromName(name)).fetch(request);
  },
};

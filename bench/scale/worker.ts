// Bundled by bench/scale/run.ts and run in workerd by Miniflare: one Longship in one SQLite-backed
// Durable Object, as docs/guide/durable-objects.md hosts it, with the requests the benchmark times.
// Times are taken here, around the work alone (workerd's clock advances locally; on Cloudflare it
// would stand still while the Worker computes).

import { indexesOf, type Longship, openLongship } from '../../src/engine.js';
import { openDurableObjectStore } from '../../src/exports/cloudflare.js';
import type { DurableObjectSqlStorage } from '../../src/store/durable-object/sql-storage.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import usearchWasm from '../../wasm/dist/usearch.wasm';
import { passage, query, syntheticEmbedder } from './corpus.js';

interface Env {
  SCALE: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
}

type Storage = DurableObjectSqlStorage & { sql: { databaseSize: number } };

/** Files per addResource() job: a folder of small documents, committed 64 to a commit by ingestion. */
const FILES_PER_JOB = 500;

export class ScaleObject {
  #longship: Promise<Longship> | undefined;
  #usearch: UsearchModule | undefined;
  #openMs = 0;

  constructor(private readonly ctx: { storage: Storage }) {}

  #open(): Promise<Longship> {
    this.#longship ??= (async () => {
      const started = performance.now();
      // The module loaded here, not by openLongship(), so that its memory can be read.
      this.#usearch = await loadUsearch(usearchWasm);
      const store = await openDurableObjectStore(this.ctx.storage);
      const longship = await openLongship({
        store,
        embedder: syntheticEmbedder,
        usearch: this.#usearch,
        vectorIndex: { quantization: 'i8' },
        // Snapshots only at close(): the change log past them stays as the benchmark left it.
        snapshots: { delayMs: Number.POSITIVE_INFINITY },
      });
      this.#openMs = performance.now() - started;
      return longship;
    })().catch((error) => {
      // A failed open is tried again by the next request, as the recipe does.
      this.#longship = undefined;
      throw error;
    });
    return this.#longship;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const action = url.pathname.split('/')[2];
    const number = (name: string) => Number(url.searchParams.get(name) ?? 0);
    if (action === 'ping') return Response.json({});
    if (action === 'open') {
      const opening = this.#longship === undefined;
      const longship = await this.#open();
      const { openedFrom } = indexesOf(longship);
      return Response.json({ openMs: opening ? this.#openMs : 0, openedFrom });
    }
    const longship = await this.#open();
    if (action === 'load') return Response.json(await load(longship, number('from'), number('count')));
    if (action === 'write') {
      // One commit a document: what the change log past the last snapshot holds after a day of use.
      const from = number('from');
      for (let id = from; id < from + number('count'); id++) {
        await longship.write(`viking://resources/tail/passage-${id}.md`, passage(id), { parents: true });
      }
      return Response.json({ written: number('count') });
    }
    if (action === 'find') {
      const times: number[] = [];
      let found = 0;
      const all = performance.now();
      for (let i = number('from'); i < number('from') + number('count'); i++) {
        const started = performance.now();
        const result = await longship.find(query(i));
        times.push(performance.now() - started);
        found += result.resources.length;
      }
      return Response.json({ times, totalMs: performance.now() - all, found });
    }
    if (action === 'close') {
      const started = performance.now();
      await longship.close();
      this.#longship = undefined;
      return Response.json({ closeMs: performance.now() - started });
    }
    if (action === 'memory') return Response.json(this.#memory(longship));
    return new Response(`unknown action ${action}`, { status: 404 });
  }

  /** What the object holds: in WASM, in its indexes, and on disk. */
  #memory(longship: Longship) {
    const indexes = indexesOf(longship);
    const sql = this.ctx.storage.sql;
    const rows = (query: string) => sql.exec(query).toArray();
    const snapshots = Object.fromEntries(
      rows('SELECT name, SUM(LENGTH(bytes)) AS bytes FROM longship_snapshot_parts GROUP BY name').map(
        (row) => [row.name as string, row.bytes as number],
      ),
    );
    const count = (table: string) => rows(`SELECT COUNT(*) AS n FROM ${table}`)[0]!.n as number;
    const covered = rows('SELECT header FROM longship_snapshots').map(
      (row) => (JSON.parse(row.header as string) as { seq: number }).seq,
    );
    return {
      wasmBytes: this.#usearch!.memory.buffer.byteLength,
      indexBytes: indexes.vectors.memoryUsage,
      vectors: indexes.vectors.size,
      nodes: indexes.nodes.size,
      databaseBytes: sql.databaseSize,
      snapshots,
      changeRows: count('longship_changes'),
      /** Commits past the oldest snapshot: what an open replays. */
      pastSnapshots: (rows('SELECT seq FROM longship_meta')[0]!.seq as number) - Math.min(...covered),
      vectorRows: count('longship_vectors'),
    };
  }
}

/** Passages `from` … `from + count - 1` as folders of small files, one addResource() job each. */
async function load(longship: Longship, from: number, count: number) {
  const started = performance.now();
  for (let first = from; first < from + count; first += FILES_PER_JOB) {
    const last = Math.min(first + FILES_PER_JOB, from + count);
    const files = [];
    for (let id = first; id < last; id++) files.push({ path: `passage-${id}.md`, content: passage(id) });
    await longship.addResource(files, { name: `batch-${first}` });
  }
  return { loadMs: performance.now() - started };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const name = new URL(request.url).pathname.split('/')[1] ?? '';
    return env.SCALE.get(env.SCALE.idFromName(name)).fetch(request);
  },
};

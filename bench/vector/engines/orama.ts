import { create, insertMultiple, load, type Orama, save, search } from '@orama/orama';
import {
  buildAndSearch,
  type EngineContext,
  type EngineRun,
  errorText,
  jsBytes,
  MB,
  measureRecall,
  measureSearch,
  row,
  timed,
} from '../harness.js';

const batch = 1000;
/**
 * Orama drops hits below a cosine similarity threshold (default 0.8, which would drop true neighbours here).
 * 0 keeps every true neighbour of these queries while sparing it a sort of all n.
 */
const similarity = 0;

export const orama: EngineRun = async (ctx: EngineContext) => {
  const { n, dims, k } = ctx;
  const notes: string[] = [];
  const schema = { embedding: `vector[${dims}]` } as const;
  const before = jsBytes();
  const built = await timed(async () => {
    const db = create({ schema });
    for (let start = 0; start < n; start += batch) {
      const end = Math.min(n, start + batch);
      const docs = [];
      for (let i = start; i < end; i++) docs.push({ id: String(i), embedding: Array.from(row(ctx, i)) });
      await insertMultiple(db, docs, batch);
      if (end % 10_000 === 0) ctx.progress(`inserted ${end} of ${n}`);
    }
    return db;
  });
  const memory = jsBytes() - before;
  const db = built.value;
  const find = (target: Orama<typeof schema>) => async (query: Float32Array) => {
    const result = await search(target, {
      mode: 'vector',
      vector: { value: Array.from(query), property: 'embedding' },
      similarity,
      limit: k,
      includeVectors: false,
    });
    return result.hits.map((hit) => Number(hit.id));
  };
  const searched = await measureSearch(ctx, find(db));

  let bytes: number | null = null;
  let saveMs: number | null = null;
  let loadMs: number | null = null;
  let loadRecall: number | null = null;
  try {
    const saved = await timed(() => JSON.stringify(save(db)));
    saveMs = saved.ms;
    bytes = Buffer.byteLength(saved.value);
    const loaded = await timed(() => {
      const fresh = create({ schema });
      load(fresh, JSON.parse(saved.value));
      return fresh;
    });
    loadMs = loaded.ms;
    loadRecall = await measureRecall(ctx, find(loaded.value));
  } catch (error) {
    notes.push(`JSON.stringify(save(db)) failed at n=${n}: ${errorText(error)}`);
  }
  notes.push(
    `@orama/orama 3.1.18 vector mode (an exact scan in JS), schema vector[${dims}], insertMultiple in batches ` +
      `of ${batch}, similarity threshold ${similarity} (its default 0.8 drops true neighbours here); ` +
      'serialized = JSON.stringify(save(db)), load = JSON.parse + load()',
  );
  return {
    quantization: 'f32',
    ...buildAndSearch(n, built, searched),
    memory_mb: memory / MB,
    memory_how:
      'JS heap + external after GC, after build minus before (documents keep their number[] vectors too)',
    bytes,
    save_ms: saveMs,
    load_ms: loadMs,
    load_recall10: loadRecall,
    notes,
  };
};

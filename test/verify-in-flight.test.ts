// verify() right after a job resolves, or while writes are under way (issue 24, item 11): it reads
// the store at one instant, so it reports damage only where there is some.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openLongship } from '../src/engine.js';
import { openMemoryStore } from '../src/store/memory/memory-store.js';
import { hashEmbedder } from './context/fixtures.js';

const R = 'viking://resources';
const docs = (tag: string) =>
  Array.from({ length: 20 }, (_, i) => ({
    path: `${tag}/d${i}.md`,
    content: `# Doc ${i}\n\nThe river ${tag} ${i} floods every spring.`,
  }));

describe('verify() and writes in flight (IndexedDB)', () => {
  it('holds right after await addResource(): the job resolves once its parents are refreshed', async () => {
    const longship = await openLongship({
      store: { indexedDB: 'longship', factory: new IDBFactory() },
      embedder: hashEmbedder,
    });
    for (const tag of ['a', 'b', 'c']) {
      await longship.addResource(docs(tag));
      const { seq } = await longship.store.meta();
      expect(await longship.verify()).toEqual({ ok: true, problems: [] });
      // Nothing of the job was still to commit.
      await longship.waitProcessed();
      expect((await longship.store.meta()).seq).toBe(seq);
    }
    await longship.close();
  });

  it('holds while a job and a write are under way, for every run', async () => {
    const longship = await openLongship({
      store: { indexedDB: 'longship', factory: new IDBFactory() },
      embedder: hashEmbedder,
    });
    for (let run = 0; run < 6; run++) {
      const job = longship.addResource(docs(`run${run}`));
      const write = longship.write(`${R}/w${run}.md`, `A concurrent write ${run}.`);
      expect(await longship.verify()).toEqual({ ok: true, problems: [] });
      await Promise.all([job, write]);
      expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    }
    await longship.close();
  });

  it('says "write in flight" when another writer keeps committing while it reads', async () => {
    const raw = await openMemoryStore();
    const longship = await openLongship({ store: raw, embedder: hashEmbedder });
    await longship.write(`${R}/a.md`, 'The river floods every spring.');
    const verify = raw.verify.bind(raw);
    // Another tab, say, committing straight to the store each time verify() reads it.
    raw.verify = async () => {
      await raw.commit({ putRelations: [{ from: `${R}/a.md`, to: R, reason: 'x', createdAt: Date.now() }] });
      return verify();
    };
    const report = await longship.verify();
    expect(report.ok).toBe(false);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatch(/^write in flight/);
    raw.verify = verify;
    expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    await longship.close();
  });
});

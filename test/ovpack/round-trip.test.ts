// Longship → OVPack → Longship (docs/guide/ovpack.md): nodes, layers, meta and lexical documents
// come back as they were; with the vectors carried, find() ranks and scores as before.
import { describe, expect, it } from 'vitest';
import type { Longship } from '../../src/engine.js';
import { expectCode, hashEmbedder } from '../context/fixtures.js';
import { everything, exported, nodesBelow, open } from './fixtures.js';

const P = 'viking://resources/project';

/** A project written with mkdir() and write() only: each record written once, as an import writes it. */
async function written(): Promise<Longship> {
  const longship = await open();
  await longship.mkdir(P, {
    abstract: 'The project',
    overview: 'Notes and docs of the project.',
    meta: { team: 'a' },
  });
  await longship.write(`${P}/notes/today.md`, 'Met Ana about the Q3 plan. Sails arrive Monday.', {
    parents: true,
    meta: { tags: ['q3'], score: 1.5 },
  });
  await longship.write(`${P}/notes/ünïcode name.md`, 'Knots: bowline, clove hitch, sheet bend.');
  await longship.write(`${P}/empty.md`, '', { abstract: 'nothing', overview: 'nothing at all' });
  return longship;
}

/**
 * And a document added: its lexical documents have headings, and its directories were summarised
 * again (so their records were replaced, which BM25's statistics remember: scores then differ).
 */
async function filled(): Promise<Longship> {
  const longship = await written();
  await longship.addResource(
    '# Rigging\n\n## Halyards\n\nHalyards raise sails.\n\n## Sheets\n\nSheets trim them.\n',
    {
      name: 'rigging.md',
      target: `${P}/docs`,
    },
  );
  await longship.waitProcessed();
  return longship;
}

describe('an OVPack round trip', () => {
  it('brings back every node, layer, meta, lexical document and vector', async () => {
    const source = await filled();
    const pack = await exported(source, P, true);
    const target = await open();
    const result = await target.import(pack, 'viking://resources');
    expect(result).toMatchObject({ uri: P, skipped: false, vectors: 'restored' });
    const before = await nodesBelow(source, P);
    expect(before.length).toBe(7);
    expect(before.some((n) => n.posting?.headings !== undefined)).toBe(true);
    expect(await nodesBelow(target, P)).toEqual(before);
    expect(result.nodes).toBe(before.length);
    expect((await target.verify()).ok).toBe(true);
  });

  it('with the vectors carried, find() gives the same results and scores', async () => {
    const source = await written();
    const target = await open();
    await target.import(await exported(source, P, true), 'viking://resources');
    for (const query of ['Q3 plan with Ana', 'halyards and sails', 'knots']) {
      const found = await source.find(query);
      expect(found.resources.length).toBeGreaterThan(0);
      expect(await target.find(query)).toEqual(found);
    }
  });

  it('without vectors, embeds again and still brings back the nodes', async () => {
    const source = await filled();
    const target = await open();
    const result = await target.import(await exported(source, P), 'viking://resources');
    expect(result.vectors).toBe('recomputed');
    const strip = (rows: Awaited<ReturnType<typeof nodesBelow>>) =>
      rows.map(({ node, posting }) => ({ node, posting }));
    expect(strip(await nodesBelow(target, P))).toEqual(strip(await nodesBelow(source, P)));
    expect((await target.find('Q3 plan with Ana')).resources[0]?.uri).toBe(`${P}/notes/today.md`);
  });

  it('imports under another parent, creating it', async () => {
    const source = await filled();
    const target = await open();
    const result = await target.import(await exported(source, P, true), 'viking://resources/archive/2026');
    expect(result.uri).toBe('viking://resources/archive/2026/project');
    expect(await target.read('viking://resources/archive/2026/project/notes/today.md')).toBe(
      'Met Ana about the Q3 plan. Sails arrive Monday.',
    );
  });

  it('exports the same bytes twice', async () => {
    const source = await filled();
    expect(await exported(source, P, true)).toEqual(await exported(source, P, true));
  });
});

describe('import conflicts', () => {
  it('fails with ALREADY_EXISTS, skips, or overwrites, as onConflict says', async () => {
    const source = await filled();
    const pack = await exported(source, P);
    const target = await open();
    await target.write(`${P}/other.md`, 'already here', { parents: true });
    await expectCode(target.import(pack, 'viking://resources'), 'ALREADY_EXISTS');
    expect(await target.import(pack, 'viking://resources', { onConflict: 'skip' })).toMatchObject({
      skipped: true,
    });
    expect(await target.read(`${P}/other.md`)).toBe('already here');
    await target.import(pack, 'viking://resources', { onConflict: 'overwrite' });
    await expectCode(target.read(`${P}/other.md`), 'NOT_FOUND');
    expect(await target.read(`${P}/notes/today.md`)).toContain('Q3 plan');
  });
});

describe('import vectors', () => {
  const other = { ...hashEmbedder, id: 'another-model@1' };

  it("'require' fails without vectors (INVALID_ARGUMENT) and from another embedder (EMBEDDER_MISMATCH)", async () => {
    const source = await filled();
    const target = await open(other);
    await expectCode(
      target.import(await exported(source, P), 'viking://resources', { vectors: 'require' }),
      'INVALID_ARGUMENT',
    );
    const withVectors = await exported(source, P, true);
    await expectCode(
      target.import(withVectors, 'viking://resources', { vectors: 'require' }),
      'EMBEDDER_MISMATCH',
    );
    expect(await target.store.node(P)).toBeUndefined();
    expect(await target.import(withVectors, 'viking://resources')).toMatchObject({ vectors: 'recomputed' });
  });

  it("'recompute' embeds again even when the vectors fit", async () => {
    const source = await filled();
    const target = await open();
    const result = await target.import(await exported(source, P, true), 'viking://resources', {
      vectors: 'recompute',
    });
    expect(result.vectors).toBe('recomputed');
  });
});

describe('export', () => {
  it('refuses a missing node, a file, a root, and unknown options', async () => {
    const longship = await filled();
    await expectCode(longship.export(`${P}/nothing`), 'NOT_FOUND');
    await expectCode(longship.export(`${P}/empty.md`), 'NOT_A_DIRECTORY');
    await expectCode(longship.export('viking://resources'), 'INVALID_ARGUMENT');
    await expectCode(longship.export(P, { vectors: true } as never), 'INVALID_ARGUMENT');
    await expectCode(
      longship.import(new Uint8Array(), 'viking://resources', { force: true } as never),
      'INVALID_ARGUMENT',
    );
  });
});

describe('an import that fails while it writes', () => {
  it('takes back what it wrote: the store is as it was', async () => {
    const source = await written();
    const pack = await exported(source, P);
    let calls = 0;
    let armed = false;
    const failing = {
      id: hashEmbedder.id,
      dimensions: hashEmbedder.dimensions,
      async embed(texts: readonly string[]) {
        // The parents made, then the pack's directories (one commit), then its files: that one fails.
        if (armed && ++calls === 3) throw new Error('the model went away');
        return hashEmbedder.embed(texts);
      },
    };
    const target = await open(failing);
    const before = await everything(target);
    armed = true;
    await expect(target.import(pack, 'viking://resources/archive/2026')).rejects.toThrow(
      'the model went away',
    );
    expect(calls).toBe(3);
    // Gone too: the parents it made (archive, archive/2026).
    expect(await everything(target)).toEqual({ ...before, meta: expect.anything() });
  });

  it('that fails at its first commit, keeps the directory it would overwrite', async () => {
    const pack = await exported(await written(), P);
    let armed = false;
    const failing = {
      id: hashEmbedder.id,
      dimensions: hashEmbedder.dimensions,
      async embed(texts: readonly string[]) {
        if (armed) throw new Error('the model went away');
        return hashEmbedder.embed(texts);
      },
    };
    const target = await open(failing);
    await target.write(`${P}/other.md`, 'already here', { parents: true });
    armed = true;
    const overwrite = target.import(pack, 'viking://resources', { onConflict: 'overwrite' });
    await expect(overwrite).rejects.toThrow('the model went away');
    expect(await target.read(`${P}/other.md`)).toBe('already here');
  });

  it('stops on an aborted signal, having written nothing', async () => {
    const source = await written();
    const target = await open();
    const before = await everything(target);
    const signal = AbortSignal.abort(new Error('stop'));
    await expectCode(target.import(await exported(source, P), 'viking://resources', { signal }), 'ABORTED');
    expect(await everything(target)).toEqual(before);
    const stream = await source.export(P, { signal });
    await expectCode(new Response(stream).arrayBuffer(), 'ABORTED');
  });
});

// Packs as OpenViking makes and checks them (docs/guide/ovpack.md): one built here to its format
// imports; one Longship exports passes its checks, re-done here field by field.
import { describe, expect, it } from 'vitest';
import { exported, membersOf, open, openVikingPack, pythonJson, sha256 } from './fixtures.js';

const P = 'viking://resources/project';

describe('an OpenViking pack', () => {
  it('imports, its files read as Longship nodes', async () => {
    const longship = await open();
    const pack = openVikingPack('pkg', {
      'content.md': '# Demo\n',
      'docs/guide.md': 'Hoist the main sail first.',
    });
    // The pack lists no directory `docs`: OpenViking's import makes it, as the file's parent.
    const result = await longship.import(pack, 'viking://resources');
    expect(result).toMatchObject({ uri: 'viking://resources/pkg', nodes: 4, vectors: 'recomputed' });
    expect(await longship.read('viking://resources/pkg/content.md')).toBe('# Demo\n');
    expect((await longship.stat('viking://resources/pkg/docs')).kind).toBe('dir');
    expect((await longship.stat('viking://resources/pkg/docs/guide.md')).abstract).toBe(
      'Hoist the main sail first.',
    );
    expect((await longship.find('main sail')).resources[0]?.uri).toBe('viking://resources/pkg/docs/guide.md');
  });
});

describe('an OpenViking pack with index records and summaries', () => {
  it('gives its nodes the L0 and L1 the pack holds', async () => {
    const longship = await open();
    const pack = openVikingPack(
      'pkg',
      { '.overview.md': 'Everything about the demo.', 'notes.txt': 'hello' },
      [
        {
          record_id: 'r000001',
          path: '',
          kind: 'directory',
          level: 0,
          text: 'root abstract',
          scalars: { abstract: 'root abstract', context_type: 'resource', level: 0 },
        },
        {
          record_id: 'r000002',
          path: 'notes.txt',
          kind: 'file',
          level: 2,
          scalars: { abstract: 'note summary', tags: 'demo' },
        },
      ],
    );
    expect((await longship.import(pack, 'viking://resources')).nodes).toBe(2);
    expect(await longship.abstract('viking://resources/pkg')).toBe('root abstract');
    expect(await longship.overview('viking://resources/pkg')).toBe('Everything about the demo.');
    expect(await longship.abstract('viking://resources/pkg/notes.txt')).toBe('note summary');
    expect(await longship.read('viking://resources/pkg/notes.txt')).toBe('hello');
  });
});

describe('a pack Longship exports', () => {
  it('passes OpenViking’s checks', async () => {
    const longship = await open();
    await longship.mkdir(P, { abstract: 'The project', overview: 'All of it.' });
    await longship.write(`${P}/notes/today.md`, 'Met Ana about the Q3 plan.', { parents: true });
    const members = membersOf(await exported(longship, P, true));
    const names = members.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name.startsWith('project/')).toBe(true);
      expect(name).not.toMatch(/\\|^\/|(^|\/)\.\.?(\/|$)|^[A-Za-z]:/);
    }
    const file = (name: string) => members.find(([n]) => n === `project/${name}`)![1];
    const manifest = JSON.parse(new TextDecoder().decode(file('_ovpack/manifest.json')));
    expect(manifest).toMatchObject({
      kind: 'openviking.ovpack',
      format_version: 3,
      root: { name: 'project', uri: P, scope: 'resources' },
    });
    // The manifest's files and directories are exactly the ZIP's under files/.
    const content = names
      .filter((n) => n.startsWith('project/files/'))
      .map((n) => n.slice('project/files/'.length));
    const listed = manifest.entries.map((e: { path: string; kind: string }) =>
      e.kind === 'directory' && e.path ? `${e.path}/` : e.path,
    );
    expect([...listed].sort()).toEqual([...content].sort());
    expect(listed).toContain('.abstract.md');
    expect(listed).toContain('notes/today.md');
    const files = manifest.entries.filter((e: { kind: string }) => e.kind === 'file');
    for (const entry of files) {
      expect(entry.size).toBe(file(`files/${entry.path}`).length);
      expect(entry.sha256).toBe(sha256(file(`files/${entry.path}`)));
    }
    const inventory = files
      .map(({ path, size, sha256 }: Record<string, unknown>) => ({ path, size, sha256 }))
      .sort((a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1));
    expect(manifest.content_sha256).toBe(sha256(pythonJson(inventory)));
    const recordBytes = file('_ovpack/index_records.jsonl');
    expect(manifest.index.records).toEqual({
      path: '_ovpack/index_records.jsonl',
      count: 4,
      sha256: sha256(recordBytes),
    });
    const lines = new TextDecoder().decode(recordBytes).trimEnd().split('\n');
    const records = lines.map((line) => JSON.parse(line));
    expect(lines).toEqual(records.map(pythonJson));
    expect(records.map((r) => [r.path, r.kind, r.level])).toEqual([
      ['', 'directory', 0],
      ['', 'directory', 1],
      ['notes', 'directory', 0],
      ['notes/today.md', 'file', 2],
    ]);
    const dense = file('_ovpack/dense.f32');
    const refs = records.filter((r) => r.vector).map((r) => r.vector.dense);
    expect(manifest.index.dense).toMatchObject({
      path: '_ovpack/dense.f32',
      count: refs.length,
      dtype: 'float32',
      byte_order: 'little',
      dimensions: longship.embedder.dimensions,
      sha256: sha256(dense),
      embedding: {
        provider: 'longship',
        model: longship.embedder.id,
        dimensions: longship.embedder.dimensions,
      },
    });
    expect(refs.map((r) => r.offset)).toEqual(refs.map((_, i) => i * longship.embedder.dimensions));
    expect(dense.length).toBe(refs.length * longship.embedder.dimensions * 4);
  });
});

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isWithin, parentOf, type VikingUri } from '../../src/context/uri.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import { embedderInfo, expectCode, hashEmbedder, openParts, uriOfVector } from './fixtures.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const R = 'viking://resources';

async function fresh() {
  return openParts(await openMemoryStore({ embedder: embedderInfo }), usearch);
}

async function nearest(parts: Awaited<ReturnType<typeof fresh>>, text: string, k = 3): Promise<string[]> {
  const [query] = await hashEmbedder.embed([text]);
  const hits = parts.indexes.vectors.search(query!, k);
  return Promise.all(hits.map((hit) => uriOfVector(parts.store, hit.key)));
}

describe('roots', () => {
  it('are created on open, once', async () => {
    const parts = await fresh();
    const { tree, store } = parts;
    expect((await tree.ls('viking://')).map((n) => n.uri)).toEqual([
      'viking://resources',
      'viking://user',
      'viking://agent',
    ]);
    expect((await tree.ls('viking://user')).map((n) => n.name)).toEqual(['default']);
    expect((await tree.ls('viking://user/default')).map((n) => n.name)).toEqual(['memories']);
    expect((await tree.ls('viking://agent')).map((n) => n.name)).toEqual(['default', 'skills']);
    expect((await tree.stat('viking://agent/skills')).contextType).toBe('skill');
    const seq = (await store.meta()).seq;
    await openParts(store, usearch);
    expect((await store.meta()).seq).toBe(seq);
    expect((await parts.indexes.verify()).problems).toEqual([]);
  });

  it('cannot be removed, moved or written over', async () => {
    const { tree } = await fresh();
    await expectCode(tree.rm(R, { recursive: true }), 'INVALID_ARGUMENT');
    await expectCode(tree.rm('viking://user'), 'INVALID_ARGUMENT');
    await expectCode(tree.mv('viking://agent/skills', `${R}/skills`), 'INVALID_ARGUMENT');
    await expectCode(tree.write(R, 'x'), 'IS_A_DIRECTORY');
    await expectCode(tree.mkdir('viking://user/default/memories'), 'ALREADY_EXISTS');
    expect((await tree.mkdir('viking://user/default/memories', { parents: true })).kind).toBe('dir');
  });
});

describe('files and directories', () => {
  it('write, read, stat, abstract and overview', async () => {
    const { tree } = await fresh();
    await tree.mkdir(`${R}/notes`);
    const content = '# Release plan\n\nWe ship version two in March. The beta opens in February.\n';
    const info = await tree.write(`${R}/notes/plan.md`, content, { meta: { author: 'ana' } });
    expect(info).toMatchObject({ uri: `${R}/notes/plan.md`, kind: 'file', contextType: 'resource' });
    expect(await tree.read(`${R}/notes/plan.md`)).toBe(content);
    expect(await tree.abstract(`${R}/notes/plan.md`)).toMatch(/ship version two in March/);
    expect((await tree.overview(`${R}/notes/plan.md`)).length).toBeGreaterThan(0);
    expect((await tree.stat(`${R}/notes/plan.md`)).meta).toEqual({ author: 'ana' });
    expect(await tree.abstract(`${R}/notes`)).toBe('notes');
    expect(await tree.overview(`${R}/notes`)).toBe('notes');
    await expectCode(tree.read(`${R}/notes`), 'IS_A_DIRECTORY');
    await expectCode(tree.read(`${R}/nothing`), 'NOT_FOUND');
    await expectCode(tree.stat(`${R}/nothing`), 'NOT_FOUND');
  });

  it('takes summaries from the caller', async () => {
    const { tree } = await fresh();
    await tree.write(`${R}/a.md`, 'Body text.', { abstract: 'Short.', overview: 'Longer overview.' });
    expect(await tree.abstract(`${R}/a.md`)).toBe('Short.');
    expect(await tree.overview(`${R}/a.md`)).toBe('Longer overview.');
    expect((await tree.stat(`${R}/a.md`)).summaryKind).toBe('llm');
    await tree.mkdir(`${R}/d`, { abstract: 'A directory.', overview: 'What is in it.' });
    expect(await tree.overview(`${R}/d`)).toBe('What is in it.');
  });

  it('refuses what a filesystem refuses, with typed errors', async () => {
    const { tree } = await fresh();
    await tree.write(`${R}/f.md`, 'A file.');
    await tree.mkdir(`${R}/d`);
    await tree.write(`${R}/d/g.md`, 'Another file.');
    await expectCode(tree.mkdir(`${R}/d`), 'ALREADY_EXISTS');
    await expectCode(tree.mkdir(`${R}/f.md`, { parents: true }), 'ALREADY_EXISTS');
    await expectCode(tree.mkdir(`${R}/x/y`), 'NOT_FOUND');
    await expectCode(tree.mkdir(`${R}/f.md/y`), 'NOT_A_DIRECTORY');
    await expectCode(tree.write(`${R}/f.md/y`, 'z', { parents: true }), 'NOT_A_DIRECTORY');
    await expectCode(tree.write(`${R}/x/y.md`, 'z'), 'NOT_FOUND');
    await expectCode(tree.write(`${R}/d`, 'z'), 'IS_A_DIRECTORY');
    await expectCode(tree.ls(`${R}/f.md`), 'NOT_A_DIRECTORY');
    await expectCode(tree.ls(`${R}/x`), 'NOT_FOUND');
    await expectCode(tree.rm(`${R}/d`), 'DIRECTORY_NOT_EMPTY');
    await expectCode(tree.rm(`${R}/x`), 'NOT_FOUND');
    await expectCode(tree.mv(`${R}/d`, `${R}/f.md`), 'ALREADY_EXISTS');
    await expectCode(tree.mv(`${R}/d`, `${R}/d/e`), 'INVALID_ARGUMENT');
    await expectCode(tree.mv(`${R}/x`, `${R}/y`), 'NOT_FOUND');
    await expectCode(tree.mv(`${R}/d`, `${R}/x/y`), 'NOT_FOUND');
    await expectCode(tree.write('viking://elsewhere/a', 'z'), 'INVALID_ARGUMENT');
    await expectCode(tree.mkdir('viking://user/default/notes'), 'INVALID_ARGUMENT');
    await expectCode(tree.mkdir('viking://user/memories/notes'), 'INVALID_URI');
    await expectCode(tree.write(`${R}/../a`, 'z'), 'INVALID_URI');
  });

  it('creates missing parents when asked', async () => {
    const { tree, indexes } = await fresh();
    await tree.write(`${R}/a/b/c.md`, 'Deep.', { parents: true });
    await tree.mkdir(`${R}/x/y/z`, { parents: true });
    expect((await tree.stat(`${R}/a/b`)).kind).toBe('dir');
    expect((await tree.ls(`${R}/x/y`)).map((n) => n.name)).toEqual(['z']);
    expect((await indexes.verify()).problems).toEqual([]);
  });

  it('overwriting a file keeps its key and creation time and replaces its vectors', async () => {
    const parts = await fresh();
    const { tree, store, indexes } = parts;
    await tree.write(`${R}/a.md`, 'Apples and pears grow in the orchard.');
    const before = (await store.node(`${R}/a.md`))!;
    const long = Array.from({ length: 60 }, (_, i) => `Sentence ${i} talks about submarines and sonar.`).join(
      ' ',
    );
    await tree.write(`${R}/a.md`, long);
    const after = (await store.node(`${R}/a.md`))!;
    expect(after.key).toBe(before.key);
    expect(after.createdAt).toBe(before.createdAt);
    const vectors = await store.vectorsOfNode(after.key);
    expect(vectors.length).toBeGreaterThan(1);
    expect(vectors.map((v) => v.chunk)).toEqual(vectors.map((_, i) => i));
    expect(await nearest(parts, 'submarines sonar', 1)).toEqual([`${R}/a.md`]);
    expect(indexes.lexical.search('orchard')).toEqual([]);
    expect(indexes.lexical.search('submarines')[0]!.key).toBe(after.key);
    expect((await indexes.verify()).problems).toEqual([]);
  });

  it('concurrent writes all land, and the indexes follow each', async () => {
    const { tree, indexes } = await fresh();
    const topics = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
    // Each checks for the missing parent inside the tree's lock: the first creates it, the rest find it.
    await Promise.all(
      topics.map((topic) => tree.write(`${R}/shared/${topic}.md`, `All about ${topic}.`, { parents: true })),
    );
    expect((await tree.ls(`${R}/shared`)).map((n) => n.name)).toEqual(topics.map((t) => `${t}.md`));
    for (const topic of topics) expect(indexes.lexical.search(topic)).toHaveLength(1);
    expect((await indexes.verify()).problems).toEqual([]);
  });

  it('ls and tree list children by URI, tree down to a depth', async () => {
    const { tree } = await fresh();
    await tree.write(`${R}/b/x.md`, 'x', { parents: true });
    await tree.write(`${R}/b/c/y.md`, 'y', { parents: true });
    await tree.write(`${R}/a.md`, 'a');
    expect((await tree.ls(R)).map((n) => [n.name, n.kind])).toEqual([
      ['a.md', 'file'],
      ['b', 'dir'],
    ]);
    const shallow = await tree.tree(R, { depth: 1 });
    expect(shallow.map((n) => n.name)).toEqual(['a.md', 'b']);
    expect(shallow[1]!.children).toBeUndefined();
    const deep = await tree.tree(R, { depth: 5 });
    expect(deep[1]!.children!.map((n) => n.name)).toEqual(['c', 'x.md']);
    expect(deep[1]!.children![0]!.children!.map((n) => n.uri)).toEqual([`${R}/b/c/y.md`]);
    const all = await tree.tree('viking://', { depth: 2 });
    expect(all.map((n) => n.name)).toEqual(['resources', 'user', 'agent']);
    expect(all[0]!.children!.map((n) => n.name)).toEqual(['a.md', 'b']);
    expect(all[0]!.children![1]!.children).toBeUndefined();
  });
});

describe('rm and mv', () => {
  it('rm removes a subtree with its vectors, postings and relations, in one commit', async () => {
    const parts = await fresh();
    const { tree, store, indexes } = parts;
    await tree.write(`${R}/d/e/f.md`, 'Zebras live on the savanna.', { parents: true });
    await tree.write(`${R}/g.md`, 'Giraffes too.');
    await tree.link(`${R}/g.md`, `${R}/d/e/f.md`, 'same habitat');
    const vectorsBefore = indexes.vectors.size;
    const seq = (await store.meta()).seq;
    expect(await tree.rm(`${R}/d`, { recursive: true })).toBe(3);
    expect((await store.meta()).seq).toBe(seq + 1);
    expect(indexes.vectors.size).toBe(vectorsBefore - 3);
    expect(indexes.lexical.search('zebras savanna')).toEqual([]);
    expect(await tree.relations(`${R}/g.md`)).toEqual([]);
    expect(await tree.glob('**', { uri: R })).toEqual([`${R}/g.md`]);
    expect(await tree.rm(`${R}/g.md`)).toBe(1);
    expect((await indexes.verify()).problems).toEqual([]);
  });

  it('mv moves a subtree: same keys and vectors, children and relations follow, in one commit', async () => {
    const parts = await fresh();
    const { tree, store, indexes } = parts;
    await tree.write(`${R}/old/inner/deep.md`, 'Volcanoes erupt with lava and ash.', { parents: true });
    await tree.write(`${R}/old/top.md`, 'Glaciers carve valleys.');
    await tree.write(`${R}/other.md`, 'Rivers meet the sea.');
    await tree.link(`${R}/other.md`, `${R}/old/top.md`, 'landforms');
    await tree.link(`${R}/old/inner/deep.md`, `${R}/old/top.md`, 'geology');
    const keyBefore = (await store.node(`${R}/old/inner/deep.md`))!.key;
    const vectorsBefore = await store.vectorsOfNode(keyBefore);
    const seq = (await store.meta()).seq;

    const moved = await tree.mv(`${R}/old`, 'viking://user/default/memories/new');
    expect(moved).toMatchObject({
      uri: 'viking://user/default/memories/new',
      name: 'new',
      contextType: 'memory',
    });
    expect((await store.meta()).seq).toBe(seq + 1);
    await expectCode(tree.stat(`${R}/old`), 'NOT_FOUND');
    const deep = (await store.node('viking://user/default/memories/new/inner/deep.md'))!;
    expect(deep).toMatchObject({
      key: keyBefore,
      parent: 'viking://user/default/memories/new/inner',
      contextType: 'memory',
    });
    expect(await store.vectorsOfNode(deep.key)).toEqual(vectorsBefore);
    expect(
      (await tree.relations('viking://user/default/memories/new/top.md')).map((r) => [
        r.from,
        r.to,
        r.reason,
      ]),
    ).toEqual([
      ['viking://resources/other.md', 'viking://user/default/memories/new/top.md', 'landforms'],
      [
        'viking://user/default/memories/new/inner/deep.md',
        'viking://user/default/memories/new/top.md',
        'geology',
      ],
    ]);
    expect(await nearest(parts, 'volcanoes lava ash', 1)).toEqual([
      'viking://user/default/memories/new/inner/deep.md',
    ]);
    expect(indexes.lexical.search('volcanoes')[0]!.key).toBe(keyBefore);
    expect(await tree.glob('viking://user/default/memories/**')).toEqual([
      'viking://user/default/memories/new',
      'viking://user/default/memories/new/inner',
      'viking://user/default/memories/new/inner/deep.md',
      'viking://user/default/memories/new/top.md',
    ]);
    expect((await indexes.verify()).problems).toEqual([]);
  });

  it('mv renames a file and its posting title', async () => {
    const { tree, store, indexes } = await fresh();
    await tree.write(`${R}/draft.md`, 'Body.');
    await tree.mv(`${R}/draft.md`, `${R}/final.md`);
    const node = (await store.node(`${R}/final.md`))!;
    expect((await store.posting(node.key))!.title).toBe('final.md');
    expect(indexes.lexical.search('final')[0]!.key).toBe(node.key);
  });
});

describe('grep, glob and relations', () => {
  it('grep finds lines by substring or RegExp, within a subtree', async () => {
    const { tree } = await fresh();
    await tree.write(`${R}/a/one.md`, 'first line\nERR_TIMEOUT happened\nlast', { parents: true });
    await tree.write(`${R}/b.md`, 'err_timeout in lower case\nand ERR_TIMEOUT again');
    expect(await tree.grep('ERR_TIMEOUT')).toEqual([
      { uri: `${R}/a/one.md`, line: 2, text: 'ERR_TIMEOUT happened' },
      { uri: `${R}/b.md`, line: 2, text: 'and ERR_TIMEOUT again' },
    ]);
    expect((await tree.grep('err_timeout', { ignoreCase: true })).length).toBe(3);
    expect((await tree.grep(/^ERR_\w+/g, { uri: `${R}/a` })).map((m) => m.line)).toEqual([2]);
    expect(await tree.grep('ERR', { uri: `${R}/b.md`, limit: 1 })).toHaveLength(1);
    await expectCode(tree.grep('x', { uri: `${R}/none` }), 'NOT_FOUND');
  });

  it('glob matches *, ? and ** over URIs', async () => {
    const { tree } = await fresh();
    for (const path of ['a.md', 'b.txt', 'd/c.md', 'd/e/f.md', 'd/e/g.txt', 'x (1).md']) {
      await tree.write(`${R}/${path}`, path, { parents: true });
    }
    expect(await tree.glob('*.md', { uri: R })).toEqual([`${R}/a.md`, `${R}/x (1).md`]);
    expect(await tree.glob('**/*.md', { uri: R })).toEqual([
      `${R}/a.md`,
      `${R}/d/c.md`,
      `${R}/d/e/f.md`,
      `${R}/x (1).md`,
    ]);
    expect(await tree.glob('d/*/?.txt', { uri: R })).toEqual([`${R}/d/e/g.txt`]);
    expect(await tree.glob('d/**', { uri: R })).toEqual([
      `${R}/d/c.md`,
      `${R}/d/e`,
      `${R}/d/e/f.md`,
      `${R}/d/e/g.txt`,
    ]);
    expect(await tree.glob('viking://resources/d/e')).toEqual([`${R}/d/e`]);
    expect(await tree.glob('viking://*/skills')).toEqual(['viking://agent/skills']);
    expect(await tree.glob('nothing/**', { uri: R })).toEqual([]);
  });

  it('link, relations and unlink', async () => {
    const { tree } = await fresh();
    await tree.write(`${R}/a.md`, 'a');
    await tree.write(`${R}/b.md`, 'b');
    await tree.link(`${R}/a.md`, `${R}/b.md`, 'cites');
    await tree.link(`${R}/a.md`, `${R}/b.md`, 'cites, page 3');
    expect((await tree.relations(`${R}/b.md`)).map((r) => [r.from, r.to, r.reason])).toEqual([
      [`${R}/a.md`, `${R}/b.md`, 'cites, page 3'],
    ]);
    await expectCode(tree.link(`${R}/a.md`, `${R}/none.md`, 'x'), 'NOT_FOUND');
    await expectCode(tree.link(`${R}/a.md`, `${R}/a.md`, 'x'), 'INVALID_ARGUMENT');
    await expectCode(tree.relations(`${R}/none.md`), 'NOT_FOUND');
    expect(await tree.unlink(`${R}/b.md`, `${R}/a.md`)).toBe(false);
    expect(await tree.unlink(`${R}/a.md`, `${R}/b.md`)).toBe(true);
    expect(await tree.relations(`${R}/a.md`)).toEqual([]);
  });
});

// A model of the filesystem: URI → kind and content. Random operations run on both; the tree must
// fail exactly where the model says, and agree with it (and with its own indexes) afterwards.
type Model = Map<string, { kind: 'dir' | 'file'; content?: string }>;
const NAMES = ['a', 'b', 'c.md', 'd.txt'];
const TEXTS = ['Cats purr.', 'Dogs bark loudly.', 'Birds sing at dawn. They fly south.', ''];
const PARENT_ROOTS = [
  'viking://resources',
  'viking://user/default/memories',
  'viking://agent/default/memories',
  'viking://agent/skills',
];
/** The directories above the roots: created on open, never listed by the model. */
const CONTAINERS = ['viking://user', 'viking://user/default', 'viking://agent', 'viking://agent/default'];

const operation = fc.oneof(
  fc.record({ op: fc.constant('mkdir' as const), parent: fc.nat(), name: fc.constantFrom(...NAMES) }),
  fc.record({
    op: fc.constant('write' as const),
    parent: fc.nat(),
    name: fc.constantFrom(...NAMES),
    text: fc.constantFrom(...TEXTS),
  }),
  fc.record({ op: fc.constant('rm' as const), target: fc.nat(), recursive: fc.boolean() }),
  fc.record({
    op: fc.constant('mv' as const),
    target: fc.nat(),
    parent: fc.nat(),
    name: fc.constantFrom(...NAMES),
  }),
);

describe('against a model', () => {
  it('random mkdir/write/rm/mv keep verify() ok and ls/tree equal to the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 25 }), async (operations) => {
        const { tree, indexes } = await fresh();
        const model: Model = new Map(PARENT_ROOTS.map((uri) => [uri, { kind: 'dir' }]));
        const sorted = (kind?: 'dir') =>
          [...model.keys()].filter((uri) => !kind || model.get(uri)!.kind === kind).sort();
        const movable = () => sorted().filter((uri) => !PARENT_ROOTS.includes(uri));
        const pick = <T>(list: T[], n: number) => list[n % list.length];
        const expectOutcome = async (promise: Promise<unknown>, code: string | undefined) => {
          if (code) await expectCode(promise, code);
          else await promise;
        };

        for (const o of operations) {
          if (o.op === 'mkdir' || o.op === 'write') {
            const uri = `${pick(sorted('dir'), o.parent)}/${o.name}`;
            const found = model.get(uri);
            if (o.op === 'mkdir') {
              await expectOutcome(tree.mkdir(uri), found ? 'ALREADY_EXISTS' : undefined);
              if (!found) model.set(uri, { kind: 'dir' });
            } else {
              await expectOutcome(
                tree.write(uri, o.text),
                found?.kind === 'dir' ? 'IS_A_DIRECTORY' : undefined,
              );
              if (found?.kind !== 'dir') model.set(uri, { kind: 'file', content: o.text });
            }
          } else if (o.op === 'rm') {
            const uri = pick(movable(), o.target);
            if (!uri) continue;
            const below = sorted().filter((other) => isWithin(other as VikingUri, uri as VikingUri));
            const refused = below.length > 1 && !o.recursive;
            await expectOutcome(
              tree.rm(uri, { recursive: o.recursive }),
              refused ? 'DIRECTORY_NOT_EMPTY' : undefined,
            );
            if (!refused) for (const other of below) model.delete(other);
          } else {
            const from = pick(movable(), o.target);
            if (!from) continue;
            const to = `${pick(sorted('dir'), o.parent)}/${o.name}`;
            const code = isWithin(to as VikingUri, from as VikingUri)
              ? 'INVALID_ARGUMENT'
              : model.has(to)
                ? 'ALREADY_EXISTS'
                : undefined;
            await expectOutcome(tree.mv(from, to), code);
            if (!code) {
              for (const uri of sorted().filter((other) => isWithin(other as VikingUri, from as VikingUri))) {
                model.set(to + uri.slice(from.length), model.get(uri)!);
                model.delete(uri);
              }
            }
          }
        }

        const report = await indexes.verify();
        expect(report.problems).toEqual([]);
        for (const dir of sorted('dir')) {
          const children = sorted().filter((uri) => parentOf(uri as VikingUri) === dir);
          expect((await tree.ls(dir)).map((n) => n.uri)).toEqual(children);
        }
        for (const [uri, node] of model)
          if (node.kind === 'file') expect(await tree.read(uri)).toBe(node.content);
        const flatten = (nodes: Awaited<ReturnType<typeof tree.tree>>): string[] =>
          nodes.flatMap((n) => [n.uri, ...flatten(n.children ?? [])]);
        const listed = flatten(await tree.tree('viking://', { depth: 64 }));
        expect(listed.filter((uri) => !CONTAINERS.includes(uri)).sort()).toEqual(sorted());
        // Every node but the roots has one vector (short contents are one chunk); every node a posting.
        expect(indexes.vectors.size).toBe(model.size - PARENT_ROOTS.length);
        expect(indexes.lexical.size).toBe(model.size + CONTAINERS.length);
      }),
      { numRuns: 60 },
    );
  });
});

// find() over a node catalogue (what the engine passes) must give exactly what it gives reading
// the scope from the store, without reading a node record; and the engine's catalogue follows writes.
import { beforeAll, describe, expect, it } from 'vitest';
import { NodeCatalogue } from '../../src/derived/node-catalogue.js';
import { indexesOf, openLongship } from '../../src/engine.js';
import { createRetriever, find } from '../../src/retrieve/retriever.js';
import { loadScope, resolveRoots } from '../../src/retrieve/scope.js';
import type { FindOptions } from '../../src/retrieve/settings.js';
import type { RetrievalSources } from '../../src/retrieve/sources.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { embedderInfo, hashEmbedder } from '../context/fixtures.js';
import { corpus } from './corpus.js';
import { buildTree, type Tree } from './fixture.js';

let tree: Tree;
let catalogue: NodeCatalogue;
beforeAll(async () => {
  tree = await buildTree(corpus, {
    relations: [
      ['viking://resources/docs/networking/retries.md', 'viking://resources/docs/errors/handling.md', 'r'],
    ],
  });
  catalogue = new NodeCatalogue();
  for await (const rows of tree.store.scan('nodes')) for (const node of rows) catalogue.set(node);
});

/** The sources with the store's node reads counted. */
function counting(sources: RetrievalSources, reads: { count: number }): RetrievalSources {
  const { store } = sources;
  return {
    ...sources,
    store: {
      meta: () => store.meta(),
      relations: (uri) => store.relations(uri),
      vectorsOfNode: (key) => store.vectorsOfNode(key),
      node: (uri) => {
        reads.count++;
        return store.node(uri);
      },
      descendants: (uri) => {
        reads.count++;
        return store.descendants(uri);
      },
    },
  };
}

const cases: [string, FindOptions][] = [
  ['retry failed requests with backoff', { mode: 'quick' }],
  ['retry failed requests with backoff', { mode: 'thinking', trace: true }],
  ['error codes', { mode: 'thinking', targetUri: 'viking://resources/docs' }],
  ['error codes', { mode: 'quick', targetUri: 'viking://resources/docs/errors/handling.md' }],
  ['preferences', { filter: { contextType: ['memory', 'skill'] } }],
  ['timeouts proxies', { filter: { kind: 'file' }, hotness: 0.3 }],
];

describe('a scope from the node catalogue', () => {
  it.each(cases)('gives the same results as one read from the store: %s %j', async (query, options) => {
    const fromStore = await find(tree.sources, query, { ...options, hotness: options.hotness ?? 0 });
    const reads = { count: 0 };
    const sources = { ...counting(tree.sources, reads), nodes: catalogue };
    const fromCatalogue = await find(sources, query, { ...options, hotness: options.hotness ?? 0 });
    expect(fromStore.total).toBeGreaterThan(0);
    const { trace: a, ...restA } = fromStore;
    const { trace: b, ...restB } = fromCatalogue;
    expect(restB).toEqual(restA);
    expect(b && { ...b, elapsedMs: 0 }).toEqual(a && { ...a, elapsedMs: 0 });
    // Relations' abstracts read a node each, and the calibration the first result's text when the
    // similarity alone does not settle it; the scope itself reads none.
    const related = [...restA.resources, ...restA.memories, ...restA.skills].reduce(
      (n, r) => n + r.relations.length,
      0,
    );
    expect(reads.count - related).toBeGreaterThanOrEqual(0);
    expect(reads.count - related).toBeLessThanOrEqual(1);
  });

  it('is read again when the catalogue changes, and only then', async () => {
    const own = new NodeCatalogue();
    for (const node of catalogue.all()) own.set({ ...node });
    const retriever = createRetriever({ ...tree.sources, nodes: own });
    const query = 'retry failed requests with backoff';
    const first = await retriever.find(query, { mode: 'quick' });
    expect(first.resources[0]!.uri).toBe('viking://resources/docs/networking/retries.md');
    // A node gone from the catalogue is gone from the next scope (the indexes still hold it).
    own.delete(own.node('viking://resources/docs/networking/retries.md')!.key);
    const second = await retriever.find(query, { mode: 'quick' });
    expect(second.resources.map((r) => r.uri)).not.toContain('viking://resources/docs/networking/retries.md');
  });
});

describe('a scope after nodes are replaced in place', () => {
  it('swaps them in, giving what a scope loaded afresh gives, without reading the catalogue again', async () => {
    const own = new NodeCatalogue();
    for (const node of catalogue.all()) own.set({ ...node });
    let belowCalls = 0;
    const counted = {
      get version() {
        return own.version;
      },
      get size() {
        return own.size;
      },
      node: (uri: string) => own.node(uri),
      all: () => own.all(),
      replacedSince: (version: number) => own.replacedSince(version),
      below: (uri: string) => {
        belowCalls++;
        return own.below(uri);
      },
    };
    const sources = { ...tree.sources, nodes: counted };
    const retriever = createRetriever(sources);
    const options: FindOptions = { mode: 'thinking', hotness: { weight: 0.5, now: Date.UTC(2025, 0, 2) } };
    const query = 'request timeouts';
    const before = await retriever.find(query, options);
    const calls = belowCalls;
    // Heavy use of the second result, and new metadata on a directory: both in place.
    const used = own.node(before.resources[1]!.uri)!;
    own.set({ ...used, useCount: 40, lastUsedAt: Date.UTC(2025, 0, 2) });
    const dir = own.node('viking://resources/docs/networking')!;
    own.set({ ...dir, meta: { reviewed: true } });
    const after = await retriever.find(query, options);
    expect(belowCalls).toBe(calls);
    expect(after).toEqual(await find(sources, query, options));
    expect(after.resources[0]!.uri).toBe(used.uri);
    expect((await retriever.find(query, { ...options, filter: { meta: { reviewed: true } } })).total).toBe(1);
    // A move is not in place: the scope is loaded again.
    own.set({ ...used, uri: `${used.uri}-moved` });
    await retriever.find(query, options);
    expect(belowCalls).toBeGreaterThan(calls);
  });
});

describe('the engine', () => {
  it('finds through its catalogue, which follows writes, uses, moves and removals', async () => {
    const store = await openMemoryStore({ embedder: embedderInfo });
    const longship = await openLongship({ store, embedder: hashEmbedder });
    const R = 'viking://resources/notes';
    await longship.write(`${R}/river.md`, 'The river floods every spring.', { parents: true });
    await longship.write(`${R}/lake.md`, 'The lake freezes in winter.');
    expect((await longship.find('river floods')).resources[0]!.uri).toBe(`${R}/river.md`);

    const before = indexesOf(longship).nodes.node(`${R}/river.md`)!;
    await longship.session('s').used([`${R}/river.md`]);
    const after = indexesOf(longship).nodes.node(`${R}/river.md`)!;
    expect(after.useCount).toBe(before.useCount + 1);
    expect(after.lastUsedAt).toBeGreaterThan(0);

    await longship.mv(`${R}/river.md`, `${R}/stream.md`);
    const moved = await longship.find('river floods');
    expect(moved.resources[0]!.uri).toBe(`${R}/stream.md`);
    expect(indexesOf(longship).nodes.node(`${R}/river.md`)).toBeUndefined();

    await longship.rm(`${R}/stream.md`);
    const gone = await longship.find('river floods');
    expect(gone.resources.map((r) => r.uri)).not.toContain(`${R}/stream.md`);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});

describe('a scope of every node', () => {
  it('counts its vectors from the index, as a walk over its nodes would, and concatenates its roots in order', async () => {
    const sources = { ...tree.sources, nodes: catalogue };
    const scope = await loadScope(sources, resolveRoots(undefined, undefined));
    // Every node is below a root: the count comes from the index, less the roots' own vectors.
    expect(scope.nodes.length + scope.roots.length).toBe(catalogue.size);
    let walked = 0;
    for (const node of scope.nodes) walked += scope.vectorKeys(node.key).length;
    expect(walked).toBeGreaterThan(0);
    expect(scope.vectorCount).toBe(walked);
    // More than one root holds nodes here: root by root, each by URI.
    const rootsOf = scope.nodes.map((node) =>
      scope.roots.findIndex((root) => node.uri.startsWith(`${root.uri}/`)),
    );
    expect(new Set(rootsOf).size).toBeGreaterThan(1);
    expect(rootsOf).toEqual([...rootsOf].sort((a, b) => a - b));
    // A subtree is counted node by node, the same way.
    const docs = await loadScope(sources, resolveRoots('viking://resources/docs', undefined));
    let inDocs = 0;
    for (const node of docs.nodes) inDocs += docs.vectorKeys(node.key).length;
    expect(docs.vectorCount).toBe(inDocs);
  });

  it("counts a file's scope node by node, however few other nodes the catalogue holds", async () => {
    const file = 'viking://resources/docs/errors/handling.md';
    const small = new NodeCatalogue();
    for (const uri of [
      'viking://resources',
      'viking://resources/docs',
      'viking://resources/docs/errors',
      file,
    ]) {
      small.set((await tree.store.node(uri))!);
    }
    // One node more: the file twice (as root and as scope), its three directories and this one add up.
    const other = catalogue.all().find((node) => node.kind === 'file' && node.uri !== file)!;
    small.set((await tree.store.node(other.uri))!);
    const scope = await loadScope({ ...tree.sources, nodes: small }, resolveRoots(file, undefined));
    expect(scope.nodes.map((node) => node.uri)).toEqual([file]);
    expect(scope.vectorCount).toBe(scope.vectorKeys(scope.nodes[0]!.key).length);
  });

  it('counts from the index in a store whose roots have directories above them, as every store has', async () => {
    const store = await openMemoryStore({ embedder: embedderInfo });
    const longship = await openLongship({ store, embedder: hashEmbedder });
    await longship.write('viking://resources/notes/river.md', 'The river floods every spring.', {
      parents: true,
    });
    await longship.write('viking://user/default/memories/lake.md', 'The lake freezes in winter.', {
      parents: true,
    });
    await longship.write('viking://agent/skills/swim.md', 'Swim across the lake.', { parents: true });
    // A vector on a directory above a root: the index holds it, the scope does not.
    const user = indexesOf(longship).nodes.node('viking://user')!;
    const [vector] = await hashEmbedder.embed(['user']);
    const key = await indexesOf(longship).store.allocateKeys(1);
    await indexesOf(longship).store.commit({
      putVectors: [{ key, nodeKey: user.key, chunk: 0, vector: vector! }],
    });
    expect(indexesOf(longship).vectorCountOfNode(user.key)).toBe(1);
    const indexes = indexesOf(longship);
    let counted = 0;
    const sources: RetrievalSources = {
      store: indexes.store,
      vectors: indexes.vectors,
      lexical: indexes.lexical,
      nodes: indexes.nodes,
      embedder: hashEmbedder,
      vectorKeyToNodeKey: (key) => indexes.nodeOfVector(key),
      vectorKeysOfNode: (key) => indexes.vectorKeysOfNode(key),
      vectorCountOfNode: (key) => {
        counted++;
        return indexes.vectorCountOfNode(key);
      },
    };
    const scope = await loadScope(sources, resolveRoots(undefined, undefined));
    expect(scope.nodes.length + scope.roots.length).toBeLessThan(indexes.nodes.size);
    let walked = 0;
    for (const node of scope.nodes) walked += scope.vectorKeys(node.key).length;
    expect(walked).toBeGreaterThan(0);
    expect(scope.vectorCount).toBe(walked);
    // Counted node by node: only the roots and the directories above them, none of the scope's nodes.
    expect(counted).toBe(indexes.nodes.size - scope.nodes.length);
    await longship.close();
  });
});

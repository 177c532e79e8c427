import { describe, expect, it } from 'vitest';
import { createContextTree } from '../../src/context/store-tree.js';
import { bundledModel } from '../../src/embed/bundled-model.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { nodesPerEmbedCall } from '../../src/ingest/commit/commit-units.js';
import type { Ingestor } from '../../src/ingest/ingest.js';
import { createIngestor } from '../../src/ingest/ingestor.js';
import { extractiveSummarizer } from '../../src/ingest/summary/extractive-summarizer.js';
import type { FullStore } from '../../src/store/full-store.js';
import { prose, rejectsWith } from './fixtures.js';
import {
  dump,
  guide,
  hashEmbedder,
  hookedStore,
  note,
  notes,
  quotaStore,
  stores,
  touched,
} from './ingest-support.js';

const docs = 'viking://resources/docs';
const guideUri = `${docs}/guide.md`;
const sections = ['01-guide', '02-usage', '03-faq'].map((name) => `${guideUri}/${name}`);

async function setup(open: () => Promise<FullStore>) {
  const store = await open();
  const { embedder, texts } = hashEmbedder();
  return { store, texts, ingestor: createIngestor({ store, embedder }) };
}

const addGuide = (ingestor: Ingestor, text = guide()) =>
  ingestor.addResource(text, { name: 'guide.md', target: docs, reason: 'onboarding' });

describe.each(stores)('ingestion into a %s', (_, open) => {
  it('writes a split Markdown document as a tree with layers, chunked vectors and postings', async () => {
    const { store, ingestor } = await setup(open);
    const result = await addGuide(ingestor);
    expect(result).toEqual({ uris: [guideUri], added: 4, changed: 0, unchanged: 0, removed: 0, skipped: [] });

    const { nodes, vectors, postings } = await dump(store);
    expect([...nodes.keys()]).toEqual(['viking://resources', docs, guideUri, ...sections]);
    expect(nodes.get('viking://resources')!.parent).toBeNull();
    for (const node of nodes.values()) {
      expect(node.l0, node.uri).not.toBe('');
      expect(node.l1, node.uri).toBeTruthy();
      const chunks = vectors.filter((v) => v.nodeKey === node.key).map((v) => v.chunk);
      // A directory has one vector (header, L0, L1); a long file one per chunk of its content.
      if (node.kind === 'dir') expect(chunks, node.uri).toEqual([0]);
      else expect(chunks.length, node.uri).toBeGreaterThan(3);
      const posting = postings.get(node.key)!;
      expect(posting.title).toBe(node.meta.title);
      if (node.kind === 'file') expect(posting.body).toBe(node.l2);
      else expect(posting.body).toContain(node.l0);
    }
    const usage = nodes.get(sections[1]!)!;
    expect(usage).toMatchObject({
      kind: 'file',
      parent: guideUri,
      contextType: 'resource',
      summaryKind: 'extractive',
    });
    expect(usage.l2).toContain('## Usage');
    expect(usage.hash).toMatch(/^sha256:/);
    expect(usage.meta).toMatchObject({
      title: 'Usage',
      source: 'guide.md',
      format: 'markdown',
      reason: 'onboarding',
    });
    // The directories above the target were created, then summarised from what they now hold.
    expect(nodes.get(docs)!.l0).toContain('Guide');
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('writes nothing when an unchanged document is added again', async () => {
    const { store, ingestor, texts } = await setup(open);
    await addGuide(ingestor);
    const before = await dump(store);
    const embedded = texts.length;
    const result = await addGuide(ingestor);
    expect(result).toMatchObject({ added: 0, changed: 0, unchanged: 4, removed: 0 });
    expect((await store.meta()).seq).toBe(before.meta.seq);
    expect(texts.length).toBe(embedded);
    expect(touched(before, await dump(store))).toEqual([]);
  });

  it('rewrites only the changed section and the directories above it', async () => {
    const { store, ingestor, texts } = await setup(open);
    await addGuide(ingestor);
    const before = await dump(store);
    texts.length = 0;
    const result = await addGuide(ingestor, guide(prose('usage', 79)));
    expect(result).toMatchObject({ added: 0, changed: 2, unchanged: 2, removed: 0 });
    const after = await dump(store);
    expect(touched(before, after)).toEqual(['viking://resources', docs, guideUri, sections[1]].sort());
    // Keys stay; the changed file got fresh vector keys; only its chunks and the directories were embedded.
    const usage = after.nodes.get(sections[1]!)!;
    expect(usage.key).toBe(before.nodes.get(sections[1]!)!.key);
    expect(usage.createdAt).toBe(before.nodes.get(sections[1]!)!.createdAt);
    const fresh = after.vectors.filter((v) => v.nodeKey === usage.key);
    const old = new Set(before.vectors.map((v) => v.key));
    expect(fresh.filter((v) => old.has(v.key))).toEqual([]);
    expect(texts.length).toBe(fresh.length + 3);
    expect(after.nodes.get(sections[0]!)).toEqual(before.nodes.get(sections[0]!));
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('removes a section that is gone, with its vectors and posting', async () => {
    const { store, ingestor } = await setup(open);
    await addGuide(ingestor);
    const faq = (await store.node(sections[2]!))!;
    const text = guide().replace(/## FAQ[\s\S]*$/, '');
    const result = await addGuide(ingestor, text);
    expect(result).toMatchObject({ removed: 1, unchanged: 2, changed: 1 });
    expect(await store.node(sections[2]!)).toBeUndefined();
    expect(await store.vectorsOfNode(faq.key)).toEqual([]);
    expect(await store.posting(faq.key)).toBeUndefined();
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('turns a split document back into one file and again into a directory', async () => {
    const { store, ingestor } = await setup(open);
    await addGuide(ingestor);
    const shrunk = await addGuide(ingestor, note('Guide'));
    expect(shrunk).toMatchObject({ changed: 1, removed: 3 });
    expect((await store.node(guideUri))!.kind).toBe('file');
    expect(await store.descendants(guideUri)).toEqual([]);
    expect(await store.verify()).toMatchObject({ ok: true });
    await addGuide(ingestor);
    expect((await store.descendants(guideUri)).map((n) => n.uri)).toEqual(sections);
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('reuses the vectors of a section that only moved', async () => {
    const { store, ingestor, texts } = await setup(open);
    const log = (...names: string[]) =>
      ['# Log', ...names.flatMap((n) => [`## ${n}`, prose(n, 45)])].join('\n\n');
    // Sections are numbered: dropping one renames the ones after it (the first also holds "# Log").
    await ingestor.addResource(log('Alpha', 'Beta', 'Gamma', 'Delta'), { name: 'log.md' });
    const before = (await store.node('viking://resources/log.md/03-gamma'))!;
    const beforeVectors = await store.vectorsOfNode(before.key);
    texts.length = 0;
    const result = await ingestor.addResource(log('Beta', 'Gamma', 'Delta'), { name: 'log.md' });
    expect(result).toMatchObject({ added: 3, changed: 1, removed: 4 });
    const after = (await store.node('viking://resources/log.md/02-gamma'))!;
    expect(after.l2).toBe(before.l2);
    const vectors = await store.vectorsOfNode(after.key);
    expect(vectors.map((v) => [...v.vector])).toEqual(beforeVectors.map((v) => [...v.vector]));
    expect(vectors[0]!.key).not.toBe(beforeVectors[0]!.key);
    // Only the directory above it, whose summary quotes it, was embedded again.
    expect(texts.filter((t) => t.includes('Gamma harbour') && !t.startsWith('directory:'))).toEqual([]);
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('adds a skill under viking://agent/skills and updates it only when it changed', async () => {
    const { store, ingestor } = await setup(open);
    const skill = {
      name: 'Write an RFC',
      description: 'Drafts RFCs in our format.',
      content: '# RFC\n\nSteps.',
    };
    expect(await ingestor.addSkill(skill)).toMatchObject({
      uris: ['viking://agent/skills/write-an-rfc'],
      added: 1,
    });
    const node = (await store.node('viking://agent/skills/write-an-rfc'))!;
    expect(node).toMatchObject({
      kind: 'file',
      contextType: 'skill',
      l0: 'Drafts RFCs in our format.',
      l2: skill.content,
    });
    expect((await store.posting(node.key))!.body).toContain('Drafts RFCs');
    expect(await store.vectorsOfNode(node.key)).toHaveLength(1);
    expect((await store.node('viking://agent/skills'))!.l0).toContain('Write an RFC');
    expect(await store.node('viking://agent')).toMatchObject({ parent: null, kind: 'dir' });

    const seq = (await store.meta()).seq;
    expect(await ingestor.addSkill(skill)).toMatchObject({ unchanged: 1 });
    expect((await store.meta()).seq).toBe(seq);
    expect(await ingestor.addSkill({ ...skill, description: 'Drafts RFCs.' })).toMatchObject({ changed: 1 });
    expect((await store.node(node.uri))!.l0).toBe('Drafts RFCs.');
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('puts a skill where a directory was in its place, with what was below it gone', async () => {
    const { store, ingestor } = await setup(open);
    // A resource cannot be added there (its target must be under viking://resources): write it.
    const embedder = hashEmbedder().embedder;
    await store.useEmbedder({ id: embedder.id, dimensions: embedder.dimensions });
    const tree = await createContextTree({ store, embedder, summarizer: extractiveSummarizer });
    await tree.write('viking://agent/skills/tabs/old.md', 'Old notes.', { parents: true });
    expect(await store.node('viking://agent/skills/tabs/old.md')).toBeDefined();
    await ingestor.addSkill({ name: 'tabs', description: 'Indents with tabs.', content: 'Use tabs.' });
    expect(await store.node('viking://agent/skills/tabs')).toMatchObject({ kind: 'file', l2: 'Use tabs.' });
    expect(await store.node('viking://agent/skills/tabs/old.md')).toBeUndefined();
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('leaves a file in the target chain a file when refreshing the directories above a target', async () => {
    const { store, ingestor } = await setup(open);
    await ingestor.addResource('A note.', { name: 'a' });
    await rejectsWith(
      () => ingestor.addResource('Below.', { name: 'b.md', target: 'viking://resources/a/x' }),
      'INVALID_ARGUMENT',
    );
    // The queue refreshes the failed job's target too.
    await ingestor.refreshParents('viking://resources/a/x');
    expect(await store.node('viking://resources/a')).toMatchObject({ kind: 'file', l2: 'A note.' });
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('adds a folder, skipping binary entries, and removes what left it', async () => {
    const { store, ingestor } = await setup(open);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]);
    const folder = [
      { path: 'README.md', content: note('Readme') },
      { path: 'src/a.ts', content: 'export const a = 1;\n' },
      { path: 'src/lib/b.ts', content: 'export const b = 2;\n' },
      { path: 'logo.png', content: png },
    ];
    const result = await ingestor.addResource(folder, { name: 'repo' });
    expect(result.skipped.map((s) => [s.path, s.error.code])).toEqual([['repo/logo.png', 'BINARY_INPUT']]);
    expect(result.uris).toEqual(
      ['README.md', 'src/a.ts', 'src/lib/b.ts'].map((p) => `viking://resources/repo/${p}`),
    );
    const uris = [...(await dump(store)).nodes.keys()];
    expect(uris).toContain('viking://resources/repo/src/lib');
    expect(await store.verify()).toMatchObject({ ok: true });

    const again = await ingestor.addResource(folder.slice(0, 2), { name: 'repo' });
    expect(again).toMatchObject({ removed: 2, added: 0 });
    expect(await store.node('viking://resources/repo/src/lib')).toBeUndefined();
    expect(await store.node('viking://resources/repo/src/a.ts')).toBeDefined();
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('reads the stored tops of a folder in one request, and below directories only', async () => {
    const base = await open();
    const reads = new Map<string, number>();
    const store = new Proxy(base, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads.set(String(property), (reads.get(String(property)) ?? 0) + 1);
          return value.apply(target, args);
        };
      },
    });
    const ingestor = createIngestor({ store, embedder: hashEmbedder().embedder });
    const folder = Array.from({ length: 40 }, (_, i) => ({
      path: `note-${i}.md`,
      content: note(`Note ${i}`),
    }));
    await ingestor.addResource(folder, { target: docs });
    reads.clear();
    expect(await ingestor.addResource(folder, { target: docs })).toMatchObject({ added: 0, changed: 0 });
    expect(reads.get('nodes')).toBe(1);
    // The chain above the target (twice: its missing directories, then their refresh), not a note each.
    expect(reads.get('node') ?? 0).toBeLessThanOrEqual(4);
    expect(reads.get('descendants') ?? 0).toBe(0);
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('leaves the store untouched when it refuses binary or oversized input', async () => {
    const { store, ingestor } = await setup(open);
    await ingestor.addResource(note('First'), { name: 'first.md' });
    const before = await dump(store);
    await rejectsWith(
      () => ingestor.addResource(new Uint8Array([1, 0, 2, 0, 3]), { name: 'x.bin' }),
      'BINARY_INPUT',
    );
    await rejectsWith(
      () => ingestor.addResource('a'.repeat(2000), { name: 'big.md', maxBytes: 1000 }),
      'INPUT_TOO_LARGE',
    );
    await rejectsWith(
      () => ingestor.addResource([{ path: 'a.bin', content: new Uint8Array([0, 0, 0]) }]),
      'BINARY_INPUT',
    );
    await rejectsWith(
      () => ingestor.addResource(note('x'), { target: 'viking://resources/first.md' }),
      'INVALID_ARGUMENT',
    );
    await rejectsWith(() => ingestor.addResource(note('x'), { target: 'viking://' }), 'INVALID_ARGUMENT');
    expect(await dump(store)).toEqual(before);
  });

  it('refuses to write with another embedder than the store recorded', async () => {
    const store = await open();
    await store.useEmbedder({ id: 'other-model', dimensions: 8 });
    const { embedder } = hashEmbedder();
    const before = await dump(store);
    await rejectsWith(
      () => createIngestor({ store, embedder }).addResource(note('x'), { name: 'x.md' }),
      'EMBEDDER_MISMATCH',
    );
    expect(await dump(store)).toEqual(before);
  });

  it('stops after the commit being written when cancelled, leaving its documents whole and the rest out', async () => {
    const base = await open();
    const controller = new AbortController();
    // Cancel as soon as the first commit (the documents of one embedding call) has gone through.
    const store = hookedStore(base, undefined, (commit) => commit === 1 && controller.abort('stop'));
    const { embedder } = hashEmbedder();
    const ingestor = createIngestor({ store, embedder });
    const folder = notes(nodesPerEmbedCall + 8);
    const done: string[] = [];
    const error = await rejectsWith(
      () =>
        ingestor.addResource(folder, {
          target: docs,
          signal: controller.signal,
          onProgress: (p) => p.phase === 'write' && p.done > done.length && done.push(p.uri!),
        }),
      'ABORTED',
    );
    expect(error.cause).toBe('stop');
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBeLessThan(folder.length);
    for (const { path } of folder) {
      const node = await store.node(`${docs}/${path}`);
      if (!done.includes(`${docs}/${path}`)) expect(node).toBeUndefined();
      else expect((await store.vectorsOfNode(node!.key)).length).toBeGreaterThan(0);
    }
    expect(await store.verify()).toMatchObject({ ok: true });

    // Adding the folder again completes it, keeping what was already there.
    const rest = await ingestor.addResource(folder, { target: docs });
    expect(rest.added).toBe(folder.length - done.length);
    expect(rest.unchanged).toBeGreaterThanOrEqual(done.length);
    expect(await store.verify()).toMatchObject({ ok: true });
  });

  it('reports a failed commit with its typed error and leaves the store consistent', async () => {
    const base = await open();
    const { embedder } = hashEmbedder();
    const ingestor = createIngestor({ store: quotaStore(base, (n) => n === 2), embedder });
    const folder = notes(nodesPerEmbedCall + 8);
    const error = await rejectsWith(() => ingestor.addResource(folder, { target: docs }), 'QUOTA_EXCEEDED');
    expect(error.cause).toBeInstanceOf(Error);
    // The first embedding call's documents were committed; the second's commit failed whole.
    expect(await base.node(`${docs}/${folder[0]!.path}`)).toBeDefined();
    expect(await base.node(`${docs}/${folder.at(-1)!.path}`)).toBeUndefined();
    expect(await base.verify()).toMatchObject({ ok: true });
  });
});

const handbook = `# Sailing handbook

A short handbook for new crew on the club's boats.

## Knots

Every sailor should tie a bowline without looking. Make a small loop, pass the end up through it,
around the standing part and back down. A reef knot joins two ropes of the same size; a clove hitch
holds a fender to a rail.

## Weather

Check the forecast before leaving the harbour. A falling barometer and a backing wind warn of a
front. Reef early: it is easier to shake out a reef than to put one in during a squall.

## Navigation

Plot the course on the chart and note each buoy you expect to pass. Red marks are left to port when
entering harbour in region A. Take a bearing on a fixed landmark to check for drift.
`;

describe('ingestion with the bundled model', () => {
  it('embeds a Markdown document end to end so that a question finds its section', async () => {
    const store = await stores[1]![1]();
    const embedder = transformersEmbedder({ dtype: 'q8' });
    const ingestor = createIngestor({ store, embedder });
    const result = await ingestor.addResource(handbook, {
      name: 'handbook.md',
      maxTokens: 100,
      mergeBelow: 10,
    });
    const root = 'viking://resources/handbook.md';
    expect(result.uris).toEqual([root]);
    const files = (await store.descendants(root)).filter((n) => n.kind === 'file');
    expect(files.map((f) => f.meta.title)).toEqual(['Sailing handbook', 'Knots', 'Weather', 'Navigation']);

    const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
    const best = async (question: string) => {
      const [query] = await embedder.embed([question]);
      const scored = await Promise.all(
        files.map(async (f) => {
          const vectors = await store.vectorsOfNode(f.key);
          for (const v of vectors) expect(dot(v.vector, v.vector)).toBeCloseTo(1, 4);
          return { title: f.meta.title, score: Math.max(...vectors.map((v) => dot(v.vector, query!))) };
        }),
      );
      return scored.sort((a, b) => b.score - a.score)[0]!.title;
    };
    expect(await best('How do I tie a bowline?')).toBe('Knots');
    expect(await best('Is a storm coming? What does the barometer say?')).toBe('Weather');
    expect(await best('Which side do I leave the red buoys on?')).toBe('Navigation');
    expect((await store.meta()).embedder).toEqual({ id: bundledModel.id, dimensions: 512 });
    expect(await store.verify()).toMatchObject({ ok: true });
    await embedder.dispose?.();
  });
});

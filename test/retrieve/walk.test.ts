import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { find as findAny } from '../../src/retrieve/retriever.js';
import type { FindOptions } from '../../src/retrieve/settings.js';
import type { FindTrace, TraceScore } from '../../src/retrieve/trace.js';
import { corpus } from './corpus.js';
import { buildTree, type NodeSpec, type Tree, urisOf } from './fixture.js';

// These tests are about the walk: THINKING unless a test says otherwise.
const find = (sources: Tree['sources'], query: string, options: FindOptions = {}) =>
  findAny(sources, query, { mode: 'thinking', ...options });

let tree: Tree;
beforeAll(async () => {
  tree = await buildTree(corpus);
});

const childrenScored = (trace: FindTrace): TraceScore[] => trace.steps.flatMap((step) => step.children);

describe('the THINKING walk', () => {
  it('records every step in a structured-clonable trace', async () => {
    const result = await find(tree.sources, 'request timeout in milliseconds', { trace: true, limit: 3 });
    const trace = result.trace!;
    expect(trace.mode).toBe('thinking');
    expect(trace.roots).toEqual([
      'viking://resources',
      'viking://user/default/memories',
      'viking://agent/skills',
    ]);
    expect(trace.fusion.method).toBe('minmax');
    expect(trace.settings).toMatchObject({ alpha: expect.any(Number), limit: 3 });
    expect(trace.seeds.some((seed) => seed.from === 'root' && seed.uri === 'viking://resources')).toBe(true);
    expect(trace.seeds.some((seed) => seed.from === 'directory')).toBe(true);
    expect(trace.steps.length).toBeGreaterThan(0);
    expect(trace.steps.map((s) => s.round)).toEqual(
      [...trace.steps.map((s) => s.round)].sort((a, b) => a - b),
    );
    const timeouts = childrenScored(trace).find((c) => c.uri.endsWith('timeouts.md'))!;
    expect(timeouts).toMatchObject({ kind: 'file', verdict: 'kept' });
    expect(timeouts.vector).toBeGreaterThan(0);
    expect(timeouts.lexical).toBeGreaterThan(0);
    const step = trace.steps.find((s) => s.children.includes(timeouts))!;
    const alpha = trace.settings.alpha as number;
    expect(timeouts.propagated).toBeCloseTo(alpha * timeouts.fused + (1 - alpha) * step.score, 3);
    expect(trace.stop.directoriesVisited).toBe(trace.steps.length);
    expect(trace.stop.candidates).toBeGreaterThanOrEqual(result.total);
    expect(trace.results.map((r) => r.uri)).toEqual(urisOf(result));
    expect(trace.results[0]).toEqual({ uri: urisOf(result)[0], score: expect.any(Number) });
    expect(structuredClone(trace)).toEqual(trace);
    expect(JSON.parse(JSON.stringify(trace))).toEqual(trace);
  });

  it('propagates α · child + (1 − α) · parent', async () => {
    const query = 'knead the dough';
    const childOnly = await find(tree.sources, query, { alpha: 1, trace: true });
    for (const child of childrenScored(childOnly.trace!))
      expect(child.propagated).toBeCloseTo(child.fused, 4);
    const parentOnly = await find(tree.sources, query, { alpha: 0, trace: true });
    for (const step of parentOnly.trace!.steps) {
      for (const child of step.children) expect(child.propagated).toBeCloseTo(step.score, 4);
    }
  });

  it('prunes what falls below the threshold and does not descend into it', async () => {
    const result = await find(tree.sources, 'bake bread with yeast', { trace: true, scoreThreshold: 0.3 });
    const scored = childrenScored(result.trace!);
    const pruned = scored.filter((c) => c.verdict === 'below-threshold');
    expect(pruned.length).toBeGreaterThan(0);
    for (const child of pruned) {
      expect(child.propagated).toBeLessThanOrEqual(0.3);
      if (child.kind === 'dir') expect(child.queued).toBe(false);
    }
    const popped = new Set(result.trace!.steps.map((s) => s.uri));
    const seeds = new Set(result.trace!.seeds.map((s) => s.uri));
    for (const child of pruned) if (!seeds.has(child.uri)) expect(popped.has(child.uri)).toBe(false);
    expect(result.resources[0]?.uri).toBe('viking://resources/recipes/bread.md');
  });

  it('says why it stopped', async () => {
    const whole = await find(tree.sources, 'storage snapshots', { trace: true });
    expect(whole.trace!.stop.reason).toBe('queue-empty');
    const capped = await find(tree.sources, 'storage snapshots', {
      trace: true,
      walk: { maxDirectories: 2 },
    });
    expect(capped.trace!.stop).toMatchObject({ reason: 'max-directories', directoriesVisited: 2 });

    const wide = await buildTree(
      Array.from({ length: 30 }, (_, i) => ({
        uri: `viking://resources/d${String(i).padStart(2, '0')}/note.md`,
        text:
          i === 3 ? 'the lighthouse keeper logs the weather' : `unrelated note number ${i} about gardening`,
      })),
    );
    const converged = await find(wide.sources, 'lighthouse weather', {
      trace: true,
      limit: 1,
      convergenceRounds: 2,
      walk: { minDirectories: 0, stallRounds: 100, seedDirectories: 30 },
    });
    expect(converged.trace!.stop.reason).toBe('converged');
    expect(converged.resources[0]?.uri).toBe('viking://resources/d03/note.md');
    const stalled = await find(wide.sources, 'lighthouse weather', {
      trace: true,
      limit: 1,
      scoreThreshold: 0.5,
      convergenceRounds: 100,
      walk: { minDirectories: 0, stallRounds: 2, seedDirectories: 30 },
    });
    expect(stalled.trace!.stop.reason).toBe('pool-stalled');
    const floor = await find(wide.sources, 'lighthouse weather', {
      trace: true,
      limit: 1,
      convergenceRounds: 1,
      walk: { minDirectories: 12, seedDirectories: 30 },
    });
    expect(floor.trace!.stop.directoriesVisited).toBeGreaterThanOrEqual(12);
  });

  it('normalises directories and files apart when asked', async () => {
    const query = 'networking retries timeouts';
    const together = (await find(tree.sources, query, { trace: true })).trace!.fusion;
    expect(together.dir).toEqual(together.file);
    const byKind = await find(tree.sources, query, { trace: true, hybrid: { normalise: 'by-kind' } });
    const { dir, file } = byKind.trace!.fusion;
    expect(dir).not.toEqual(file);
    // Each kind's best BM25 is its own reference.
    expect(dir.lexical[1]).toBeGreaterThan(0);
    expect(file.lexical[1]).toBeGreaterThan(0);
    const best = byKind.trace!.steps.flatMap((s) => s.children).filter((c) => c.kind === 'dir');
    expect(Math.max(...best.map((c) => c.fused))).toBeGreaterThan(0.5);
  });

  it('ranks the children of a very large directory with a filtered search', async () => {
    const big = await buildTree(
      Array.from({ length: 60 }, (_, i) => ({
        uri: `viking://resources/big/n${String(i).padStart(2, '0')}.md`,
        text: i === 42 ? 'the lighthouse keeper logs the weather' : `note ${i} about gardening and compost`,
      })),
    );
    const query = 'lighthouse keeper weather';
    const exact = await find(big.sources, query, { trace: true, limit: 3 });
    const approximate = await find(big.sources, query, {
      trace: true,
      limit: 3,
      hybrid: { candidates: 5 },
      walk: { exactChildren: 10 },
    });
    expect(approximate.resources[0]?.uri).toBe('viking://resources/big/n42.md');
    const children = (trace: FindTrace) =>
      trace.steps.find((s) => s.uri === 'viking://resources/big')!.children;
    expect(children(exact.trace!).every((c) => c.vector !== null)).toBe(true);
    const scored = children(approximate.trace!).filter((c) => c.vector !== null);
    expect(scored.length).toBeGreaterThan(0);
    expect(scored.length).toBeLessThanOrEqual(10);
  });

  it('pops several directories a round when asked', async () => {
    const result = await find(tree.sources, 'storage snapshots', {
      trace: true,
      walk: { directoriesPerRound: 4 },
    });
    const rounds = new Map<number, number>();
    for (const step of result.trace!.steps) rounds.set(step.round, (rounds.get(step.round) ?? 0) + 1);
    expect(Math.max(...rounds.values())).toBeGreaterThan(1);
    expect(result.trace!.stop.rounds).toBe(rounds.size);
  });

  it('seeds the parents of the best leaves, so a badly summarised directory is still reached', async () => {
    const hidden: NodeSpec[] = [
      ...Array.from({ length: 14 }, (_, i) => ({
        uri: `viking://resources/area${i}`,
        l0: `Area ${i}: reports about sailing boats and harbours`,
      })),
      ...Array.from({ length: 14 }, (_, i) => ({
        uri: `viking://resources/area${i}/report.md`,
        text: `Report ${i} on sailing boats in the harbour.`,
      })),
      { uri: 'viking://resources/misc', l0: 'Miscellaneous' },
      { uri: 'viking://resources/misc/deep', l0: 'Odds and ends' },
      {
        uri: 'viking://resources/misc/deep/kraken.md',
        text: 'The kraken surfaced near the harbour at dawn.',
      },
    ];
    const hiddenTree = await buildTree(hidden);
    const options = { trace: true, limit: 3, scoreThreshold: 0.2, walk: { seedDirectories: 3 } } as const;
    const withLeaves = await find(hiddenTree.sources, 'kraken', options);
    expect(withLeaves.resources[0]?.uri).toBe('viking://resources/misc/deep/kraken.md');
    expect(withLeaves.trace!.seeds).toContainEqual(
      expect.objectContaining({ uri: 'viking://resources/misc/deep', from: 'leaf' }),
    );
    const withoutLeaves = await find(hiddenTree.sources, 'kraken', {
      ...options,
      walk: { seedDirectories: 3, seedLeaves: 0 },
    });
    expect(urisOf(withoutLeaves)).not.toContain('viking://resources/misc/deep/kraken.md');
  });

  it('walks through directories that the metadata filter excludes', async () => {
    const tagged = await buildTree([
      { uri: 'viking://resources/team', l0: 'Team notes: the pager', meta: { owner: 'ops' } },
      {
        uri: 'viking://resources/team/oncall.md',
        text: 'On-call rotation for the pager',
        meta: { owner: 'sre' },
      },
    ]);
    const result = await find(tagged.sources, 'pager rotation', {
      filter: { meta: { owner: 'sre' } },
      trace: true,
    });
    expect(urisOf(result)).toEqual(['viking://resources/team/oncall.md']);
    const team = childrenScored(result.trace!).find((c) => c.uri === 'viking://resources/team');
    expect(team?.verdict).toBe('filtered');
  });

  it('never returns a node outside the scope', async () => {
    const segment = fc.constantFrom('a', 'b', 'c');
    const leaf = fc.record({
      path: fc.array(segment, { minLength: 1, maxLength: 3 }),
      text: fc.array(fc.constantFrom('boat', 'harbour', 'sail', 'wind', 'rope', 'ERR_X1'), {
        minLength: 1,
        maxLength: 5,
      }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(leaf, { minLength: 1, maxLength: 12 }),
        fc.array(segment, { maxLength: 2 }),
        fc.constantFrom('boat harbour', 'ERR_X1', 'wind rope sail'),
        fc.constantFrom('quick', 'thinking'),
        async (leaves, target, query, mode) => {
          // Files are named `f<i>.md`, so a path never names both a file and a directory.
          const specs = leaves.map((l, i) => ({
            uri: `viking://resources/${l.path.join('/')}/f${i}.md`,
            text: l.text.join(' '),
          }));
          const small = await buildTree([
            ...specs,
            { uri: 'viking://agent/skills/boat.md', text: 'boat harbour' },
          ]);
          const targetUri = ['viking://resources', ...target].join('/');
          const result = await find(small.sources, query, { mode, targetUri, limit: 20 });
          for (const uri of urisOf(result)) expect(uri.startsWith(`${targetUri}/`)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});

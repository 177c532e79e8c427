import { beforeAll, describe, expect, it } from 'vitest';
import { parseUri } from '../../src/context/uri.js';
import { placeIndex, placeScores } from '../../src/retrieve/place.js';
import { find } from '../../src/retrieve/retriever.js';
import { loadScope } from '../../src/retrieve/scope.js';
import { buildTree, type NodeSpec, type Tree, urisOf } from './fixture.js';

// Two filings of one company whose cash-flow tables never say which filing they are in: only the
// file names do. The 2022 table matches the question's words a little better on its own.
const filings: NodeSpec[] = [
  {
    uri: 'viking://resources/filings/ACME_2018_10K.md',
    meta: { title: 'Annual report' },
    l0: 'Annual report of Acme: risk factors and cash flows.',
  },
  {
    uri: 'viking://resources/filings/ACME_2018_10K.md/01-part',
    text: 'Consolidated statement of cash flows. Capital expenditure 120. Operating activities.',
  },
  {
    uri: 'viking://resources/filings/ACME_2018_10K.md/02-part',
    text: 'Risk factors: competition, supply chains and currency exposure.',
  },
  {
    uri: 'viking://resources/filings/ACME_2022_10K.md',
    meta: { title: 'Annual report' },
    l0: 'Annual report of Acme: risk factors and cash flows.',
  },
  {
    uri: 'viking://resources/filings/ACME_2022_10K.md/01-part',
    text: 'Consolidated statement of cash flows. Capital expenditure 150.',
  },
  {
    uri: 'viking://resources/filings/ACME_2022_10K.md/02-part',
    text: 'Risk factors: litigation, inflation and currency exposure.',
  },
  // A big directory whose name says nothing, holding the plainly best page for its question.
  { uri: 'viking://resources/manual/commands', l0: 'Commands.' },
  ...Array.from({ length: 8 }, (_, i) => ({
    uri: `viking://resources/manual/commands/cmd-${i}.md`,
    text: `Command ${i}: prints version ${i} information.`,
  })),
  {
    uri: 'viking://resources/manual/commands/uninstall.md',
    text: 'Uninstall removes a package from node_modules and from the package list.',
  },
  { uri: 'viking://resources/manual/packages', l0: 'Packages.' },
  {
    uri: 'viking://resources/manual/packages/about.md',
    text: 'About packages: a package is a folder with a manifest.',
  },
];

let tree: Tree;
beforeAll(async () => {
  tree = await buildTree(filings);
});

describe('place scores', () => {
  it('score each directory by the rare query terms on its path, the best at 1', async () => {
    const scope = await loadScope(tree.sources, [parseUri('viking://resources')]);
    const scores = placeScores(placeIndex(scope), 'What was the FY2018 capital expenditure for Acme?');
    expect(scores.get('viking://resources/filings/ACME_2018_10K.md')).toBe(1);
    // "acme" is on both paths; "2018" only on one.
    const other = scores.get('viking://resources/filings/ACME_2022_10K.md')!;
    expect(other).toBeGreaterThan(0);
    expect(other).toBeLessThan(1);
    expect(scores.has('viking://resources/manual/commands')).toBe(false);
    expect(placeScores(placeIndex(scope), 'nothing matches here').size).toBe(0);
  });
});

describe('find() lends a node its directory’s score', () => {
  const question = 'FY2018 capital expenditure in the cash flow statement of Acme';

  it('finds the passage of the filing the question names, which the flat search misses', async () => {
    const flat = await find(tree.sources, question, { alpha: 1, limit: 2, filter: { kind: 'file' } });
    expect(urisOf(flat)[0]).toBe('viking://resources/filings/ACME_2022_10K.md/01-part');
    for (const mode of ['quick', 'thinking'] as const) {
      const placed = await find(tree.sources, question, { mode, limit: 2 });
      expect(urisOf(placed)[0]).toBe('viking://resources/filings/ACME_2018_10K.md/01-part');
      expect(placed.resources[0]!.matchReason).toContain('under viking://resources/filings/ACME_2018_10K.md');
    }
  });

  it('keeps the plainly best page first in a poorly named directory', async () => {
    const result = await find(tree.sources, 'remove a package from node_modules', { limit: 3 });
    expect(urisOf(result)[0]).toBe('viking://resources/manual/commands/uninstall.md');
  });

  it('scores α · own + (1 − α) · directory, and only the own score at α 1', async () => {
    const raw = { calibration: false as const, limit: 1 };
    const [own] = (await find(tree.sources, question, { ...raw, alpha: 1 })).resources;
    const [placed] = (await find(tree.sources, question, { ...raw, alpha: 0.6 })).resources;
    expect(own!.matchReason).not.toContain('under');
    const directory = Number(/\(([\d.]+)\) →/.exec(placed!.matchReason)![1]);
    const fused = Number(/fused ([\d.]+)/.exec(placed!.matchReason)![1]);
    expect(placed!.score).toBeCloseTo(0.6 * fused + 0.4 * directory, 3);
  });

  it('returns a directory only when none of its files ranks near it', async () => {
    const query = 'annual report of acme';
    const always = await find(tree.sources, query, { directories: 'always', limit: 6 });
    expect(always.resources.some((r) => !r.isLeaf)).toBe(true);
    const alone = await find(tree.sources, query, { limit: 6 });
    const files = new Set(alone.resources.filter((r) => r.isLeaf).map((r) => r.uri));
    for (const dir of alone.resources.filter((r) => !r.isLeaf)) {
      expect([...files].some((uri) => uri.startsWith(`${dir.uri}/`))).toBe(false);
    }
    expect(alone.resources.filter((r) => r.isLeaf).length).toBeGreaterThan(
      always.resources.filter((r) => r.isLeaf).length - 1,
    );
  });

  it('rejects bad options with INVALID_ARGUMENT', async () => {
    await expect(find(tree.sources, question, { placeWeight: 2 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(
      find(tree.sources, question, { directories: 'sometimes' as 'always' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

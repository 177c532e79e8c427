import { describe, expect, it } from 'vitest';
import type { VikingUri } from '../../src/context/uri.js';
import { commitParts, type Unit } from '../../src/ingest/commit/commit-parts.js';
import type { NodeWrite } from '../../src/ingest/commit/write-batch.js';

const R = 'viking://resources/docs';
const unit = (uri: string, writes: string[], deletions: string[] = []): Unit => ({
  uri,
  writes: writes.map((w) => ({ node: { uri: `${R}/${w}` as VikingUri } }) as NodeWrite),
  deletions: deletions.map((d) => `${R}/${d}`),
});
const uris = (parts: Unit[][]) => parts.map((part) => part.map((u) => u.uri));

describe('commitParts', () => {
  it('puts documents that do not overlap in one commit, in order', () => {
    const units = [unit('a', ['a.md', 'a.md/x']), unit('b', ['b.md'], ['b.md/old']), unit('c', ['c.md'])];
    expect(uris(commitParts(units))).toEqual([['a', 'b', 'c']]);
    expect(commitParts([])).toEqual([]);
  });

  it('starts a new commit where a deletion meets an earlier write or deletion, or a write an earlier deletion', () => {
    // Deletes what an earlier unit writes; deletes the folder holding it; writes inside a deleted folder.
    expect(uris(commitParts([unit('a', ['a.md']), unit('b', ['b.md'], ['a.md'])]))).toEqual([['a'], ['b']]);
    expect(uris(commitParts([unit('a', ['d/a.md']), unit('b', ['b.md'], ['d'])]))).toEqual([['a'], ['b']]);
    expect(uris(commitParts([unit('a', ['a.md'], ['d']), unit('b', ['d/b.md'])]))).toEqual([['a'], ['b']]);
    expect(uris(commitParts([unit('a', [], ['d/x']), unit('b', [], ['d'])]))).toEqual([['a'], ['b']]);
    // A write next to an earlier deletion, not inside it, shares the commit.
    expect(uris(commitParts([unit('a', ['a.md'], ['d']), unit('b', ['dd/b.md'])]))).toEqual([['a', 'b']]);
  });
});

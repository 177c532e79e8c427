// What the model test's calls are drawn from: a few words, so that queries hit; a few names per
// root, so that calls collide (a write where a directory is, a move onto an existing node, an
// ingestion over earlier files, a session archive beside a user's file).

import fc from 'fast-check';
import { join, type VikingUri } from '../../src/context/uri.js';

export const words = [
  'river',
  'floods',
  'spring',
  'lake',
  'winter',
  'alpha',
  'beta',
  'gamma',
  'tabs',
  'quota',
];

export const text = (min: number) =>
  fc
    .array(fc.constantFrom(...words), { minLength: min, maxLength: 8 })
    .chain((ws) =>
      fc.constantFrom(ws.join(' '), ws.join('\n'), `# ${ws[0] ?? 'Title'}\n\n${ws.join(' ')}.\n`),
    );
export const nonEmptyText = text(1);

/**
 * A document of 12 to 40 paragraphs (a few hundred tokens): too long for a small budget, so that
 * context() shows an excerpt of it or a summary.
 */
export const longText = fc
  .array(fc.array(fc.constantFrom(...words), { minLength: 3, maxLength: 10 }), {
    minLength: 12,
    maxLength: 40,
  })
  .map((paragraphs) => paragraphs.map((ws) => `${ws.join(' ')}.`).join('\n\n'));

export const query = fc
  .array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 })
  .map((ws) => ws.join(' '));

const names: Record<string, readonly string[]> = {
  'viking://resources': ['a', 'b', 'x.md', 'y.txt'],
  'viking://user/default/memories': ['a', 'x.md'],
  'viking://agent/default/memories': ['sessions', 's1', '0001', 'a'],
  'viking://agent/skills': ['a', 'write-rfc'],
};
const under = (root: string, maxDepth: number) =>
  fc
    .array(fc.constantFrom(...names[root]!), { maxLength: maxDepth })
    .map((parts) => (parts.length ? join(root as VikingUri, parts.join('/')) : (root as VikingUri)));
export const inRoots = fc.oneof(
  { weight: 6, arbitrary: under('viking://resources', 3) },
  { weight: 2, arbitrary: under('viking://user/default/memories', 2) },
  { weight: 2, arbitrary: under('viking://agent/default/memories', 4) },
  { weight: 1, arbitrary: under('viking://agent/skills', 2) },
);
/** Mostly inside the roots; now and then a root's parent or a place outside every root. */
export const anyUri = fc.oneof(
  { weight: 12, arbitrary: inRoots },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'viking://user',
      'viking://agent',
      'viking://agent/x',
      'viking://other',
    ) as fc.Arbitrary<VikingUri>,
  },
);

/** Session ids: `s1` is also a name under the agent's memories, `a` one under every root. */
export const sessionIds = ['s1', 's2', 'a'] as const;
export const sessionId = fc.constantFrom(...sessionIds);

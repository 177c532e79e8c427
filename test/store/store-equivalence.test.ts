// MemoryStore is the executable model of a Store: random command sequences must leave it and
// IdbStore in the same observable state, with the same results and the same refusals, and both
// passing verify() after every step.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FullStore } from '../../src/store/full-store.js';
import type { WriteBatch } from '../../src/store/store.js';
import { dir, EMBEDDER, merge, node, posting, relation, vector } from '../../src/testing/records.js';
import { observe } from '../../src/testing/sample-tree.js';
import { idbHarness, memoryHarness } from './harness.js';

const URIS = [
  'viking://r',
  'viking://r/a',
  'viking://r/b',
  'viking://r/a/x',
  'viking://r/a/y',
  'viking://r/ab',
  'viking://m',
];
const uriAt = fc.integer({ min: 0, max: URIS.length - 1 }).map((i) => URIS[i]!);
const nodeKey = fc.integer({ min: 1, max: 12 });
const vectorKey = fc.integer({ min: 21, max: 40 });

// Mostly the URI's own key (index + 1), so that whole files usually fit; sometimes another, to
// exercise key clashes and re-keying.
const keyFor = (uri: string) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(URIS.indexOf(uri) + 1) }, { weight: 1, arbitrary: nodeKey });

// A URI other URIs lie below stays a directory: verify() reports a node whose parent is a file.
const parents = new Set(
  URIS.flatMap((uri) => URIS.filter((other) => other.startsWith(`${uri}/`)).map(() => uri)),
);

const file = uriAt.chain((uri) =>
  fc
    .record({
      key: keyFor(uri),
      vectors: fc.integer({ min: 0, max: 2 }),
      base: vectorKey,
      asDir: parents.has(uri) ? fc.constant(true) : fc.boolean(),
    })
    .map(({ key, vectors, base, asDir }) => ({
      putNodes: [asDir ? dir(uri, key) : node(uri, key, { l0: `v${base}` })],
      deleteVectorsOfNodes: [key],
      putPostings: [posting(key, `${uri} ${base}`)],
      putVectors: Array.from({ length: vectors }, (_, chunk) => vector(base + chunk, key, chunk)),
    })),
);

const op: fc.Arbitrary<WriteBatch> = fc.oneof(
  { weight: 10, arbitrary: file },
  {
    weight: 1,
    arbitrary: fc
      .record({ uri: uriAt, key: nodeKey })
      .map(({ uri, key }) => ({ putNodes: [parents.has(uri) ? dir(uri, key) : node(uri, key)] })),
  },
  { weight: 2, arbitrary: uriAt.map((uri) => ({ deleteNodes: [uri] })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(vectorKey, nodeKey, fc.integer({ min: 0, max: 2 }))
      .map(([key, owner, chunk]) => ({ putVectors: [vector(key, owner, chunk)] })),
  },
  { weight: 1, arbitrary: nodeKey.map((key) => ({ deleteVectorsOfNodes: [key] })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(nodeKey, fc.string({ maxLength: 5 }))
      .map(([key, body]) => ({ putPostings: [posting(key, body)] })),
  },
  { weight: 1, arbitrary: nodeKey.map((key) => ({ deletePostings: [key] })) },
  {
    weight: 2,
    arbitrary: fc.tuple(uriAt, uriAt).map(([from, to]) => ({ putRelations: [relation(from, to)] })),
  },
  { weight: 1, arbitrary: fc.tuple(uriAt, uriAt).map(([from, to]) => ({ deleteRelations: [{ from, to }] })) },
);

type Command =
  | { kind: 'commit'; batch: WriteBatch; aborted: boolean }
  | { kind: 'allocate'; count: number }
  | { kind: 'snapshot'; name: string; seqBack: number; size: number }
  | { kind: 'prune'; seqBack: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('commit' as const),
      batch: fc.array(op, { minLength: 1, maxLength: 3 }).map((ops) => merge(...ops)),
      aborted: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('allocate' as const), count: fc.integer({ min: 0, max: 3 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('snapshot' as const),
      name: fc.constantFrom('hnsw', 'bm25'),
      seqBack: fc.integer({ min: -1, max: 3 }),
      size: fc.integer({ min: 0, max: 64 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('prune' as const), seqBack: fc.integer({ min: 0, max: 4 }) }),
  },
);

async function run(store: FullStore, c: Command): Promise<unknown> {
  const settle = (p: Promise<unknown>) =>
    p.then(
      (value) => ({ value }),
      (e) => ({ code: e.code ?? String(e) }),
    );
  const { seq } = await store.meta();
  switch (c.kind) {
    case 'commit':
      return settle(store.commit(c.batch, c.aborted ? AbortSignal.abort() : undefined));
    case 'allocate':
      return settle(store.allocateKeys(c.count));
    case 'snapshot':
      return settle(
        store.putSnapshot({ name: c.name, seq: seq - c.seqBack, bytes: new Uint8Array(c.size).fill(seq) }),
      );
    case 'prune':
      return settle(store.pruneChanges(seq - c.seqBack));
  }
}

async function everything(store: FullStore) {
  const reads: Record<string, unknown> = {};
  for (const uri of URIS) {
    reads[uri] = {
      node: await store.node(uri),
      children: await store.children(uri),
      descendants: (await store.descendants(uri)).map((n) => n.uri),
      relations: await store.relations(uri),
    };
  }
  for (let key = 1; key <= 12; key++) {
    reads[key] = {
      node: (await store.nodeByKey(key))?.uri,
      vectors: await store.vectorsOfNode(key),
      posting: await store.posting(key),
    };
  }
  const snapshots = { hnsw: await store.snapshot('hnsw'), bm25: await store.snapshot('bm25') };
  return {
    observed: await observe(store),
    reads,
    needing: (await store.nodesNeedingVectors()).map((n) => n.uri),
    changes: await store.changesSince(0),
    meta: await store.meta(),
    stats: await store.stats(),
    snapshots,
  };
}

describe('MemoryStore and IdbStore', () => {
  it('agree on every random sequence of commands', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 16 }), async (commands) => {
        const model = await memoryHarness().open({ embedder: EMBEDDER });
        const real = await idbHarness().open({ embedder: EMBEDDER });
        // Most URIs need a parent: start from a tree with the directories in place.
        const start = merge(
          ...['viking://r', 'viking://r/a', 'viking://m'].map((uri) => ({
            putNodes: [dir(uri, URIS.indexOf(uri) + 1)],
            putPostings: [posting(URIS.indexOf(uri) + 1)],
          })),
        );
        for (const store of [model, real]) {
          await store.allocateKeys(40);
          await store.commit(start);
        }
        for (const [i, c] of commands.entries()) {
          const expected = await run(model, c);
          expect(await run(real, c), `command ${i}: ${JSON.stringify(c)}`).toEqual(expected);
          if (c.kind === 'commit' && 'value' in (expected as object)) accepted++;
          expect(await real.verify()).toEqual({ ok: true, problems: [] });
          expect(await model.verify()).toEqual({ ok: true, problems: [] });
        }
        expect(await everything(real)).toEqual(await everything(model));
        await real.close();
      }),
      { numRuns: 100 },
    );
    // The generators must reach past the refusals, or this test proves little.
    expect(accepted).toBeGreaterThan(60);
  });
});

// Interrupts IdbStore operations at every request they make (every await point): with a thrown
// QuotaExceededError, a failed request that aborts the transaction, and an AbortSignal. Each time
// the store must pass verify() and hold the operation whole or not at all.

import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../../src/errors.js';
import type { FullStore } from '../../../src/store/full-store.js';
import {
  codeOf,
  EMBEDDER,
  merge,
  node,
  OTHER_EMBEDDER,
  patternBytes,
  relation,
  vector,
  withContent,
} from '../../../src/testing/records.js';
import { observe, seed } from '../../../src/testing/sample-tree.js';
import { idbHarness } from '../harness.js';
import { type Fault, injectFault, quotaError } from './idb-faults.js';

const R = 'viking://resources';
type Keys = Awaited<ReturnType<typeof seed>>;

interface Operation {
  name: string;
  takesSignal: boolean;
  run(store: FullStore, k: Keys, signal?: AbortSignal): Promise<unknown>;
}

const OLD_SNAPSHOT = patternBytes(1000);
const NEW_SNAPSHOT = patternBytes(5 * 1024 * 1024, 9);

const operations: Operation[] = [
  {
    name: 'a commit that deletes, replaces and adds',
    takesSignal: true,
    run: (store, k, signal) =>
      store.commit(
        merge({ deleteNodes: [`${R}/ab`] }, withContent(node(`${R}/a/z`, k.free), [k.free + 1, k.free + 2]), {
          putVectors: [vector(k.vy, k.y, 0)],
          putRelations: [relation(`${R}/a/z`, `${R}/a/x`)],
        }),
        signal,
      ),
  },
  {
    name: 'a two-chunk snapshot replacing an older one',
    takesSignal: true,
    run: (store, _k, signal) => store.putSnapshot({ name: 'hnsw', seq: 2, bytes: NEW_SNAPSHOT }, signal),
  },
  {
    name: 'an embedder reset',
    takesSignal: false,
    run: (store) => store.useEmbedder(OTHER_EMBEDDER, 'reset-vectors'),
  },
  { name: 'a key allocation', takesSignal: false, run: (store) => store.allocateKeys(3) },
];

async function prepared() {
  const h = idbHarness();
  const store = await h.open({ embedder: EMBEDDER });
  const k = await seed(store);
  await store.putSnapshot({ name: 'hnsw', seq: 1, bytes: OLD_SNAPSHOT });
  return { h, store, k };
}

async function state(store: FullStore, chunks: () => Promise<unknown[]>) {
  const snapshot = await store.snapshot('hnsw');
  return {
    ...(await observe(store)),
    meta: await store.meta(),
    snapshot: snapshot && {
      seq: snapshot.seq,
      length: snapshot.bytes.length,
      head: [...snapshot.bytes.subarray(0, 64)],
    },
    chunks: (await chunks()).length,
  };
}

describe('IdbStore interrupted at every await point', () => {
  for (const operation of operations) {
    describe(operation.name, () => {
      const faults: Array<[string, (controller: AbortController) => Fault, string]> = [
        ['a thrown QuotaExceededError', () => ({ kind: 'throw', error: quotaError }), 'QUOTA_EXCEEDED'],
        [
          'a request failing with QuotaExceededError',
          () => ({ kind: 'fail', error: quotaError }),
          'QUOTA_EXCEEDED',
        ],
      ];
      if (operation.takesSignal)
        faults.push(['an abort signal', (controller) => ({ kind: 'signal', controller }), 'ABORTED']);

      for (const [what, fault, code] of faults) {
        it(`${what}: whole or absent, and consistent`, async () => {
          const reference = await prepared();
          const before = await state(reference.store, reference.h.tamper.chunkIds);
          const counter = injectFault(0);
          try {
            await operation.run(reference.store, reference.k);
          } finally {
            counter.restore();
          }
          const total = counter.calls();
          const after = await state(reference.store, reference.h.tamper.chunkIds);
          expect(total).toBeGreaterThan(0);

          const outcomes = new Set<string>();
          for (let at = 1; at <= total; at++) {
            const { h, store, k } = await prepared();
            const controller = new AbortController();
            const injected = injectFault(at, fault(controller));
            let error: unknown;
            try {
              await operation.run(store, k, controller.signal);
            } catch (e) {
              error = e;
            } finally {
              injected.restore();
            }
            const now = await state(store, h.tamper.chunkIds);
            if (error === undefined) {
              outcomes.add('whole');
              expect(now, `call ${at} of ${total}`).toEqual(after);
            } else {
              outcomes.add('absent');
              expect(error, `call ${at} of ${total}`).toBeInstanceOf(LongshipError);
              expect((error as LongshipError).code, `call ${at} of ${total}`).toBe(code);
              if (code === 'QUOTA_EXCEEDED') {
                expect(((error as LongshipError).cause as DOMException).name).toBe('QuotaExceededError');
              }
              expect(now, `call ${at} of ${total}`).toEqual(before);
            }
            expect(await store.verify(), `call ${at} of ${total}`).toEqual({ ok: true, problems: [] });
            await store.close();
          }
          expect(outcomes.has('absent')).toBe(true);
        });
      }
    });
  }

  it('wraps an unknown failure as STORE_ERROR, keeping it as cause', async () => {
    const { store, k } = await prepared();
    const failure = new Error('disk on fire');
    const injected = injectFault(1, { kind: 'throw', error: () => failure });
    const error = await store.commit(withContent(node(`${R}/n`, k.free))).catch((e) => e);
    injected.restore();
    expect(error.code).toBe('STORE_ERROR');
    expect(error.cause).toBe(failure);
    expect(await codeOf(store.commit({ putRelations: [relation(`${R}/a/x`, `${R}/nope`)] }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await store.verify()).ok).toBe(true);
  });
});

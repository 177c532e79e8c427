// The suite every store that keeps a change log and snapshots (ChangeLog) passes, beside the store
// contract (store-contract.ts): `longship/testing` exports it. MemoryStore, IdbStore and FileStore run
// both; a store of your own without a log runs only the store contract (docs/internals/store.md).

import { describe, expect, it } from 'vitest';
import type { ChangeLog, SnapshotRanges } from '../store/change-log.js';
import type { FullStore } from '../store/full-store.js';
import { vectorWipe } from '../store/plan/commit-plan.js';
import type { Store } from '../store/store.js';
import { type ChangeLogHarness, opened } from './harness.js';
import {
  codeOf,
  EMBEDDER,
  merge,
  node,
  OTHER_EMBEDDER,
  patternBytes,
  posting,
  sameBytes,
  vector,
  withContent,
} from './records.js';
import { R, seed } from './sample-tree.js';

/** A snapshot sink into a buffer; `fail` makes its first write throw. */
function arraySink(length: number, fail?: Error) {
  return {
    bytes: new Uint8Array(length),
    disposed: false,
    write(bytes: Uint8Array, offset: number) {
      if (fail) throw fail;
      this.bytes.set(bytes, offset);
    },
    dispose() {
      this.disposed = true;
    },
  };
}

/**
 * Defines the change log contract's tests (with vitest's `describe` and `it`) for the store that
 * `harness` opens: every commit numbered and logged, the log pruned, snapshots written whole or not
 * at all, read whole or into a sink, refused when damaged. Call it at the top level of a vitest test
 * file, beside `storeContract`.
 *
 * @example
 * // my-store.test.ts, run by vitest
 * import { changeLogContract, storeContract } from 'longship/testing';
 * const harness = () => ({ open: () => openMyStore(`test-${crypto.randomUUID()}`) });
 * storeContract('MyStore', harness);
 * changeLogContract('MyStore', harness);
 */
export function changeLogContract(name: string, harness: () => ChangeLogHarness): void {
  const open: Open = async () => {
    const h = harness();
    return { h, ...(await opened(h, { embedder: EMBEDDER })) };
  };
  describe(`${name} keeps a change log`, () => {
    changes(open);
    snapshots(open);
    lifecycle(harness, open);
  });
}

type Open = () => Promise<{ h: ChangeLogHarness; raw: Store & ChangeLog; store: FullStore }>;

/** The change each commit logs, and the log pruned. */
function changes(open: Open): void {
  it('numbers commits and logs what each changed in the derived indexes', async () => {
    const { store } = await open();
    const k = await seed(store);
    const s = (await store.meta()).seq;
    // The vectors replaced and removed are logged as they were, for a replay after a crash.
    const [before] = await store.vectors([k.vy]);
    const gone = await store.vectors(k.vx);
    const replace = await store.commit({
      putVectors: [vector(k.vy, k.y, 0)],
      putPostings: [posting(k.y, 'new')],
    });
    const remove = await store.commit({ deleteNodes: [`${R}/a/x`] });
    expect([replace, remove]).toEqual([s + 1, s + 2]);
    expect(await store.changesSince(s)).toEqual([
      {
        seq: s + 1,
        addedNodeKeys: [],
        removedNodeKeys: [],
        addedVectorKeys: [k.vy],
        removedVectorKeys: [k.vy],
        removedVectors: [before],
        addedPostingKeys: [k.y],
        removedPostingKeys: [k.y],
      },
      {
        seq: s + 2,
        addedNodeKeys: [],
        removedNodeKeys: [k.x],
        addedVectorKeys: [],
        removedVectorKeys: k.vx,
        removedVectors: gone,
        addedPostingKeys: [],
        removedPostingKeys: [k.x],
      },
    ]);
    expect((await store.changesSince(s - 2)).map((c) => c.seq)).toEqual([s - 1, s, s + 1, s + 2]);
    await store.pruneChanges(s + 1);
    expect((await store.changesSince(0)).map((c) => c.seq)).toEqual([s + 2]);
    expect((await store.verify()).ok).toBe(true);
  });

  it('logs node keys: new, replaced, moved and deleted', async () => {
    const { store } = await open();
    const k = await seed(store);
    const s = (await store.meta()).seq;
    const [first] = await store.changesSince(s - 1);
    expect(first).toMatchObject({ addedNodeKeys: [k.x, k.y, k.ab], removedNodeKeys: [] });
    const y = (await store.node(`${R}/a/y`))!;
    await store.commit({ putNodes: [{ ...y, l0: 'changed' }] });
    // A move: the key leaves one URI and arrives at another in one batch.
    await store.commit(merge({ deleteNodes: [`${R}/a/y`] }, withContent(node(`${R}/ac`, k.y))));
    await store.commit({ deleteNodes: [`${R}/ab`] });
    // A use recorded writes the node; one of a node deleted in the same batch records nothing.
    await store.commit({ useNodes: [{ uri: `${R}/a/x`, at: 1 }] });
    await store.commit({ deleteNodes: [`${R}/a/x`], useNodes: [{ uri: `${R}/a/x`, at: 2 }] });
    expect(await store.changesSince(s)).toMatchObject([
      { addedNodeKeys: [k.y], removedNodeKeys: [k.y] },
      { addedNodeKeys: [k.y], removedNodeKeys: [k.y] },
      { addedNodeKeys: [], removedNodeKeys: [k.ab] },
      { addedNodeKeys: [k.x], removedNodeKeys: [k.x] },
      { addedNodeKeys: [], removedNodeKeys: [k.x] },
    ]);
  });

  it('logs planned writes with what they change, and hands back its own last commit', async () => {
    const { raw, store } = await open();
    const k = await seed(store);
    const { seq } = await store.meta();
    const planned = vectorWipe(seq + 1, [k.vy]);
    expect(await raw.write(planned)).toBe(true);
    expect(await store.changesSince(seq)).toEqual([planned.change]);
    const x = (await store.node(`${R}/a/x`))!;
    const committed = await store.commit({ putNodes: [{ ...x, l0: 'again' }] });
    // A store that commits itself without committed() leaves the indexes to read back what it wrote.
    if (raw.committed || !raw.commit) {
      expect(store.committed(committed)).toMatchObject({
        change: { seq: committed },
        nodes: [{ ...x, l0: 'again' }],
      });
    }
    expect(store.committed(committed - 1)).toBeUndefined();
  });
}

/** Snapshots written whole or not at all, and read back the same. */
function snapshots(open: Open): void {
  it('round-trips a multi-chunk snapshot, given whole or in pieces, and replaces it atomically', async () => {
    const { h, raw, store } = await open();
    await seed(store);
    const big = patternBytes(9 * 1024 * 1024 + 5);
    await store.putSnapshot({ name: 'hnsw', seq: 1, bytes: big });
    const got = await store.snapshot('hnsw');
    expect(got?.seq).toBe(1);
    expect(sameBytes(got?.bytes, big)).toBe(true);
    if (h.tamper) expect((await h.tamper.chunkIds()).length).toBe(3);
    // The same bytes written into a sink as they are read, for a reader that puts them where they go.
    const into = await store.snapshotInto('hnsw', (length) => arraySink(length));
    expect(into?.seq).toBe(1);
    expect(into!.sink.disposed).toBe(false);
    expect(sameBytes(into!.sink.bytes, big)).toBe(true);
    // A store that can read the snapshot again says so, and once it is checked offers the sink its
    // ranges: they read the same bytes, across chunks, and a range past the end is a STORE_ERROR.
    let ranged: boolean | undefined;
    let ranges: SnapshotRanges | undefined;
    await store.snapshotInto('hnsw', (length, canRange) => {
      ranged = canRange;
      return { ...arraySink(length), adopt: (given: SnapshotRanges) => (ranges = given) };
    });
    expect(ranges !== undefined).toBe(ranged);
    if (ranges) {
      const at = 4 * 1024 * 1024 - 10;
      const piece = new Uint8Array(100);
      ranges.read(piece, at);
      expect(sameBytes(piece, big.subarray(at, at + 100))).toBe(true);
      expect(() => ranges!.read(new Uint8Array(10), big.length - 5)).toThrow(
        expect.objectContaining({ code: 'STORE_ERROR' }),
      );
      ranges.close();
    }
    // What the sink throws is thrown, and the sink is disposed.
    let failing: ReturnType<typeof arraySink> | undefined;
    const thrown = await store
      .snapshotInto('hnsw', (length) => {
        failing = arraySink(length, new Error('no room'));
        return failing;
      })
      .catch((error: unknown) => error);
    expect(thrown).toEqual(new Error('no room'));
    expect(failing!.disposed).toBe(true);
    // snapshot() hands out a buffer of the caller's own.
    got!.bytes.fill(0);
    expect(sameBytes((await store.snapshot('hnsw'))?.bytes, big)).toBe(true);

    const next = patternBytes(5 * 1024 * 1024, 1);
    async function* pieces() {
      for (let at = 0; at < next.length; at += 1_000_003) yield next.subarray(at, at + 1_000_003);
    }
    await store.putSnapshot({ name: 'hnsw', seq: 2, bytes: pieces() });
    expect(sameBytes((await store.snapshot('hnsw'))?.bytes, next)).toBe(true);
    if (h.tamper) expect((await h.tamper.chunkIds()).length).toBe(2);
    await store.putSnapshot({ name: 'empty', seq: 2, bytes: new Uint8Array(0) });
    expect((await store.snapshot('empty'))?.bytes.length).toBe(0);
    expect(await store.snapshot('none')).toBeUndefined();
    const past = (await store.meta()).seq + 1;
    expect(await codeOf(store.putSnapshot({ name: 'hnsw', seq: past, bytes: next }))).toBe(
      'INVALID_ARGUMENT',
    );
    await store.deleteSnapshot('hnsw');
    expect(await store.snapshot('hnsw')).toBeUndefined();
    if (raw.stats) expect((await store.stats()).snapshots).toBe(1);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('keeps the old snapshot when writing a new one fails or is aborted part way', async () => {
    const { h, store } = await open();
    await seed(store);
    const old = patternBytes(5 * 1024 * 1024);
    await store.putSnapshot({ name: 'hnsw', seq: 1, bytes: old });
    async function* failing() {
      yield patternBytes(6 * 1024 * 1024, 2);
      throw new Error('serializer crashed');
    }
    await expect(store.putSnapshot({ name: 'hnsw', seq: 2, bytes: failing() })).rejects.toThrow(
      'serializer crashed',
    );
    const controller = new AbortController();
    async function* slow() {
      yield patternBytes(5 * 1024 * 1024, 3);
      controller.abort();
      yield patternBytes(5 * 1024 * 1024, 4);
    }
    expect(await codeOf(store.putSnapshot({ name: 'hnsw', seq: 2, bytes: slow() }, controller.signal))).toBe(
      'ABORTED',
    );
    const got = await store.snapshot('hnsw');
    expect(got?.seq).toBe(1);
    expect(sameBytes(got?.bytes, old)).toBe(true);
    if (h.tamper) expect((await h.tamper.chunkIds()).length).toBe(2);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('reports a corrupt or incomplete snapshot as absent, so the caller rebuilds', async ({ skip }) => {
    const { h, raw, store } = await open();
    if (!h.tamper) return skip('the harness cannot tamper');
    await seed(store);
    const bytes = patternBytes(9 * 1024 * 1024);
    await store.putSnapshot({ name: 'flip', seq: 2, bytes });
    await store.putSnapshot({ name: 'drop', seq: 2, bytes });
    await h.tamper.corruptSnapshot('flip', 'flip-byte', 1);
    await h.tamper.corruptSnapshot('drop', 'drop-chunk', 2);
    expect(await store.snapshot('flip')).toBeUndefined();
    expect(await store.snapshot('drop')).toBeUndefined();
    for (const name of ['flip', 'drop']) {
      const sinks: ReturnType<typeof arraySink>[] = [];
      const into = await store.snapshotInto(name, (length) => {
        sinks.push(arraySink(length));
        return sinks.at(-1)!;
      });
      expect(into).toBeUndefined();
      // A sink opened before the damage showed is disposed.
      expect(sinks.every((sink) => sink.disposed)).toBe(true);
    }
    if (raw.verify) expect((await store.verify()).problems).toEqual(['snapshot drop is missing chunk 2']);
  });
}

/** The log across an embedder reset, a reopen, close and destroy. */
function lifecycle(harness: () => ChangeLogHarness, open: Open): void {
  it('logs an embedder reset as every vector removed, and drops the snapshots of the old vectors', async () => {
    const h = harness();
    let { raw, store } = await opened(h, { embedder: EMBEDDER });
    const k = await seed(store);
    await store.putSnapshot({ name: 'hnsw', seq: 2, bytes: patternBytes(100) });
    const { seq } = await store.meta();
    await store.close();
    ({ raw, store } = await opened(h, { embedder: OTHER_EMBEDDER, onEmbedderMismatch: 'reset-vectors' }));
    const [reset] = await store.changesSince(seq);
    expect(reset).toMatchObject({
      seq: seq + 1,
      addedNodeKeys: [],
      removedNodeKeys: [],
      addedVectorKeys: [],
    });
    expect(reset?.removedVectorKeys).toEqual([...k.vx, k.vy, k.vy + 1]);
    // A reset the engine makes of write() leaves them: the graph's no longer loads, and is rebuilt.
    if (raw.useEmbedder) expect(await store.snapshot('hnsw')).toBeUndefined();
  });

  it('keeps the log and the snapshots across close and reopen', async () => {
    const h = harness();
    let { store } = await opened(h, { embedder: EMBEDDER });
    await seed(store);
    await store.putSnapshot({ name: 'hnsw', seq: 2, bytes: patternBytes(1000) });
    const changes = await store.changesSince(0);
    await store.close();
    ({ store } = await opened(h, { embedder: EMBEDDER }));
    expect(await store.changesSince(0)).toEqual(changes);
    expect(sameBytes((await store.snapshot('hnsw'))?.bytes, patternBytes(1000))).toBe(true);
  });

  it('fails every call with STORE_CLOSED once closed', async () => {
    const { raw } = await open();
    await raw.close();
    const snapshot = { name: 's', seq: 0, bytes: new Uint8Array(1) };
    expect(await codeOf(raw.changesSince(0))).toBe('STORE_CLOSED');
    expect(await codeOf(raw.pruneChanges(0))).toBe('STORE_CLOSED');
    expect(await codeOf(raw.putSnapshot(snapshot))).toBe('STORE_CLOSED');
    expect(await codeOf(raw.snapshot('s'))).toBe('STORE_CLOSED');
    expect(await codeOf(raw.deleteSnapshot('s'))).toBe('STORE_CLOSED');
  });
}

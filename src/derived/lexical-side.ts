// The lexical side: a BM25 index over every stored posting, keyed by posting key. Loaded from its
// snapshot, it may read its postings later, a term's list at a time, from the store's file
// (lazy-snapshot-sink.ts).

import { LongshipError } from '../errors.js';
import type { LexicalIndex, LexicalIndexFactory, LexicalIndexOptions } from '../lexical/lexical-index.js';
import type { FullStore } from '../store/full-store.js';
import type { ChangeRecord, CommittedChange, PostingRecord } from '../store/store.js';
import { addedRecords, keysOf } from './change-replay.js';
import { type DerivedSide, SCAN_BATCH, type SideSnapshot, snapshotNames } from './derived-side.js';
import { lexicalIndexProblems } from './index-checks.js';
import { LazySnapshotSink } from './lazy-snapshot-sink.js';
import { postingDoc } from './posting-doc.js';

export class LexicalSide implements DerivedSide<(PostingRecord | undefined)[]> {
  readonly name = 'lexical';
  readonly #factory: LexicalIndexFactory;
  /** Used when the index is built from scratch; a snapshot keeps the options it was built with. */
  readonly #settings: LexicalIndexOptions | undefined;
  #index: LexicalIndex | undefined;
  /** The file the loaded index reads its postings from, until it has read them all. */
  #file: LazySnapshotSink | undefined;

  constructor(factory: LexicalIndexFactory, settings: LexicalIndexOptions | undefined) {
    this.#factory = factory;
    this.#settings = settings;
  }

  /** The index. Replaced on a rebuild: read it each time, never across an await. */
  get index(): LexicalIndex {
    if (!this.#index) throw new LongshipError('DISPOSED', 'the derived indexes were closed');
    return this.#index;
  }

  async load(store: FullStore): Promise<number | undefined> {
    const later = this.#factory.postingsSection;
    const read = await store.snapshotInto(
      snapshotNames.lexical,
      (length, ranged) => new LazySnapshotSink(length, ranged ? later : undefined),
    );
    if (!read) return undefined;
    const { sink } = read;
    const { k1, b } = this.#settings ?? {};
    let index: LexicalIndex;
    try {
      // The store checked the bytes against the checksum it took when they were written.
      index = this.#factory.load(sink.bytes, { k1, b, verified: true, postings: sink.unread() });
    } catch (error) {
      sink.dispose();
      throw error;
    }
    this.#replace(index, sink);
    return read.seq;
  }

  async rebuild(store: FullStore): Promise<void> {
    const index = this.#factory.create(this.#settings);
    for await (const rows of store.scan('postings', SCAN_BATCH)) {
      for (const posting of rows) index.replace(postingDoc(posting));
    }
    this.#replace(index, undefined);
  }

  async read(
    store: FullStore,
    changes: readonly ChangeRecord[],
    own: CommittedChange | undefined,
  ): Promise<(PostingRecord | undefined)[]> {
    return addedRecords(changes, 'addedPostingKeys', own?.postings, (key) => store.posting(key));
  }

  apply(changes: readonly ChangeRecord[], postings: (PostingRecord | undefined)[]): boolean {
    const index = this.index;
    const touched = keysOf(changes, 'removedPostingKeys', 'addedPostingKeys');
    for (const key of touched) index.remove(key);
    for (const posting of postings) if (posting) index.replace(postingDoc(posting));
    return touched.size > 0;
  }

  async settled(): Promise<void> {}

  serialize(): SideSnapshot[] {
    return [{ name: snapshotNames.lexical, bytes: this.index.serialize() }];
  }

  problems(store: FullStore): Promise<string[]> {
    return lexicalIndexProblems(store, this.index, this.#factory.create(this.#settings));
  }

  dispose(): void {
    this.#file?.dispose();
    this.#file = undefined;
    this.#index = undefined;
  }

  /** `file`: what the index reads its postings from later, let go when the index is. */
  #replace(index: LexicalIndex, file: LazySnapshotSink | undefined): void {
    this.#file?.dispose();
    this.#index = index;
    this.#file = file;
  }
}

/** The parts of a node's text that the lexical index weighs separately. */
export type LexicalField = 'title' | 'headings' | 'body';

/** One node's text. `key` is the node's numeric key, the same one its vectors use. */
export interface LexicalDoc {
  key: number;
  title?: string;
  /** The node's heading path, e.g. "Errors › Codes". */
  headings?: string;
  body: string;
}

export interface LexicalIndexOptions {
  /** BM25 term-frequency saturation. Default 1.2. */
  k1?: number;
  /** BM25 length normalisation, from 0 (none) to 1 (full). Default 0.75. */
  b?: number;
  /**
   * BM25F field weights: a term in a field of weight w counts as w occurrences, and the field adds
   * w times its length. Default `{ title: 2, headings: 1.5, body: 1 }`. Each weight is a multiple
   * of 1/20 from 0 to 8 (0 leaves the field out). Weights are fixed when the index is built; a
   * snapshot keeps them.
   */
  fieldWeights?: Partial<Record<LexicalField, number>>;
}

/** What {@link loadLexicalIndex} may change: scoring parameters, not how the index was built. */
export interface LexicalLoadOptions extends Pick<LexicalIndexOptions, 'k1' | 'b'> {
  /**
   * The bytes are a snapshot's as written, checked against a checksum taken then (a store's
   * snapshots are): the snapshot's own checksum and its posting-by-posting and term-by-term checks
   * are skipped (at 100k documents, ~70 ms of a cold open in Chromium). Its header, sections and
   * offsets are still checked. Default false: bytes from anywhere else get every check.
   */
  verified?: boolean;
  /**
   * Postings read when first needed, for `verified` bytes only: the bytes hold every section of the
   * snapshot but its postings, which may be left unwritten (a page never written costs no memory), and
   * `postings` reads them. A search reads the lists of its terms; the first removal, compaction or
   * `serialize()` reads all that are left. At 100k documents the postings are ~15 MB of a 20 MB
   * snapshot, and a cold open that reads them whole puts them all in fresh memory.
   */
  postings?: UnreadPostingsSource;
}

/** Where a loaded index reads the postings it was loaded without (see LexicalLoadOptions.postings). */
export interface UnreadPostingsSource {
  /** Fills `into` with the snapshot's bytes from byte `at`, or throws. */
  read(into: Uint8Array, at: number): void;
  /** Every list has been read: `read` is not called again. */
  done(): void;
}

export interface LexicalSearchOptions {
  /** Most hits returned, best first. Default 10. */
  limit?: number;
  /** Only these keys may be returned: a set, or a predicate called once per candidate. */
  allow?: ((key: number) => boolean) | ReadonlySet<number>;
  /** Also match indexed terms that start with a query term. Off by default. */
  prefix?: boolean;
  /**
   * The statistics to score with instead of the index's own: those of the documents searched
   * (find()'s scope), or summed over the shards of a corpus. Not with `prefix` or `fuzzy`.
   */
  statistics?: CorpusStatistics;
  /**
   * Also match terms within this edit distance: a whole number of edits, or a fraction of the
   * term's length below 1. Off by default.
   */
  fuzzy?: number;
  /**
   * `false`: every hit within `limit`, in no particular order, for a caller that wants the scores
   * of thousands of matches and only the order of a few (sorting them all costs more than scoring).
   * Only with an infinite `limit`. Default true.
   */
  sorted?: boolean;
}

/**
 * What BM25 knows of a corpus: how many documents, their total weighted length (in the index's own
 * units: indexes built with the same settings share them), and how many documents hold each
 * analysed query term. Sums of disjoint corpora's statistics are the statistics of their union.
 */
export interface CorpusStatistics {
  documents: number;
  length: number;
  terms: Readonly<Record<string, number>>;
}

export interface LexicalHit {
  key: number;
  /** The BM25 score: higher is better; comparable only within one index and one query. */
  score: number;
}

/**
 * A BM25 index over nodes' text, kept beside the vector index and updated with it.
 * Keys are non-negative integers below 2^53.
 *
 * @example
 * const index = createLexicalIndex();
 * index.add({ key: 1, title: 'Errors', body: 'ERR_INVALID_ARG is thrown when…' });
 * index.search('ERR_INVALID_ARG'); // [{ key: 1, score: 2.1 }]
 */
export interface LexicalIndex {
  /** Documents present. */
  readonly size: number;
  /** Throws `DUPLICATE_KEY` if the key is present; use {@link LexicalIndex.replace} to update. */
  add(doc: LexicalDoc): void;
  /** Adds the document, or replaces the one with the same key. */
  replace(doc: LexicalDoc): void;
  /** Returns whether the key was present. */
  remove(key: number): boolean;
  has(key: number): boolean;
  /** Hits sorted by descending score, ties by ascending key. Only documents sharing a term match. */
  search(query: string, options?: LexicalSearchOptions): LexicalHit[];
  /**
   * The statistics of the documents `allow` admits, for `query`'s terms. `totals`, when given, are
   * taken as their documents and length (a caller that keeps them skips a pass over every document).
   * Optional: a caller without it scores with the index's own statistics.
   */
  statistics?(
    query: string,
    allow: (key: number) => boolean,
    totals?: Pick<CorpusStatistics, 'documents' | 'length'>,
  ): CorpusStatistics;
  /**
   * A binary snapshot for {@link loadLexicalIndex}. It records the analyzer and format version it
   * was written with, and a checksum; a snapshot from another analyzer or version will not load.
   */
  serialize(): Uint8Array;
}

/**
 * Makes lexical indexes for a component that must not choose their implementation (the derived
 * indexes): the engine passes one in (`bm25Indexes` in bm25-index.ts).
 */
export interface LexicalIndexFactory {
  create(options?: LexicalIndexOptions): LexicalIndex;
  /** Reads what {@link LexicalIndex.serialize} wrote. */
  load(bytes: Uint8Array, options?: LexicalLoadOptions): LexicalIndex;
  /**
   * Where a snapshot of `byteLength` bytes keeps the postings a load may read later (see
   * {@link LexicalLoadOptions.postings}), from its first bytes; undefined when it is not known.
   */
  postingsSection?(head: Uint8Array, byteLength: number): { start: number; end: number } | undefined;
}

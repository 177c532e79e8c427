// The BM25F index Longship used before src/lexical/bm25-index.ts, kept as the reference the new
// index is tested and benchmarked against (its ranking must stay identical). Not part of the library.
import MiniSearch, { type AsPlainObject, type SearchOptions } from 'minisearch';
import { LongshipError } from '../../src/errors.js';
import { ANALYZER_ID, analyze, analyzeToken, tokenize } from '../../src/lexical/analyzer.js';
import { DEFAULT_WEIGHTS, FIELDS, settingsFrom, weightScale } from '../../src/lexical/bm25-settings.js';
import type {
  LexicalDoc,
  LexicalField,
  LexicalHit,
  LexicalIndex,
  LexicalIndexOptions,
  LexicalLoadOptions,
  LexicalSearchOptions,
} from '../../src/lexical/lexical-index.js';

const SNAPSHOT_FORMAT = 'longship-lexical';
const SNAPSHOT_VERSION = 1;
const DEFAULT_LIMIT = 10;

// MiniSearch scores each field with its own BM25 and sums the fields, so a term in both title and
// body saturates twice; on SciFact that scored nDCG@10 0.652 (title boost 2) against 0.705 for
// BM25F, where fields are weighted before saturation. So all fields go into one indexed field, and
// MiniSearch receives a document already analysed: it takes a field's length to be the number of
// distinct strings the tokenizer returns, and a term's frequency to be how often processTerm yields
// it. `pack` and `unpack` give it a first token that yields every term as often as it occurs, then
// numbered empty tokens up to the length. The length is the number of word positions (weighted), as
// in classic BM25, rather than MiniSearch's count of distinct tokens.
const INDEXED_FIELD = 'text';
const TOKEN_SEPARATOR = '\u0001';
const TERM_SEPARATOR = '\u0000';
const COUNT_SEPARATOR = '\u0002';

interface Settings {
  k1: number;
  b: number;
  fieldWeights: Record<LexicalField, number>;
}

interface Snapshot extends Settings {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  analyzer: string;
  index: AsPlainObject;
}

interface IndexedDoc {
  id: number;
  text: string;
}

/** A document's weighted length and its terms with their weighted frequencies. */
interface Analysed {
  length: number;
  counts: Map<string, number>;
}

// What remove(key) needs to take a document out exactly: MiniSearch's remove() wants the document
// again, and discard() leaves postings behind that skew document frequencies until a vacuum (each
// search meeting one only lowers its count by one). Kept per key as `term␂count␁term…`, about
// two thirds the size of the text (SciFact); rebuilt from the postings on load, so snapshots do
// not carry it.
interface Forward {
  length: number;
  terms: string;
}

/**
 * A {@link LexicalIndex} on MiniSearch: BM25F over title, headings and body, with Longship's
 * analyzer (identifiers kept whole and split, stopwords, Porter stemming).
 */
export class MiniSearchIndex implements LexicalIndex {
  readonly #search: MiniSearch<IndexedDoc>;
  readonly #forward: Map<number, Forward>;
  readonly #settings: Settings;
  // Weights become whole repeat counts by scaling them all by `#scale`; BM25 with k1 × scale then
  // ranks exactly as the unscaled weights would, and `#norm` restores the unscaled score.
  readonly #scale: number;
  readonly #repeats: Record<LexicalField, number>;
  readonly #norm: number;

  private constructor(settings: Settings, snapshot?: AsPlainObject) {
    this.#settings = settings;
    this.#scale = weightScale(settings.fieldWeights);
    this.#repeats = {
      title: Math.round(settings.fieldWeights.title * this.#scale),
      headings: Math.round(settings.fieldWeights.headings * this.#scale),
      body: Math.round(settings.fieldWeights.body * this.#scale),
    };
    this.#norm = (settings.k1 + 1) / (settings.k1 * this.#scale + 1);
    const options = {
      fields: [INDEXED_FIELD],
      tokenize: unpack,
      processTerm: (token: string) =>
        token.startsWith(TERM_SEPARATOR) ? token.slice(1).split(TERM_SEPARATOR) : null,
      searchOptions: { tokenize: analyze, processTerm: (term: string) => term },
      // Documents leave through remove(), never discard(), so there is nothing to vacuum.
      autoVacuum: false,
    };
    if (!snapshot) {
      this.#search = new MiniSearch<IndexedDoc>(options);
      this.#forward = new Map();
      return;
    }
    try {
      this.#search = MiniSearch.loadJS<IndexedDoc>(snapshot, options);
      this.#forward = forwardFrom(snapshot);
    } catch (cause) {
      throw new LongshipError('CORRUPT_INDEX', 'The lexical index snapshot could not be read.', { cause });
    }
    if (this.#forward.size !== this.#search.documentCount) {
      throw new LongshipError('CORRUPT_INDEX', 'The lexical index snapshot lists documents inconsistently.');
    }
  }

  static create(options: LexicalIndexOptions = {}): MiniSearchIndex {
    return new MiniSearchIndex(settingsFrom(options, DEFAULT_WEIGHTS));
  }

  static load(json: unknown, options: LexicalLoadOptions = {}): MiniSearchIndex {
    const snapshot = parseSnapshot(json);
    let built: Settings;
    try {
      built = settingsFrom({ k1: snapshot.k1, b: snapshot.b }, snapshot.fieldWeights);
    } catch (cause) {
      throw new LongshipError('CORRUPT_INDEX', 'The lexical index snapshot has invalid settings.', { cause });
    }
    const settings = settingsFrom(
      { k1: options.k1 ?? built.k1, b: options.b ?? built.b },
      built.fieldWeights,
    );
    return new MiniSearchIndex(settings, snapshot.index);
  }

  get size(): number {
    return this.#search.documentCount;
  }

  add(doc: LexicalDoc): void {
    checkDoc(doc);
    if (this.#forward.has(doc.key)) {
      throw new LongshipError('DUPLICATE_KEY', `Key ${doc.key} is already in the lexical index.`);
    }
    this.#insert(doc);
  }

  replace(doc: LexicalDoc): void {
    checkDoc(doc);
    this.remove(doc.key);
    this.#insert(doc);
  }

  remove(key: number): boolean {
    const forward = this.#forward.get(key);
    if (!forward) return false;
    const counts = new Map<string, number>();
    for (const entry of forward.terms ? forward.terms.split(TOKEN_SEPARATOR) : []) {
      const split = entry.lastIndexOf(COUNT_SEPARATOR);
      counts.set(entry.slice(0, split), Number(entry.slice(split + 1)));
    }
    this.#search.remove({ id: key, text: pack({ length: forward.length, counts }) });
    this.#forward.delete(key);
    return true;
  }

  has(key: number): boolean {
    return this.#forward.has(key);
  }

  search(query: string, options: LexicalSearchOptions = {}): LexicalHit[] {
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!(limit >= 0) || (Number.isFinite(limit) && !Number.isInteger(limit))) {
      throw new LongshipError('INVALID_ARGUMENT', `limit must be a whole number ≥ 0, not ${limit}.`);
    }
    if (limit === 0) return [];
    const allow = options.allow;
    const allowed =
      allow === undefined ? undefined : typeof allow === 'function' ? allow : (key: number) => allow.has(key);
    const searchOptions: SearchOptions = {
      bm25: { k: this.#settings.k1 * this.#scale, b: this.#settings.b, d: 0 },
      prefix: options.prefix ?? false,
      fuzzy: options.fuzzy || false,
      // A zero boost skips the document before it is scored.
      boostDocument: allowed && ((key: number) => (allowed(key) ? 1 : 0)),
    };
    const hits: LexicalHit[] = [];
    for (const result of this.#search.search(query, searchOptions)) {
      // MiniSearch multiplies the BM25 sum by the number of query terms matched; classic BM25
      // does not, and the product ranked worse on SciFact (nDCG@10 0.680 against 0.702).
      const score = (result.score / (result.terms.length || 1)) * this.#norm;
      hits.push({ key: result.id as number, score });
    }
    hits.sort((a, b) => b.score - a.score || a.key - b.key);
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }

  serialize(): Uint8Array {
    return new TextEncoder().encode(JSON.stringify(this.toJSON()));
  }

  toJSON(): Snapshot {
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      analyzer: ANALYZER_ID,
      k1: this.#settings.k1,
      b: this.#settings.b,
      fieldWeights: { ...this.#settings.fieldWeights },
      index: this.#search.toJSON(),
    };
  }

  #insert(doc: LexicalDoc): void {
    const analysed = this.#analyse(doc);
    this.#search.add({ id: doc.key, text: pack(analysed) });
    const terms: string[] = [];
    for (const [term, count] of analysed.counts) terms.push(term + COUNT_SEPARATOR + count);
    this.#forward.set(doc.key, { length: analysed.length, terms: terms.join(TOKEN_SEPARATOR) });
  }

  #analyse(doc: LexicalDoc): Analysed {
    const counts = new Map<string, number>();
    let length = 0;
    for (const field of FIELDS) {
      const text = doc[field];
      const repeat = this.#repeats[field];
      if (!text || repeat === 0) continue;
      for (const token of tokenize(text)) {
        const terms = analyzeToken(token);
        if (terms.length === 0) continue;
        length += repeat;
        for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + repeat);
      }
    }
    return { length, counts };
  }
}

/** The text MiniSearch indexes for an analysed document (see the note on INDEXED_FIELD). */
function pack({ length, counts }: Analysed): string {
  const emitted: string[] = [];
  for (const [term, count] of counts) for (let i = 0; i < count; i++) emitted.push(term);
  return length + TOKEN_SEPARATOR + emitted.join(TERM_SEPARATOR);
}

// Position tokens are the same strings in every document; the common ones are made once.
const POSITIONS: readonly string[] = Array.from({ length: 1024 }, (_, i) => i.toString(36));

/** MiniSearch's tokenizer: one token carrying every term, then `length − 1` position tokens. */
function unpack(text: string): string[] {
  const split = text.indexOf(TOKEN_SEPARATOR);
  const length = Number(text.slice(0, split));
  if (!(length > 0)) return [];
  const tokens = POSITIONS.slice(0, length);
  for (let i = tokens.length; i < length; i++) tokens.push(i.toString(36));
  tokens[0] = TERM_SEPARATOR + text.slice(split + 1);
  return tokens;
}

function forwardFrom(snapshot: AsPlainObject): Map<number, Forward> {
  const fieldId = String(snapshot.fieldIds[INDEXED_FIELD]);
  const terms = new Map<string, string[]>();
  for (const [term, fields] of snapshot.index) {
    for (const [shortId, count] of Object.entries(fields[fieldId] ?? {})) {
      const list = terms.get(shortId) ?? [];
      if (list.length === 0) terms.set(shortId, list);
      list.push(term + COUNT_SEPARATOR + count);
    }
  }
  const forward = new Map<number, Forward>();
  for (const [shortId, key] of Object.entries(snapshot.documentIds)) {
    const length = snapshot.fieldLength[shortId]?.[Number(fieldId)];
    if (typeof key !== 'number' || typeof length !== 'number')
      throw new TypeError(`Bad document ${shortId}.`);
    forward.set(key, { length, terms: (terms.get(shortId) ?? []).join(TOKEN_SEPARATOR) });
  }
  return forward;
}

/**
 * A new, empty BM25 index on MiniSearch.
 *
 * @example
 * const index = createMiniSearchIndex({ fieldWeights: { title: 3 } });
 * index.add({ key: 7, title: 'readFileSync', body: 'Reads a whole file.' });
 * index.search('read file sync', { limit: 5 }); // [{ key: 7, score: … }]
 */
export function createMiniSearchIndex(options?: LexicalIndexOptions): LexicalIndex {
  return MiniSearchIndex.create(options);
}

/**
 * Rebuilds an index from its snapshot: serialize()'s bytes, the toJSON() object, or its JSON text.
 * Throws `CORRUPT_INDEX` if the snapshot is malformed or was made by another analyzer version.
 *
 * @example
 * const copy = loadMiniSearchIndex(index.serialize());
 */
export function loadMiniSearchIndex(snapshot: unknown, options?: LexicalLoadOptions): LexicalIndex {
  const json = snapshot instanceof Uint8Array ? new TextDecoder().decode(snapshot) : snapshot;
  return MiniSearchIndex.load(json, options);
}

function checkDoc(doc: LexicalDoc): void {
  if (!(Number.isSafeInteger(doc.key) && doc.key >= 0)) {
    throw new LongshipError('INVALID_ARGUMENT', `A key must be an integer in [0, 2^53), not ${doc.key}.`);
  }
  for (const field of FIELDS) {
    const text = doc[field];
    if (text !== undefined && typeof text !== 'string') {
      throw new LongshipError('INVALID_ARGUMENT', `The ${field} of key ${doc.key} must be a string.`);
    }
  }
}

function parseSnapshot(json: unknown): Snapshot {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (cause) {
      throw new LongshipError('CORRUPT_INDEX', 'The lexical index snapshot is not valid JSON.', { cause });
    }
  }
  const snapshot = value as Partial<Snapshot> | null;
  if (
    typeof snapshot !== 'object' ||
    snapshot === null ||
    snapshot.format !== SNAPSHOT_FORMAT ||
    snapshot.version !== SNAPSHOT_VERSION ||
    typeof snapshot.k1 !== 'number' ||
    typeof snapshot.b !== 'number' ||
    typeof snapshot.fieldWeights !== 'object' ||
    typeof snapshot.index !== 'object' ||
    snapshot.index === null ||
    snapshot.index.serializationVersion !== 2
  ) {
    throw new LongshipError('CORRUPT_INDEX', 'This is not a Longship lexical index snapshot (version 1).');
  }
  if (snapshot.analyzer !== ANALYZER_ID) {
    throw new LongshipError(
      'CORRUPT_INDEX',
      `The snapshot was analysed by ${String(snapshot.analyzer)}, not ${ANALYZER_ID}; rebuild it from the nodes.`,
    );
  }
  return snapshot as Snapshot;
}

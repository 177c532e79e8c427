// Over 400 lines on purpose: Bm25Index is one class whose methods all read its private postings,
// slots and dictionary. What needs none of that state is in its own files already (analyzer,
// posting-arena, term-dictionary, term-match, top-hits, bm25-snapshot, unread-postings).
import { LongshipError } from '../errors.js';
import { analyze, analyzeToken, tokenize } from './analyzer.js';
import { type Bm25Settings, DEFAULT_WEIGHTS, FIELDS, settingsFrom, weightScale } from './bm25-settings.js';
import { type Bm25Snapshot, decodeSnapshot, encodeSnapshot, postingsSection } from './bm25-snapshot.js';
import type {
  CorpusStatistics,
  LexicalDoc,
  LexicalHit,
  LexicalIndex,
  LexicalIndexFactory,
  LexicalIndexOptions,
  LexicalLoadOptions,
  LexicalSearchOptions,
} from './lexical-index.js';
import { grown, PostingArena, packedLayout, RUNS } from './posting-arena.js';
import { TermDictionary } from './term-dictionary.js';
import { boundedEditDistance, lowerBound } from './term-match.js';
import { topHits } from './top-hits.js';
import { UnreadPostings } from './unread-postings.js';

const DEFAULT_LIMIT = 10;
const MAX_FREQUENCY = 0xffffffff;
// Prefix and fuzzy matches weigh as in MiniSearch, which this index replaced.
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;
// Analysing a token (regular expressions, Porter stemming) is most of the cost of adding a
// document, and text repeats its tokens: their terms are memoised, up to this many tokens.
const TOKEN_CACHE_SIZE = 1 << 16;
// Removed documents stay in the postings (skipped when hits are collected) until they are a
// quarter of all slots; then one pass rewrites the postings without them.
const COMPACT_MIN = 64;

/**
 * A {@link LexicalIndex} of its own: BM25F over title, headings and body, with Longship's
 * analyzer. Field weights apply before saturation: a term in a field of weight w counts w times,
 * and the field adds w times its length. Postings are (document slot, weighted term frequency)
 * pairs in one typed array; a search accumulates scores in a dense array over the slots, then
 * selects the best with a heap.
 */
export class Bm25Index implements LexicalIndex {
  readonly #settings: Bm25Settings;
  // Frequencies and lengths are whole numbers in units of 1/#scale (see weightScale).
  readonly #scale: number;
  readonly #repeats: readonly number[];

  #terms = TermDictionary.of();
  #postings = new PostingArena();
  /** The loaded snapshot's lists not read yet (LexicalLoadOptions.postings); undefined once all are. */
  #unread: UnreadPostings | undefined;
  /** Live documents per term (postings may still hold removed ones). */
  #df = new Uint32Array(256);
  /** Term ids in term order, for prefix and fuzzy matching; built when first needed. */
  #sorted: Uint32Array | undefined;

  /** Key → slot; undefined after a load or a compaction until a key is looked up (see #slotMap). */
  #slotOf: Map<number, number> | undefined = new Map();
  #slots = 0;
  #keys = new Float64Array(16);
  #lengths = new Float64Array(16);
  #alive = new Uint8Array(16);
  /**
   * Forward index: slot s's (term, frequency) pairs are `pairs[start[s]]` up to `pairs[start[s + 1]]`.
   * Only removals need it, so a loaded index derives it from the postings at its first removal.
   */
  #forward: Forward | undefined = { pairs: new Uint32Array(64), start: new Uint32Array(17) };
  #live = 0;
  #dead = 0;
  #totalLength = 0;

  readonly #tokenTerms = new Map<string, readonly string[]>();

  // Search scratch, one entry per slot; scores are back to 0 after every search.
  #scores = new Float64Array(16);
  #touched = new Uint32Array(16);

  private constructor(settings: Bm25Settings) {
    this.#settings = settings;
    this.#scale = weightScale(settings.fieldWeights);
    this.#repeats = FIELDS.map((field) => Math.round(settings.fieldWeights[field] * this.#scale));
  }

  static create(options: LexicalIndexOptions = {}): Bm25Index {
    return new Bm25Index(settingsFrom(options, DEFAULT_WEIGHTS));
  }

  static load(bytes: Uint8Array, options: LexicalLoadOptions = {}): Bm25Index {
    const verified = options.verified ?? false;
    const { postings } = options;
    if (postings && !verified) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        'Postings read later need verified bytes (verified: true).',
      );
    }
    const snapshot = decodeSnapshot(bytes, { verified });
    const built = snapshot.settings;
    const index = new Bm25Index(
      settingsFrom({ k1: options.k1 ?? built.k1, b: options.b ?? built.b }, built.fieldWeights),
    );
    index.#restore(snapshot, verified);
    if (postings) {
      // decodeSnapshot has checked the header this section is found from.
      const { start } = postingsSection(bytes, bytes.length)!;
      const step = snapshot.slotBits > 0 ? 1 : 2;
      index.#unread = new UnreadPostings(postings, snapshot.postings, start, step, snapshot.offsets);
    }
    return index;
  }

  get size(): number {
    return this.#live;
  }

  add(doc: LexicalDoc): void {
    checkDoc(doc);
    if (this.#slotMap().has(doc.key)) {
      throw new LongshipError('DUPLICATE_KEY', `Key ${doc.key} is already in the lexical index.`);
    }
    this.#insert(doc);
  }

  replace(doc: LexicalDoc): void {
    checkDoc(doc);
    const counts = this.#analyse(doc);
    this.remove(doc.key);
    this.#insertAnalysed(doc.key, counts);
  }

  remove(key: number): boolean {
    const slot = this.#slotMap().get(key);
    if (slot === undefined) return false;
    const forward = this.#forwardIndex();
    const end = forward.start[slot + 1]!;
    for (let i = forward.start[slot]!; i < end; i += 2) this.#df[forward.pairs[i]!]!--;
    this.#totalLength -= this.#lengths[slot]!;
    this.#alive[slot] = 0;
    this.#slotMap().delete(key);
    this.#live--;
    this.#dead++;
    if (this.#dead >= COMPACT_MIN && this.#dead * 4 >= this.#slots) this.#compact();
    return true;
  }

  has(key: number): boolean {
    return this.#slotMap().has(key);
  }

  search(query: string, options: LexicalSearchOptions = {}): LexicalHit[] {
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!(limit >= 0) || (Number.isFinite(limit) && !Number.isInteger(limit))) {
      throw new LongshipError('INVALID_ARGUMENT', `limit must be a whole number ≥ 0, not ${limit}.`);
    }
    const fuzzy = options.fuzzy ?? 0;
    if (!(fuzzy >= 0 && Number.isFinite(fuzzy))) {
      throw new LongshipError('INVALID_ARGUMENT', `fuzzy must be a finite number ≥ 0, not ${fuzzy}.`);
    }
    const sorted = options.sorted ?? true;
    if (!sorted && Number.isFinite(limit)) {
      throw new LongshipError('INVALID_ARGUMENT', 'sorted: false needs limit: Infinity.');
    }
    // With every document empty, nothing can match (and the average length would be 0).
    if (limit === 0 || this.#totalLength === 0) return [];
    const { statistics } = options;
    if (statistics && (options.prefix || fuzzy > 0)) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        'statistics cannot be given with prefix or fuzzy matching.',
      );
    }
    const weights = this.#queryWeights(query, options.prefix ?? false, fuzzy);
    if (weights.size === 0) return [];
    if (this.#unread) for (const term of weights.keys()) this.#unread.need(term);
    const names = statistics ? this.#terms.all() : undefined;

    const { k1, b } = this.#settings;
    const scores = this.#scores;
    const touched = this.#touched;
    const lengths = this.#lengths;
    const postings = this.#postings;
    const n = statistics ? statistics.documents : this.#live;
    const totalLength = statistics ? statistics.length : this.#totalLength;
    if (!(totalLength > 0)) return [];
    // k1 · (1 − b + b · length / average), in the units the lengths and frequencies are kept in.
    const base = k1 * this.#scale * (1 - b);
    const perLength = (k1 * this.#scale * b * n) / totalLength;
    let count = 0;
    for (const [term, weight] of weights) {
      const df = names ? (statistics!.terms[names[term]!] ?? 0) : this.#df[term]!;
      // A term no document of the corpus holds cannot be in this one's postings either.
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const factor = weight * idf * (k1 + 1);
      // Inline, not a callback per run: the hot loop keeps `count` in a register.
      for (const run of RUNS) {
        const list = postings.runList(run);
        const end = postings.runEnd(term, run);
        const { step, mask, tfAt, shift } = postings.runLayout(run);
        for (let i = postings.runStart(term, run); i < end; i += step) {
          const slot = list[i]! & mask;
          const tf = list[i + tfAt]! >>> shift;
          const score = scores[slot]!;
          // Every contribution is > 0, so 0 means "not yet touched".
          if (score === 0) touched[count++] = slot;
          // tf / (tf + …) first: with k1 = 0 it is exactly 1, so equal documents tie exactly.
          scores[slot] = score + factor * (tf / (tf + base + perLength * lengths[slot]!));
        }
      }
    }
    try {
      const accumulated = { scores, touched, count, keys: this.#keys, alive: this.#alive };
      return topHits(accumulated, limit, options.allow, sorted);
    } finally {
      for (let i = 0; i < count; i++) scores[touched[i]!] = 0;
    }
  }

  statistics(
    query: string,
    allow: (key: number) => boolean,
    totals?: Pick<CorpusStatistics, 'documents' | 'length'>,
  ): CorpusStatistics {
    const counted = totals ?? this.#totals(allow);
    const terms: Record<string, number> = {};
    const names = this.#terms.all();
    for (const id of this.#queryWeights(query, false, 0).keys()) {
      this.#unread?.need(id);
      let df = 0;
      for (const run of RUNS) {
        const list = this.#postings.runList(run);
        const end = this.#postings.runEnd(id, run);
        const { step, mask } = this.#postings.runLayout(run);
        for (let i = this.#postings.runStart(id, run); i < end; i += step) {
          const slot = list[i]! & mask;
          if (this.#alive[slot] && allow(this.#keys[slot]!)) df++;
        }
      }
      if (df > 0) terms[names[id]!] = df;
    }
    return { documents: counted.documents, length: counted.length, terms };
  }

  /** How many live documents `allow` admits, and their total weighted length. */
  #totals(allow: (key: number) => boolean): Pick<CorpusStatistics, 'documents' | 'length'> {
    let documents = 0;
    let length = 0;
    for (let slot = 0; slot < this.#slots; slot++) {
      if (!this.#alive[slot] || !allow(this.#keys[slot]!)) continue;
      documents++;
      length += this.#lengths[slot]!;
    }
    return { documents, length };
  }

  serialize(): Uint8Array {
    this.#readAll();
    if (this.#dead > 0) this.#compact();
    const { offsets, postings } = this.#postings.packed();
    return encodeSnapshot({
      settings: this.#settings,
      keys: this.#keys.subarray(0, this.#slots),
      lengths: this.#lengths.subarray(0, this.#slots),
      offsets,
      postings,
      slotBits: 0,
      terms: this.#terms.pack(),
    });
  }

  /** Query term id → weight: how often the term occurs in the query, times its match weight. */
  #queryWeights(query: string, prefix: boolean, fuzzy: number): Map<number, number> {
    const occurrences = new Map<string, number>();
    for (const term of analyze(query)) occurrences.set(term, (occurrences.get(term) ?? 0) + 1);
    const weights = new Map<number, number>();
    const add = (id: number, weight: number) => {
      if (this.#df[id]! > 0) weights.set(id, (weights.get(id) ?? 0) + weight);
    };
    for (const [term, times] of occurrences) {
      const id = this.#terms.id(term);
      if (id !== undefined) add(id, times);
      if (prefix || fuzzy > 0) {
        for (const [match, weight] of this.#expand(term, prefix, fuzzy)) add(match, times * weight);
      }
    }
    return weights;
  }

  /** Other terms a query term matches by prefix or within the edit distance, with their weights. */
  #expand(term: string, prefix: boolean, fuzzy: number): Map<number, number> {
    const terms = this.#terms.all();
    const found = new Map<number, number>();
    if (prefix) {
      this.#sorted ??= Uint32Array.from(terms.keys()).sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1));
      const sorted = this.#sorted;
      for (let i = lowerBound(sorted, terms, term); i < sorted.length; i++) {
        const id = sorted[i]!;
        const other = terms[id]!;
        if (!other.startsWith(term)) break;
        const distance = other.length - term.length;
        if (distance > 0) found.set(id, (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * distance));
      }
    }
    const maxDistance = fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fuzzy)) : fuzzy;
    if (maxDistance > 0) {
      for (let id = 0; id < terms.length; id++) {
        if (found.has(id) || this.#df[id] === 0) continue;
        const other = terms[id]!;
        const distance = boundedEditDistance(term, other, maxDistance);
        if (distance > 0) found.set(id, (FUZZY_WEIGHT * other.length) / (other.length + distance));
      }
    }
    return found;
  }

  #insert(doc: LexicalDoc): void {
    this.#insertAnalysed(doc.key, this.#analyse(doc));
  }

  /** Weighted term frequencies and, under the empty string, the weighted length. */
  #analyse(doc: LexicalDoc): { length: number; counts: Map<string, number> } {
    const counts = new Map<string, number>();
    let length = 0;
    for (let f = 0; f < FIELDS.length; f++) {
      const text = doc[FIELDS[f]!];
      const repeat = this.#repeats[f]!;
      if (!text || repeat === 0) continue;
      for (const token of tokenize(text)) {
        const terms = this.#termsOf(token);
        if (terms.length === 0) continue;
        length += repeat;
        for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + repeat);
      }
    }
    for (const tf of counts.values()) {
      if (tf > MAX_FREQUENCY) {
        throw new LongshipError('INVALID_ARGUMENT', `Key ${doc.key} repeats one term too often to index.`);
      }
    }
    return { length, counts };
  }

  #termsOf(token: string): readonly string[] {
    let terms = this.#tokenTerms.get(token);
    if (terms === undefined) {
      terms = analyzeToken(token);
      if (this.#tokenTerms.size >= TOKEN_CACHE_SIZE) this.#tokenTerms.clear();
      this.#tokenTerms.set(token, terms);
    }
    return terms;
  }

  #insertAnalysed(key: number, { length, counts }: { length: number; counts: Map<string, number> }): void {
    const slot = this.#slots;
    this.#reserveSlots(slot + 1);
    const forward = this.#forward;
    let at = 0;
    if (forward) {
      at = forward.start[slot]!;
      forward.pairs = grown(forward.pairs, at + counts.size * 2);
    }
    for (const [term, tf] of counts) {
      let id = this.#terms.id(term);
      if (id === undefined) {
        // The dictionary and the arena number terms alike: both count every term added.
        id = this.#terms.add(term);
        this.#postings.addTerm();
        this.#df = grown(this.#df, id + 1);
        this.#sorted = undefined;
      }
      this.#postings.append(id, slot, tf);
      this.#df[id]!++;
      if (forward) {
        forward.pairs[at++] = id;
        forward.pairs[at++] = tf;
      }
    }
    if (forward) forward.start[slot + 1] = at;
    this.#keys[slot] = key;
    this.#lengths[slot] = length;
    this.#alive[slot] = 1;
    this.#slotMap().set(key, slot);
    this.#slots++;
    this.#live++;
    this.#totalLength += length;
  }

  #reserveSlots(needed: number): void {
    if (needed <= this.#keys.length) return;
    const capacity = Math.max(needed, this.#keys.length * 2);
    this.#keys = grown(this.#keys, capacity);
    this.#lengths = grown(this.#lengths, capacity);
    this.#alive = grown(this.#alive, capacity);
    if (this.#forward) this.#forward.start = grown(this.#forward.start, capacity + 1);
    this.#scores = new Float64Array(capacity);
    this.#touched = new Uint32Array(capacity);
  }

  /** The forward index, derived from the postings if this index was loaded and has not needed it yet. */
  #forwardIndex(): Forward {
    if (this.#forward) return this.#forward;
    this.#readAll();
    const postings = this.#postings;
    // Count each slot's terms, then fill. Before the first removal no slot is dead.
    const start = new Uint32Array(this.#keys.length + 1);
    for (let t = 0; t < postings.terms; t++) {
      for (const run of RUNS) {
        const list = postings.runList(run);
        const end = postings.runEnd(t, run);
        const { step, mask } = postings.runLayout(run);
        for (let i = postings.runStart(t, run); i < end; i += step) start[(list[i]! & mask) + 1]! += 2;
      }
    }
    for (let s = 0; s < this.#slots; s++) start[s + 1]! += start[s]!;
    // Room for the documents that come next: this is built as writes begin, and the exact size
    // would be doubled at the first insert (at 100k documents, 32 MB copied into 64 MB of fresh memory).
    const total = start[this.#slots]!;
    const pairs = new Uint32Array(total + (total >> 3) + 1024);
    const cursor = start.slice(0, this.#slots);
    for (let t = 0; t < postings.terms; t++) {
      // The runs are walked inline, as in search(), rather than through a callback per posting.
      for (const run of RUNS) {
        const list = postings.runList(run);
        const end = postings.runEnd(t, run);
        const { step, mask, tfAt, shift } = postings.runLayout(run);
        for (let i = postings.runStart(t, run); i < end; i += step) {
          const slot = list[i]! & mask;
          const at = cursor[slot]!;
          pairs[at] = t;
          pairs[at + 1] = list[i + tfAt]! >>> shift;
          cursor[slot] = at + 2;
        }
      }
    }
    this.#forward = { pairs, start };
    return this.#forward;
  }

  /** Drops removed documents and terms no document has left; slots and term ids are renumbered. */
  #compact(): void {
    this.#readAll();
    const oldSlots = this.#slots;
    const newSlot = new Int32Array(oldSlots);
    let slots = 0;
    for (let s = 0; s < oldSlots; s++) newSlot[s] = this.#alive[s] ? slots++ : -1;
    const newTerm = new Int32Array(this.#postings.terms);
    const oldTerms = this.#terms.all();
    const terms: string[] = [];
    const df = new Uint32Array(Math.max(this.#df.length, 256));
    let pairs = 0;
    for (let t = 0; t < this.#postings.terms; t++) {
      const live = this.#df[t]!;
      newTerm[t] = live === 0 ? -1 : terms.length;
      if (live === 0) continue;
      df[terms.length] = live;
      terms.push(oldTerms[t]!);
      pairs += live;
    }
    this.#postings = this.#postings.rewritten(newSlot, newTerm, terms.length, pairs);
    const old = this.#forwardIndex();
    const forward = { pairs: new Uint32Array(old.pairs.length), start: new Uint32Array(old.start.length) };
    const keys = new Float64Array(this.#keys.length);
    const lengths = new Float64Array(this.#lengths.length);
    const alive = new Uint8Array(this.#alive.length);
    let at = 0;
    for (let s = 0; s < oldSlots; s++) {
      const slot = newSlot[s]!;
      if (slot < 0) continue;
      for (let i = old.start[s]!; i < old.start[s + 1]!; i += 2) {
        forward.pairs[at++] = newTerm[old.pairs[i]!]!;
        forward.pairs[at++] = old.pairs[i + 1]!;
      }
      forward.start[slot + 1] = at;
      keys[slot] = this.#keys[s]!;
      lengths[slot] = this.#lengths[s]!;
      alive[slot] = 1;
    }
    this.#terms = TermDictionary.of(terms);
    this.#df = df;
    this.#sorted = undefined;
    this.#forward = forward;
    this.#keys = keys;
    this.#lengths = lengths;
    this.#alive = alive;
    this.#slots = slots;
    this.#dead = 0;
    this.#slotOf = undefined;
  }

  /** Reads the snapshot's lists not read yet: what reads every list needs them all. */
  #readAll(): void {
    const unread = this.#unread;
    if (!unread) return;
    unread.needAll();
    this.#unread = undefined;
  }

  /**
   * The key → slot map, built on first use: 100k keys take ~130 ms to map, and a reopened index
   * that is only searched never needs them.
   */
  #slotMap(): Map<number, number> {
    if (this.#slotOf) return this.#slotOf;
    const map = new Map<number, number>();
    for (let s = 0; s < this.#slots; s++) if (this.#alive[s]) map.set(this.#keys[s]!, s);
    this.#slotOf = map;
    return map;
  }

  /** Takes over a decoded snapshot: its postings become the read-only base of the arena, uncopied. */
  #restore(snapshot: Bm25Snapshot, verified: boolean): void {
    const { keys, lengths, offsets, postings, terms } = snapshot;
    const docs = keys.length;
    this.#reserveSlots(docs);
    this.#keys.set(keys);
    this.#lengths.set(lengths);
    this.#alive.fill(1, 0, docs);
    // A key listed twice is found in a sorted copy: far cheaper than mapping every key now.
    const sorted = verified ? undefined : keys.slice().sort();
    for (let s = 1; sorted && s < docs; s++) {
      if (sorted[s] === sorted[s - 1]) {
        throw new LongshipError('CORRUPT_INDEX', `The lexical index snapshot lists key ${sorted[s]} twice.`);
      }
    }
    for (let s = 0; s < docs; s++) this.#totalLength += lengths[s]!;
    this.#slotOf = undefined;
    const termCount = offsets.length - 1;
    this.#df = new Uint32Array(Math.max(termCount, 256));
    for (let t = 0; t < termCount; t++) this.#df[t] = offsets[t + 1]! - offsets[t]!;
    // Looked up in the snapshot's bytes; decodeSnapshot has checked that each term is listed once.
    this.#terms = TermDictionary.packed(terms);
    this.#postings = PostingArena.packed(postings, offsets, packedLayout(snapshot.slotBits));
    this.#forward = undefined;
    this.#slots = docs;
    this.#live = docs;
  }
}

interface Forward {
  pairs: Uint32Array;
  start: Uint32Array;
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

/**
 * A new, empty BM25 index.
 *
 * @example
 * const index = createLexicalIndex({ fieldWeights: { title: 3 } });
 * index.add({ key: 7, title: 'readFileSync', body: 'Reads a whole file.' });
 * index.search('read file sync', { limit: 5 }); // [{ key: 7, score: … }]
 */
export function createLexicalIndex(options?: LexicalIndexOptions): LexicalIndex {
  return Bm25Index.create(options);
}

/**
 * Rebuilds an index from {@link LexicalIndex.serialize}'s bytes. `k1` and `b` may change; field
 * weights are the snapshot's. Throws `CORRUPT_INDEX` if the bytes are truncated or damaged, or were
 * written by another format or analyzer version. The index reads its postings and terms from
 * `bytes` in place (it never writes them), so they must not change afterwards.
 *
 * @example
 * const copy = loadLexicalIndex(index.serialize());
 */
export function loadLexicalIndex(bytes: Uint8Array, options?: LexicalLoadOptions): LexicalIndex {
  return Bm25Index.load(bytes, options);
}

/** The factory the engine hands to the derived indexes: BM25 indexes, whose postings may load later. */
export const bm25Indexes: LexicalIndexFactory = {
  create: createLexicalIndex,
  load: loadLexicalIndex,
  postingsSection,
};

import { LongshipError } from '../errors.js';
import { ANALYZER_ID } from './analyzer.js';
import { type Bm25Settings, settingsFrom } from './bm25-settings.js';
import { checkPackedTerms, type PackedTerms, tableLength } from './term-dictionary.js';

/** The contents of a snapshot: documents in slot order, terms in id order, no removed entries. */
export interface Bm25Snapshot {
  settings: Bm25Settings;
  /** Key of each document. */
  keys: Float64Array;
  /** Weighted length of each document, in units of 1/scale (whole numbers). */
  lengths: Float64Array;
  /** Term t's postings are pairs `offsets[t]` to `offsets[t + 1]` of `postings`. */
  offsets: Uint32Array;
  /**
   * (document slot, weighted term frequency in units of 1/scale) pairs, slots ascending per term:
   * two words a pair, or, decoded with `slotBits` > 0, one word, `tf << slotBits | slot`.
   */
  postings: Uint32Array;
  /** 0 for two words a pair; given to encodeSnapshot, which packs when it can. */
  slotBits: number;
  terms: PackedTerms;
}

// Layout, little-endian: the 80-byte header below, the analyzer id (UTF-8, padded to 8 bytes),
// keys (f64 × docs), lengths (f64 × docs), offsets (u32 × terms + 1), postings (u32 × pairs when
// the header's slot bits are > 0: each pair in one word, its frequency above the slot; else
// u32 × 2 × pairs: at 100k documents the packed postings are 15 MB rather than 30 to read),
// the terms' starts (u32 × terms + 1) and hash table (u32 × tableLength(terms)), the terms (UTF-8,
// each ended by a NUL, padded to 4 bytes), then a u32 checksum of everything before it (see
// PackedTerms). Every section is read in place (no copy: on some machines the first write to fresh
// memory costs several ms a MB), terms included, so loading costs a checksum pass and a validation
// pass rather than parsing. Format 1 held the terms without their table, format 2 its pairs in two
// words each. Every engine Longship runs on is little-endian, as
// the sections are written in the platform's byte order.
const MAGIC = 'LSBM25F\n';
export const SNAPSHOT_VERSION = 3;
const HEADER_BYTES = 80;
/** Packing leaves a frequency 32 − slot bits: at most this many bits of slot, so that it keeps 8. */
const MAX_SLOT_BITS = 24;
const TRAILER_BYTES = 4;

const corrupt = (message: string, cause?: unknown) =>
  new LongshipError('CORRUPT_INDEX', message, cause === undefined ? undefined : { cause });

const pad = (n: number, to: number) => Math.ceil(n / to) * to;

/** Writes a snapshot (see the layout above). */
export function encodeSnapshot(snapshot: Bm25Snapshot): Uint8Array {
  const encoder = new TextEncoder();
  const analyzer = encoder.encode(ANALYZER_ID);
  const terms = snapshot.terms;
  const termCount = terms.starts.length - 1;
  const docs = snapshot.keys.length;
  const { postings, slotBits } = packPairs(snapshot, docs);
  const pairs = slotBits > 0 ? postings.length : postings.length / 2;
  const layout = sections(docs, termCount, pairs, slotBits, analyzer.length, terms.bytes.length);
  const bytes = new Uint8Array(layout.total);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < MAGIC.length; i++) bytes[i] = MAGIC.charCodeAt(i);
  view.setUint32(8, SNAPSHOT_VERSION, true);
  view.setUint32(12, docs, true);
  view.setUint32(16, termCount, true);
  view.setUint32(20, pairs, true);
  view.setUint32(24, analyzer.length, true);
  view.setUint32(28, terms.bytes.length, true);
  view.setFloat64(32, snapshot.settings.k1, true);
  view.setFloat64(40, snapshot.settings.b, true);
  view.setFloat64(48, snapshot.settings.fieldWeights.title, true);
  view.setFloat64(56, snapshot.settings.fieldWeights.headings, true);
  view.setFloat64(64, snapshot.settings.fieldWeights.body, true);
  view.setUint32(72, slotBits, true);
  bytes.set(analyzer, HEADER_BYTES);
  new Float64Array(bytes.buffer, layout.keys, docs).set(snapshot.keys);
  new Float64Array(bytes.buffer, layout.lengths, docs).set(snapshot.lengths);
  new Uint32Array(bytes.buffer, layout.offsets, snapshot.offsets.length).set(snapshot.offsets);
  new Uint32Array(bytes.buffer, layout.postings, postings.length).set(postings);
  new Uint32Array(bytes.buffer, layout.starts, termCount + 1).set(terms.starts);
  new Uint32Array(bytes.buffer, layout.table, terms.table.length).set(terms.table);
  bytes.set(terms.bytes, layout.terms);
  const words = new Uint32Array(bytes.buffer, 0, layout.total / 4);
  view.setUint32(layout.total - TRAILER_BYTES, checksum(words, words.length - 1), true);
  return bytes;
}

/**
 * Reads and checks a snapshot. The sections returned are views of `input` when it is 8-byte
 * aligned: the caller must not change those bytes afterwards. Throws `CORRUPT_INDEX` for anything but an intact snapshot of this
 * format version made by this analyzer: truncation, flipped bytes, inconsistent sections. `verified`:
 * the bytes were checked against a checksum taken when they were written, so the snapshot's own
 * checksum and the checks of each posting and each term are skipped (see LexicalLoadOptions).
 */
export function decodeSnapshot(input: unknown, { verified = false } = {}): Bm25Snapshot {
  if (!(input instanceof Uint8Array)) throw corrupt('A lexical index snapshot must be a Uint8Array.');
  if (input.length < HEADER_BYTES + TRAILER_BYTES) throw corrupt('The lexical index snapshot is truncated.');
  for (let i = 0; i < MAGIC.length; i++) {
    if (input[i] !== MAGIC.charCodeAt(i)) throw corrupt('This is not a Longship lexical index snapshot.');
  }
  const header = new DataView(input.buffer, input.byteOffset, HEADER_BYTES);
  const version = header.getUint32(8, true);
  if (version !== SNAPSHOT_VERSION) {
    throw corrupt(`The lexical index snapshot has format version ${version}, not ${SNAPSHOT_VERSION}.`);
  }
  const docs = header.getUint32(12, true);
  const termCount = header.getUint32(16, true);
  const pairs = header.getUint32(20, true);
  const analyzerBytes = header.getUint32(24, true);
  const termBytes = header.getUint32(28, true);
  const slotBits = header.getUint32(72, true);
  if (slotBits > MAX_SLOT_BITS || header.getUint32(76, true) !== 0) {
    throw corrupt('The lexical index snapshot has an invalid posting layout.');
  }
  const layout = sections(docs, termCount, pairs, slotBits, analyzerBytes, termBytes);
  if (layout.total !== input.length) throw corrupt('The lexical index snapshot is truncated or overlong.');

  const decoder = new TextDecoder('utf-8', { fatal: true });
  let analyzer: string;
  try {
    analyzer = decoder.decode(input.subarray(HEADER_BYTES, HEADER_BYTES + analyzerBytes));
  } catch (cause) {
    throw corrupt('The lexical index snapshot names no readable analyzer.', cause);
  }
  if (analyzer !== ANALYZER_ID) {
    throw corrupt(`The snapshot was analysed by ${analyzer}, not ${ANALYZER_ID}; rebuild it from the nodes.`);
  }

  // Views need 8-byte alignment; bytes that lack it (a slice of a larger buffer) are copied once.
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice();
  const buffer = bytes.buffer;
  const at = bytes.byteOffset;
  const words = new Uint32Array(buffer, at, bytes.length / 4);
  if (!verified && checksum(words, words.length - 1) !== words[words.length - 1]) {
    throw corrupt('The lexical index snapshot fails its checksum.');
  }

  let settings: Bm25Settings;
  try {
    settings = settingsFrom(
      { k1: header.getFloat64(32, true), b: header.getFloat64(40, true) },
      {
        title: header.getFloat64(48, true),
        headings: header.getFloat64(56, true),
        body: header.getFloat64(64, true),
      },
    );
  } catch (cause) {
    throw corrupt('The lexical index snapshot has invalid settings.', cause);
  }

  const keys = new Float64Array(buffer, at + layout.keys, docs);
  const lengths = new Float64Array(buffer, at + layout.lengths, docs);
  const offsets = new Uint32Array(buffer, at + layout.offsets, termCount + 1);
  const step = slotBits > 0 ? 1 : 2;
  const postings = new Uint32Array(buffer, at + layout.postings, pairs * step);
  const mask = slotBits > 0 ? 2 ** slotBits - 1 : -1;
  const tfAt = slotBits > 0 ? 0 : 1;
  for (let i = 0; i < docs; i++) {
    const key = keys[i]!;
    const length = lengths[i]!;
    if (!(Number.isSafeInteger(key) && key >= 0 && Number.isSafeInteger(length) && length >= 0)) {
      throw corrupt(`The lexical index snapshot has a bad document at slot ${i}.`);
    }
  }
  if (offsets[0] !== 0 || offsets[termCount] !== pairs)
    throw corrupt('The lexical index postings are inconsistent.');
  for (let t = 0; t < termCount; t++) {
    const start = offsets[t]!;
    const end = offsets[t + 1]!;
    // Every term in a snapshot is in some document; slots ascend strictly, so none repeats.
    if (!(start < end && end <= pairs)) throw corrupt('The lexical index postings are inconsistent.');
    if (verified) continue;
    let previous = -1;
    for (let i = start * step; i < end * step; i += step) {
      const slot = postings[i]! & mask;
      if (slot <= previous || slot >= docs || postings[i + tfAt]! >>> slotBits === 0) {
        throw corrupt(`The postings of term ${t} in the lexical index snapshot are inconsistent.`);
      }
      previous = slot;
    }
  }

  const terms = {
    bytes: bytes.subarray(layout.terms, layout.terms + termBytes),
    starts: new Uint32Array(buffer, at + layout.starts, termCount + 1),
    table: new Uint32Array(buffer, at + layout.table, tableLength(termCount)),
  };
  checkPackedTerms(terms, { deep: !verified });
  return { settings, keys, lengths, offsets, postings, slotBits, terms };
}

/**
 * Where a snapshot of `byteLength` bytes keeps its postings, read from its first bytes (`head`, the
 * header at least); undefined if they are not the header of such a snapshot. A reader that leaves
 * the postings for later (see LexicalLoadOptions.postings) reads everything else.
 */
export function postingsSection(
  head: Uint8Array,
  byteLength: number,
): { start: number; end: number } | undefined {
  if (head.length < HEADER_BYTES) return undefined;
  for (let i = 0; i < MAGIC.length; i++) if (head[i] !== MAGIC.charCodeAt(i)) return undefined;
  const header = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
  const slotBits = header.getUint32(72, true);
  if (header.getUint32(8, true) !== SNAPSHOT_VERSION || slotBits > MAX_SLOT_BITS) return undefined;
  const pairs = header.getUint32(20, true);
  const layout = sections(
    header.getUint32(12, true),
    header.getUint32(16, true),
    pairs,
    slotBits,
    header.getUint32(24, true),
    header.getUint32(28, true),
  );
  if (layout.total !== byteLength) return undefined;
  return { start: layout.postings, end: layout.starts };
}

/** The bits a slot of `docs` documents takes; 0 when there are too many to pack. */
function slotBitsFor(docs: number): number {
  const bits = Math.max(1, Math.ceil(Math.log2(Math.max(docs, 2))));
  return bits <= MAX_SLOT_BITS ? bits : 0;
}

/** The snapshot's pairs one word each when every frequency fits above the slot; else as given. */
function packPairs(
  { postings, slotBits: given }: Bm25Snapshot,
  docs: number,
): { postings: Uint32Array; slotBits: number } {
  const slotBits = slotBitsFor(docs);
  const asGiven = { postings, slotBits: given };
  if (given > 0 || slotBits === 0) return asGiven;
  const limit = 2 ** (32 - slotBits);
  for (let i = 1; i < postings.length; i += 2) if (postings[i]! >= limit) return asGiven;
  const packed = new Uint32Array(postings.length / 2);
  for (let i = 0, j = 0; i < postings.length; i += 2, j++) {
    packed[j] = postings[i + 1]! * 2 ** slotBits + postings[i]!;
  }
  return { postings: packed, slotBits };
}

function sections(
  docs: number,
  terms: number,
  pairs: number,
  slotBits: number,
  analyzerBytes: number,
  termBytes: number,
) {
  const keys = pad(HEADER_BYTES + analyzerBytes, 8);
  const lengths = keys + docs * 8;
  const offsets = lengths + docs * 8;
  const postings = offsets + (terms + 1) * 4;
  const starts = postings + pairs * (slotBits > 0 ? 4 : 8);
  const table = starts + (terms + 1) * 4;
  const termStart = table + tableLength(terms) * 4;
  const total = pad(termStart + termBytes, 4) + TRAILER_BYTES;
  return { keys, lengths, offsets, postings, starts, table, terms: termStart, total };
}

// FNV-1a over 32-bit words. Each step is a bijection of the running hash, so any one changed word
// (or byte) always changes the result; a whole pass over 40 MB takes a few tens of milliseconds.
function checksum(words: Uint32Array, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < count; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193);
  return hash >>> 0;
}

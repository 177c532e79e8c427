// The node catalogue's snapshot: the nodes by URI in columns (numbers as float64s, a byte of flags,
// the strings as one UTF-8 text with offsets), and the nodes that read their fields from those
// columns when asked. Kept apart from the catalogue as BM25's format is from its index
// (lexical/bm25-snapshot.ts). Over 400 lines: the writer, the checks and the lazily read node all
// follow the one layout described here, and each reads wrong without the others beside it.

import { LongshipError } from '../errors.js';
import type { NodeRecord } from '../store/store.js';

/** A node as the catalogue keeps it: the record without `l1`, `l2` and `hash`. */
export type CatalogueNode = Omit<NodeRecord, 'l1' | 'l2' | 'hash'>;

/**
 * The metadata of every loaded node that has none: one frozen object rather than 100k empty ones
 * (nothing changes a catalogue node's metadata in place; a record is replaced whole).
 */
const NO_META: Record<string, unknown> = Object.freeze({});

/** "LSNC", then the format version (2 kept each string's length in UTF-16 units, so none could be read alone). */
const MAGIC = 0x434e534c;
const FORMAT = 3;
/** Six words; the float64s after them start 8-aligned. */
const HEADER_BYTES = 24;
const KINDS = ['dir', 'file'] as const;
const TYPES = ['resource', 'memory', 'skill'] as const;
const SUMMARIES = ['extractive', 'llm'] as const;
// One byte of flags a node: kind, context type, summary kind, and which strings follow its URI and L0.
const FILE = 1;
const TYPE_SHIFT = 1;
const LLM = 8;
const PARENT_NULL = 16;
const PARENT_GIVEN = 32;
const NAME_GIVEN = 64;
const META_GIVEN = 128;
/**
 * The nodes (by URI) in columns: numbers as float64s, a byte of flags, and the strings (URI, L0,
 * and the parent, name and metadata JSON where they are not the obvious ones) as one UTF-8 text,
 * with the index of each node's first string and the byte offset of each string. Nodes whose
 * `meta` JSON cannot carry exactly (a Date, a Map, `undefined`…) are listed by key only:
 * {@link decodeCatalogue} says to read them back from the store.
 */
export function encodeCatalogue(nodes: readonly CatalogueNode[]): Uint8Array {
  // A node still as loaded is copied as the snapshot holds it: decoding and encoding 100k of them
  // again took ~0.9 s in Node, at every snapshot after a change to any node (a use recorded).
  const rows: (StoredNode | Row)[] = [];
  const readBack: number[] = [];
  const size = { strings: 0, bytes: 0 };
  for (const node of nodes) {
    const row = node instanceof StoredNode ? node : rowOf(node);
    if (!row) readBack.push(node.key);
    else {
      rows.push(row);
      if (row instanceof StoredNode) row.measure(size);
      else {
        size.strings += row.lengths.length;
        for (const length of row.lengths) size.bytes += length;
      }
    }
  }
  const writer = new RowWriter(rows.length, readBack, size.strings, size.bytes);
  for (const row of rows) {
    if (row instanceof StoredNode) row.copyTo(writer);
    else writer.row(row);
  }
  return writer.done();
}

/**
 * Reads what {@link encodeCatalogue} wrote: the nodes, by URI, and the keys of the nodes to read
 * back from the store. CORRUPT_INDEX for bytes it cannot have written. The nodes read their fields
 * from `bytes` when asked (the caller must leave them as they are): 100k nodes made whole at once
 * took a third of a second of a cold open in Chromium, most of it fresh memory and the collector
 * copying them, and a query reads a few of their strings.
 */
export function decodeCatalogue(bytes: Uint8Array): { nodes: CatalogueNode[]; readBack: number[] } {
  // Typed views need aligned offsets: a misaligned input is copied once.
  const buffer = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const words = (at: number, n: number) => new Uint32Array(buffer.buffer, buffer.byteOffset + at, n);
  if (buffer.byteLength < HEADER_BYTES) throw corruptCatalogue('too short for its header');
  const [magic, format, count, readBackCount, stringCount, textBytes] = words(0, 6) as unknown as number[];
  if (magic !== MAGIC || format !== FORMAT) throw corruptCatalogue(`not a format ${FORMAT} catalogue`);
  const numbersAt = HEADER_BYTES;
  const firstsAt = numbersAt + 8 * (5 * count! + readBackCount!);
  const startsAt = firstsAt + 4 * (count! + 1);
  const flagsAt = startsAt + 4 * (stringCount! + 1);
  const textAt = flagsAt + count!;
  if (textAt + textBytes! !== buffer.byteLength)
    throw corruptCatalogue('its sections do not add up to its length');
  const columns: Columns = {
    numbers: new Float64Array(buffer.buffer, buffer.byteOffset + numbersAt, 5 * count! + readBackCount!),
    firsts: words(firstsAt, count! + 1),
    starts: words(startsAt, stringCount! + 1),
    flags: buffer.subarray(flagsAt, textAt),
    text: buffer.subarray(textAt),
  };
  checkColumns(columns, count!);
  const nodes: CatalogueNode[] = [];
  for (let i = 0; i < count!; i++) nodes.push(new StoredNode(columns, i));
  const readBack = Array.from(columns.numbers.subarray(5 * count!));
  if (!readBack.every((key) => Number.isSafeInteger(key)))
    throw corruptCatalogue('a read-back key is not a key');
  return { nodes, readBack };
}

/** A node set since the load, as a snapshot holds it: its flags, numbers, and strings in UTF-8. */
interface Row {
  flags: number;
  /** key, createdAt, updatedAt, useCount, lastUsedAt (NaN: none). */
  numbers: readonly number[];
  lengths: readonly number[];
  text: readonly Uint8Array[];
}

/** Writes a snapshot's columns (see {@link encodeCatalogue}), row by row, in URI order. */
class RowWriter {
  readonly #out: Uint8Array;
  readonly #numbers: Float64Array;
  readonly #firsts: Uint32Array;
  readonly #starts: Uint32Array;
  readonly #flagsAt: number;
  readonly #textAt: number;
  #row = 0;
  #string = 0;
  #byte = 0;
  /** Bytes of a loaded text still to copy: consecutive loaded nodes copy as one run. */
  #run: { text: Uint8Array; from: number; to: number; at: number } | undefined;

  constructor(count: number, readBack: readonly number[], strings: number, bytes: number) {
    const numbersAt = HEADER_BYTES;
    const firstsAt = numbersAt + 8 * (5 * count + readBack.length);
    const startsAt = firstsAt + 4 * (count + 1);
    this.#flagsAt = startsAt + 4 * (strings + 1);
    this.#textAt = this.#flagsAt + count;
    const out = new Uint8Array(this.#textAt + bytes);
    new Uint32Array(out.buffer, 0, 6).set([MAGIC, FORMAT, count, readBack.length, strings, bytes]);
    this.#out = out;
    this.#numbers = new Float64Array(out.buffer, numbersAt, 5 * count + readBack.length);
    this.#numbers.set(readBack, 5 * count);
    this.#firsts = new Uint32Array(out.buffer, firstsAt, count + 1);
    this.#starts = new Uint32Array(out.buffer, startsAt, strings + 1);
  }

  row({ flags, numbers, lengths, text }: Row): void {
    this.#begin(flags);
    this.#numbers.set(numbers, 5 * (this.#row - 1));
    let at = this.#textAt + this.#byte;
    for (const length of lengths) this.#add(length);
    for (const piece of text) {
      this.#out.set(piece, at);
      at += piece.length;
    }
  }

  /** The row of loaded node `at` of `columns`, copied as it is. */
  copy(columns: Columns, at: number): void {
    const { numbers, firsts, starts, flags, text } = columns;
    this.#begin(flags[at]!);
    const row = 5 * (this.#row - 1);
    for (let j = 0; j < 5; j++) this.#numbers[row + j] = numbers[5 * at + j]!;
    const first = firsts[at]!;
    const end = firsts[at + 1]!;
    const outAt = this.#textAt + this.#byte;
    for (let j = first; j < end; j++) this.#add(starts[j + 1]! - starts[j]!);
    const from = starts[first]!;
    const to = starts[end]!;
    const run = this.#run;
    // Contiguous in both texts: the run grows.
    if (run && run.text === text && run.to === from && run.at + (from - run.from) === outAt) run.to = to;
    else {
      this.#flush();
      this.#run = { text, from, to, at: outAt };
    }
  }

  done(): Uint8Array {
    this.#flush();
    this.#firsts[this.#row] = this.#string;
    this.#starts[this.#string] = this.#byte;
    return this.#out;
  }

  #begin(flags: number): void {
    this.#firsts[this.#row] = this.#string;
    this.#out[this.#flagsAt + this.#row] = flags;
    this.#row++;
  }

  #add(length: number): void {
    this.#starts[this.#string++] = this.#byte;
    this.#byte += length;
  }

  #flush(): void {
    const run = this.#run;
    if (run) this.#out.set(run.text.subarray(run.from, run.to), run.at);
    this.#run = undefined;
  }
}

const utf8Encoder = new TextEncoder();

/**
 * The row of a node set since the load: its URI and L0, then its parent, name and metadata JSON
 * where they are not the obvious ones. Undefined when its metadata JSON cannot carry.
 */
function rowOf(n: CatalogueNode): Row | undefined {
  if (!jsonSafe(n.meta)) return undefined;
  const slash = n.uri.lastIndexOf('/');
  let f = (n.kind === 'file' ? FILE : 0) | (TYPES.indexOf(n.contextType) << TYPE_SHIFT);
  if (n.summaryKind === 'llm') f |= LLM;
  const strings = [n.uri, n.l0];
  if (n.parent === null) f |= PARENT_NULL;
  else if (n.parent !== n.uri.slice(0, slash)) {
    f |= PARENT_GIVEN;
    strings.push(n.parent);
  }
  if (n.name !== n.uri.slice(slash + 1)) {
    f |= NAME_GIVEN;
    strings.push(n.name);
  }
  if (Object.keys(n.meta).length > 0) {
    f |= META_GIVEN;
    strings.push(JSON.stringify(n.meta));
  }
  const text = strings.map((string) => utf8Encoder.encode(string));
  return {
    flags: f,
    numbers: [n.key, n.createdAt, n.updatedAt, n.useCount, n.lastUsedAt ?? Number.NaN],
    lengths: text.map((bytes) => bytes.length),
    text,
  };
}

/** A loaded snapshot's sections, shared by its nodes (see {@link encodeCatalogue}). */
interface Columns {
  /** key, createdAt, updatedAt, useCount, lastUsedAt (NaN: none) of each node, then the read-back keys. */
  numbers: Float64Array;
  /** The index of each node's first string; one more at the end. */
  firsts: Uint32Array;
  /** The byte offset of each string in `text`; one more at the end. */
  starts: Uint32Array;
  flags: Uint8Array;
  text: Uint8Array;
}

/** How many strings a node with these flags has: URI, L0, then the parent, name and metadata given. */
function stringsOf(f: number): number {
  return 2 + (f & PARENT_GIVEN ? 1 : 0) + (f & NAME_GIVEN ? 1 : 0) + (f & META_GIVEN ? 1 : 0);
}

/**
 * What a node can be read from without reading its strings: every section in bounds, every node
 * with the strings its flags name, keys that are keys, and URIs in order (compared as UTF-8, which
 * orders as UTF-16 does except around the surrogates, where the strings themselves are compared).
 */
function checkColumns({ numbers, firsts, starts, flags, text }: Columns, count: number): void {
  if (firsts[0] !== 0 || firsts[count] !== starts.length - 1)
    throw corruptCatalogue('its string counts do not add up');
  if (starts[0] !== 0 || starts[starts.length - 1] !== text.length)
    throw corruptCatalogue('its strings do not fill its text');
  for (let j = 1; j < starts.length; j++) {
    if (starts[j]! < starts[j - 1]!) throw corruptCatalogue('a string runs backwards');
  }
  let previous = -1;
  for (let i = 0; i < count; i++) {
    const f = flags[i]!;
    const key = numbers[5 * i]!;
    if (
      firsts[i + 1]! - firsts[i]! !== stringsOf(f) ||
      !Number.isSafeInteger(key) ||
      !TYPES[(f >> TYPE_SHIFT) & 3]
    ) {
      throw corruptCatalogue(`node ${i} is not a valid node`);
    }
    const uri = firsts[i]!;
    if (f & META_GIVEN) {
      // A JSON object, by its ends: the rest is parsed when the metadata is first read.
      const meta = firsts[i + 1]! - 1;
      if (text[starts[meta]!] !== 0x7b || text[starts[meta + 1]! - 1] !== 0x7d)
        throw corruptCatalogue(`node ${i}'s metadata is not a JSON object`);
    }
    if (previous >= 0 && !ascending(text, starts, previous, uri))
      throw corruptCatalogue(`node ${i} is out of URI order`);
    previous = uri;
  }
}

/** Whether string `a` sorts before string `b` in code-unit order. */
function ascending(text: Uint8Array, starts: Uint32Array, a: number, b: number): boolean {
  const aEnd = starts[a + 1]!;
  const bEnd = starts[b + 1]!;
  let i = starts[a]!;
  let j = starts[b]!;
  while (i < aEnd && j < bEnd && text[i] === text[j]) {
    i++;
    j++;
  }
  if (i === aEnd) return j < bEnd;
  if (j === bEnd) return false;
  // Lead bytes from 0xEE up start U+E000–U+FFFF (0xEE, 0xEF) or a pair of surrogates (0xF0…),
  // which UTF-16 orders the other way round.
  if (text[i]! < 0xee && text[j]! < 0xee) return text[i]! < text[j]!;
  return readString(text, starts, a) < readString(text, starts, b);
}

const utf8 = new TextDecoder();

function readString(text: Uint8Array, starts: Uint32Array, j: number): string {
  return utf8.decode(text.subarray(starts[j]!, starts[j + 1]!));
}

/**
 * A node of a loaded snapshot: its fields read from the snapshot's columns when first asked, its
 * strings decoded once. Reads as a CatalogueNode does; `toJSON()` gives the plain record.
 */
class StoredNode implements CatalogueNode {
  readonly #columns: Columns;
  readonly #at: number;
  #uri: string | undefined;
  #l0: string | undefined;
  #parent: string | null | undefined;
  #name: string | undefined;
  #meta: Record<string, unknown> | undefined;

  constructor(columns: Columns, at: number) {
    this.#columns = columns;
    this.#at = at;
  }

  get uri(): string {
    if (this.#uri === undefined) this.#uri = this.#string(0);
    return this.#uri;
  }

  get l0(): string {
    if (this.#l0 === undefined) this.#l0 = this.#string(1);
    return this.#l0;
  }

  get parent(): string | null {
    if (this.#parent === undefined) {
      const f = this.#flags;
      const uri = this.uri;
      this.#parent =
        f & PARENT_NULL ? null : f & PARENT_GIVEN ? this.#string(2) : uri.slice(0, uri.lastIndexOf('/'));
    }
    return this.#parent;
  }

  get name(): string {
    if (this.#name === undefined) {
      const f = this.#flags;
      const uri = this.uri;
      this.#name =
        f & NAME_GIVEN ? this.#string(f & PARENT_GIVEN ? 3 : 2) : uri.slice(uri.lastIndexOf('/') + 1);
    }
    return this.#name;
  }

  get meta(): Record<string, unknown> {
    if (this.#meta === undefined) {
      const f = this.#flags;
      if (f & META_GIVEN) {
        const meta = parseMeta(this.#string(stringsOf(f) - 1));
        if (!meta) throw corruptCatalogue(`the metadata of ${this.uri} is not a JSON object`);
        this.#meta = meta;
      } else {
        this.#meta = NO_META;
      }
    }
    return this.#meta;
  }

  get kind(): CatalogueNode['kind'] {
    return KINDS[this.#flags & FILE]!;
  }

  get contextType(): CatalogueNode['contextType'] {
    return TYPES[(this.#flags >> TYPE_SHIFT) & 3]!;
  }

  get summaryKind(): CatalogueNode['summaryKind'] {
    return SUMMARIES[this.#flags & LLM ? 1 : 0]!;
  }

  get key(): number {
    return this.#columns.numbers[5 * this.#at]!;
  }

  get createdAt(): number {
    return this.#columns.numbers[5 * this.#at + 1]!;
  }

  get updatedAt(): number {
    return this.#columns.numbers[5 * this.#at + 2]!;
  }

  get useCount(): number {
    return this.#columns.numbers[5 * this.#at + 3]!;
  }

  get lastUsedAt(): number | undefined {
    const at = this.#columns.numbers[5 * this.#at + 4]!;
    return Number.isNaN(at) ? undefined : at;
  }

  /** Adds its strings and their bytes to `size`, nothing decoded. */
  measure(size: { strings: number; bytes: number }): void {
    const { firsts, starts } = this.#columns;
    const first = firsts[this.#at]!;
    const end = firsts[this.#at + 1]!;
    size.strings += end - first;
    size.bytes += starts[end]! - starts[first]!;
  }

  /** Writes its row as the snapshot holds it, nothing decoded. */
  copyTo(writer: RowWriter): void {
    writer.copy(this.#columns, this.#at);
  }

  /** The plain record, as the catalogue would hold it had the node been set rather than loaded. */
  toJSON(): CatalogueNode {
    const node: CatalogueNode = {
      uri: this.uri,
      parent: this.parent,
      name: this.name,
      kind: this.kind,
      contextType: this.contextType,
      key: this.key,
      l0: this.l0,
      summaryKind: this.summaryKind,
      meta: this.meta,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      useCount: this.useCount,
    };
    const { lastUsedAt } = this;
    if (lastUsedAt !== undefined) node.lastUsedAt = lastUsedAt;
    return node;
  }

  get #flags(): number {
    return this.#columns.flags[this.#at]!;
  }

  #string(nth: number): string {
    const { text, starts, firsts } = this.#columns;
    return readString(text, starts, firsts[this.#at]! + nth);
  }
}

function parseMeta(json: string): Record<string, unknown> | undefined {
  try {
    const meta: unknown = JSON.parse(json);
    return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
      ? (meta as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether JSON gives `value` back equal in every way `===` and `in` can tell. */
function jsonSafe(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !jsonSafe(value[i])) return false;
    return true;
  }
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!jsonSafe((value as Record<string, unknown>)[key])) return false;
  return true;
}

export function corruptCatalogue(reason: string, cause?: unknown): LongshipError {
  return new LongshipError('CORRUPT_INDEX', `node catalogue: ${reason}`, cause ? { cause } : undefined);
}

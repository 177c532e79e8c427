// Every node of the store as retrieval needs it: the record without its L1/L2 text. Finding where
// a query looks (a scope: the nodes below some roots) from the store means reading every node
// record below them, 100k of them in a large store; the derived indexes keep this catalogue in
// memory instead, in step with the change log, and snapshot it beside the graph and BM25.

import { LongshipError } from '../errors.js';
import type { NodeRecord } from '../store/store.js';

/** A node as the catalogue keeps it: the record without `l1`, `l2` and `hash`. */
export type CatalogueNode = Omit<NodeRecord, 'l1' | 'l2' | 'hash'>;

/** What retrieval reads. */
export interface NodeCatalogueView {
  /** Moves on every change: a scope read at one version holds until the next. */
  readonly version: number;
  readonly size: number;
  node(uri: string): CatalogueNode | undefined;
  /** Every node whose URI starts with `uri + '/'`, by URI (as `Store.descendants` lists them). */
  below(uri: string): readonly CatalogueNode[];
  /** Every node, by URI. */
  all(): readonly CatalogueNode[];
  /**
   * What changed since `version` when every change was a node replaced in place (same key, URI,
   * parent and kind: a use recorded, new metadata or summaries), oldest first; undefined when
   * anything else changed, or too long ago to tell. A scope can then swap the nodes, not reload.
   */
  replacedSince(version: number): readonly Replacement[] | undefined;
}

/** A node replaced in place: `node` holds the key, URI, parent and kind that `old` had. */
export interface Replacement {
  old: CatalogueNode;
  node: CatalogueNode;
}

/**
 * The metadata of every loaded node that has none: one frozen object rather than 100k empty ones
 * (nothing changes a catalogue node's metadata in place; a record is replaced whole).
 */
const NO_META: Record<string, unknown> = Object.freeze({});

/** How many in-place replacements the catalogue remembers for {@link NodeCatalogueView.replacedSince}. */
const JOURNAL = 1024;

/** "LSNC", then the format version. */
const MAGIC = 0x434e534c;
const FORMAT = 2;
const HEADER_WORDS = 6;
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
 * The nodes by URI, with maps by key and by URI built on first need: an open that only finds
 * never builds them. Changes are merged into the sorted list lazily.
 */
export class NodeCatalogue implements NodeCatalogueView {
  #byKey: Map<number, CatalogueNode> | undefined;
  #byUri: Map<string, CatalogueNode> | undefined;
  /** By URI, as of the last sort; `#stale` and `#added` say what changed since. */
  #sorted: CatalogueNode[] = [];
  #stale = new Set<CatalogueNode>();
  #added: CatalogueNode[] = [];
  #version = 0;
  /** In-place replacements, the last {@link JOURNAL}, and the version of the last other change. */
  #journal: Array<Replacement & { version: number }> = [];
  #reshapedAt = 0;

  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#byKey ? this.#byKey.size : this.#sorted.length;
  }

  node(uri: string): CatalogueNode | undefined {
    if (this.#byUri) return this.#byUri.get(uri);
    const sorted = this.#sorted;
    const at = lowerBound(sorted, uri);
    return sorted[at]?.uri === uri ? sorted[at] : undefined;
  }

  nodeByKey(key: number): CatalogueNode | undefined {
    return this.#maps().byKey.get(key);
  }

  below(uri: string): readonly CatalogueNode[] {
    const sorted = this.#inOrder();
    const prefix = `${uri}/`;
    const start = lowerBound(sorted, prefix);
    let end = start;
    while (end < sorted.length && sorted[end]!.uri.startsWith(prefix)) end++;
    return sorted.slice(start, end);
  }

  all(): readonly CatalogueNode[] {
    return this.#inOrder();
  }

  /** Adds or replaces the node with `record.key` (its URI may have changed: a move). */
  set(record: NodeRecord): void {
    const { l1: _l1, l2: _l2, hash: _hash, ...node } = record;
    const { byKey, byUri } = this.#maps();
    const old = byKey.get(node.key);
    const inPlace =
      old !== undefined && old.uri === node.uri && old.parent === node.parent && old.kind === node.kind;
    this.#remove(node.key);
    byKey.set(node.key, node);
    byUri.set(node.uri, node);
    this.#added.push(node);
    this.#version++;
    if (inPlace) {
      this.#journal.push({ version: this.#version, old, node });
      if (this.#journal.length > JOURNAL) this.#journal.splice(0, this.#journal.length - JOURNAL);
    } else {
      this.#reshapedAt = this.#version;
    }
  }

  delete(key: number): void {
    if (!this.#remove(key)) return;
    this.#version++;
    this.#reshapedAt = this.#version;
  }

  replacedSince(version: number): readonly Replacement[] | undefined {
    if (version === this.#version) return [];
    // Every change after `version` must be an in-place one, and still in the journal.
    const journal = this.#journal;
    if (
      this.#reshapedAt > version ||
      version > this.#version ||
      !(journal[0] && journal[0].version <= version + 1)
    ) {
      return undefined;
    }
    return journal.filter((entry) => entry.version > version).map(({ old, node }) => ({ old, node }));
  }

  /** Takes the node with `key` out of the maps and marks it stale in the sorted list. */
  #remove(key: number): boolean {
    const { byKey, byUri } = this.#maps();
    const node = byKey.get(key);
    if (!node) return false;
    byKey.delete(key);
    if (byUri.get(node.uri) === node) byUri.delete(node.uri);
    this.#stale.add(node);
    return true;
  }

  /**
   * The nodes, by URI, in columns: numbers as float64s, a byte of flags, and the strings (URI, L0,
   * and the parent, name and metadata JSON where they are not the obvious ones) as one UTF-8 text.
   * Nodes whose `meta` JSON cannot carry exactly (a Date, a Map, `undefined`…) are listed by key
   * only: {@link NodeCatalogue.load} says to read them back from the store.
   */
  serialize(): Uint8Array {
    const nodes: CatalogueNode[] = [];
    const readBack: number[] = [];
    for (const node of this.#inOrder()) {
      if (jsonSafe(node.meta)) nodes.push(node);
      else readBack.push(node.key);
    }
    const count = nodes.length;
    const numbers = new Float64Array(5 * count + readBack.length);
    const flags = new Uint8Array(count);
    const strings: string[] = [];
    nodes.forEach((n, i) => {
      const slash = n.uri.lastIndexOf('/');
      let f = (n.kind === 'file' ? FILE : 0) | (TYPES.indexOf(n.contextType) << TYPE_SHIFT);
      if (n.summaryKind === 'llm') f |= LLM;
      strings.push(n.uri, n.l0);
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
      flags[i] = f;
      numbers.set([n.key, n.createdAt, n.updatedAt, n.useCount, n.lastUsedAt ?? Number.NaN], 5 * i);
    });
    numbers.set(readBack, 5 * count);
    const lengths = Uint32Array.from(strings, (text) => text.length);
    const text = new TextEncoder().encode(strings.join(''));
    const header = Uint32Array.of(MAGIC, FORMAT, count, readBack.length, strings.length, text.length);
    const parts = [header, new Uint32Array(HEADER_WORDS % 2), numbers, lengths, flags, text];
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
    let offset = 0;
    for (const part of parts) {
      out.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), offset);
      offset += part.byteLength;
    }
    return out;
  }

  /**
   * Reads what {@link NodeCatalogue.serialize} wrote: the catalogue, and the keys of the nodes to
   * read back from the store. CORRUPT_INDEX for bytes it cannot have written.
   */
  static load(bytes: Uint8Array): { catalogue: NodeCatalogue; readBack: number[] } {
    // Typed views need aligned offsets: a misaligned input is copied once.
    const buffer = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    const words = (at: number, n: number) => new Uint32Array(buffer.buffer, buffer.byteOffset + at, n);
    const headerBytes = 4 * (HEADER_WORDS + (HEADER_WORDS % 2));
    if (buffer.byteLength < headerBytes) throw corrupt('too short for its header');
    const [magic, format, count, readBackCount, stringCount, textBytes] = words(
      0,
      HEADER_WORDS,
    ) as unknown as number[];
    if (magic !== MAGIC || format !== FORMAT) throw corrupt(`not a format ${FORMAT} catalogue`);
    const numbersAt = headerBytes;
    const lengthsAt = numbersAt + 8 * (5 * count! + readBackCount!);
    const flagsAt = lengthsAt + 4 * stringCount!;
    const textAt = flagsAt + count!;
    if (textAt + textBytes! !== buffer.byteLength) throw corrupt('its sections do not add up to its length');
    const numbers = new Float64Array(
      buffer.buffer,
      buffer.byteOffset + numbersAt,
      5 * count! + readBackCount!,
    );
    const lengths = words(lengthsAt, stringCount!);
    const flags = buffer.subarray(flagsAt, textAt);
    const text = new TextDecoder().decode(buffer.subarray(textAt));
    let cursor = 0;
    let next = 0;
    const take = (): string => {
      if (next >= lengths.length) throw corrupt('it lists fewer strings than its nodes need');
      const start = cursor;
      cursor += lengths[next++]!;
      if (cursor > text.length) throw corrupt('a string runs past the text');
      return text.slice(start, cursor);
    };
    const catalogue = new NodeCatalogue();
    const sorted = catalogue.#sorted;
    // Listed by URI, a directory's files mostly follow one another: each takes the parent string of
    // the node before it when that is its parent too, rather than a copy of its own (for 100k files
    // in a few directories, 100k strings fewer to allocate and collect).
    let previousParent = '';
    for (let i = 0; i < count!; i++) {
      const f = flags[i]!;
      const at = 5 * i;
      const key = numbers[at]!;
      const lastUsedAt = numbers[at + 4]!;
      const uri = take();
      const l0 = take();
      const slash = uri.lastIndexOf('/');
      let parent: string | null;
      if (f & PARENT_NULL) parent = null;
      else if (f & PARENT_GIVEN) parent = take();
      else if (slash === previousParent.length && uri.startsWith(previousParent)) parent = previousParent;
      else parent = previousParent = uri.slice(0, slash);
      const name = f & NAME_GIVEN ? take() : uri.slice(slash + 1);
      const contextType = TYPES[(f >> TYPE_SHIFT) & 3];
      const meta = f & META_GIVEN ? parseMeta(take()) : NO_META;
      if (!Number.isSafeInteger(key) || !contextType || !meta || (i > 0 && !(sorted[i - 1]!.uri < uri))) {
        throw corrupt(`node ${i} is not a valid node in URI order`);
      }
      const node: CatalogueNode = {
        uri,
        parent,
        name,
        kind: KINDS[f & FILE]!,
        contextType,
        key,
        l0,
        summaryKind: SUMMARIES[f & LLM ? 1 : 0]!,
        meta,
        createdAt: numbers[at + 1]!,
        updatedAt: numbers[at + 2]!,
        useCount: numbers[at + 3]!,
      };
      if (!Number.isNaN(lastUsedAt)) node.lastUsedAt = lastUsedAt;
      sorted.push(node);
    }
    if (next !== lengths.length || cursor !== text.length) throw corrupt('it holds strings no node uses');
    const readBack = Array.from(numbers.subarray(5 * count!));
    if (!readBack.every((key) => Number.isSafeInteger(key))) throw corrupt('a read-back key is not a key');
    return { catalogue, readBack };
  }

  /** The maps by key and by URI, built from the sorted list the first time they are needed. */
  #maps(): { byKey: Map<number, CatalogueNode>; byUri: Map<string, CatalogueNode> } {
    if (!this.#byKey || !this.#byUri) {
      // Nothing changes without the maps, so the sorted list is whole here.
      this.#byKey = new Map();
      this.#byUri = new Map();
      for (const node of this.#sorted) {
        if (this.#byKey.has(node.key)) throw corrupt(`key ${node.key} is given twice`);
        this.#byKey.set(node.key, node);
        this.#byUri.set(node.uri, node);
      }
    }
    return { byKey: this.#byKey, byUri: this.#byUri };
  }

  /** Brings the sorted list up to date: drops what went, merges in what came (both few, usually). */
  #inOrder(): CatalogueNode[] {
    if (this.#stale.size === 0 && this.#added.length === 0) return this.#sorted;
    const stale = this.#stale;
    const kept = stale.size === 0 ? this.#sorted : this.#sorted.filter((node) => !stale.has(node));
    // A node added and then replaced before this sort is stale too.
    const added = this.#added.filter((node) => !stale.has(node)).sort(byUri);
    this.#sorted = added.length === 0 ? kept : merge(kept, added);
    this.#stale = new Set();
    this.#added = [];
    return this.#sorted;
  }
}

/** The first index whose URI is not below `uri` in code-unit order. */
function lowerBound(sorted: readonly CatalogueNode[], uri: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]!.uri < uri) low = mid + 1;
    else high = mid;
  }
  return low;
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

function byUri(a: CatalogueNode, b: CatalogueNode): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

function merge(a: readonly CatalogueNode[], b: readonly CatalogueNode[]): CatalogueNode[] {
  const out = new Array<CatalogueNode>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = byUri(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
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

function corrupt(reason: string, cause?: unknown): LongshipError {
  return new LongshipError('CORRUPT_INDEX', `node catalogue: ${reason}`, cause ? { cause } : undefined);
}

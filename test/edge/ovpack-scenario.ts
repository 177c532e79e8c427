// One OVPack round trip for every runtime (Node, Deno, workerd, a Chromium module Worker):
// Alice's memory and a resource folder written, the folder exported with its vectors and imported
// into a second Longship with vectors: 'require', tampered packs refused (docs/guide/ovpack.md,
// docs/guide/namespaces.md). Its JSON answer is checked by the test that runs it, and against Node's.
// Self-contained (no vitest, no fixtures) so that Deno and bundlers can load it as is.

import { unzipSync, zipSync } from 'fflate';
import type { Longship, LongshipOptions } from '../../src/engine.js';
import { LongshipError, openLongship } from '../../src/index.js';
import { hashEmbedder } from '../context/hash-embedder.js';

export const FOLDER = 'viking://resources/harbour';
export const LOGBOOK = 'viking://resources/logbook';
export const TAMPERED_FILE = 'harbour/files/notes/tides.md';
export const QUERIES = ['when are the tides high', 'which knots hold a mooring line', 'who is in the crew'];

export interface NodeContent {
  path: string;
  kind: string;
  l0: string;
  l1?: string;
  l2?: string;
}

export interface Hit {
  /** The URI relative to the exported folder (or to the namespace's root, for a memory). */
  path: string;
  score: number;
}

export interface OvpackResult {
  /** Whether the stores outlive the process (a folder, IndexedDB) or not (memory). */
  persistent: boolean[];
  /** `viking://~` as stat() gives it, and the URI write() gave Alice's memory. */
  home: string;
  memoryUri: string;
  /** What export() resolved with, read through its own reader. */
  isReadableStream: boolean;
  chunks: number;
  byteLength: number;
  imported: unknown;
  source: NodeContent[];
  target: NodeContent[];
  /** Per query, the resources found in the source and in the target. */
  found: { query: string; source: Hit[]; target: Hit[] }[];
  /** The memories Alice and Bob find for a query that names Alice's memory. */
  aliceMemories: string[];
  bobMemories: string[];
  /** A larger folder's pack, passed through a Response and imported from its body under another parent. */
  copied: { byteLength: number; result: unknown; source: NodeContent[]; target: NodeContent[] };
  /**
   * What import() said of each tampered pack (the first as a Blob, over the imported folder with
   * onConflict: 'overwrite'; the second as bytes), and whether the target's nodes stayed as they were.
   */
  tampered: { name: string; code: string; unchanged: boolean }[];
}

/** What the runtime passes: where each Longship keeps its nodes, and USearch where it must be given. */
export interface OvpackSetup {
  stores: [source: LongshipOptions['store'], target: LongshipOptions['store']];
  usearch?: LongshipOptions['usearch'];
}

export async function runOvpackScenario(setup: OvpackSetup): Promise<OvpackResult> {
  const open = (store: LongshipOptions['store']) =>
    openLongship({
      user: 'alice',
      embedder: hashEmbedder,
      ...(store === undefined ? {} : { store }),
      ...(setup.usearch === undefined ? {} : { usearch: setup.usearch }),
    });
  const source = await open(setup.stores[0]);
  const target = await open(setup.stores[1]);
  try {
    const memory = await source.write(
      'viking://~/memories/preferences/indent',
      'Alice indents her code with tabs, never with spaces.',
      { parents: true },
    );
    const home = (await source.stat('viking://~')).uri;
    await writeFolder(source);

    const stream = await source.export(FOLDER, { includeVectors: true });
    const isReadableStream = stream instanceof ReadableStream;
    const pieces = await readAll(stream);
    const bytes = concat(pieces);
    const imported = await target.import(bytes, 'viking://resources', { vectors: 'require' });

    const found = [];
    for (const query of QUERIES) {
      found.push({ query, source: await hits(source, query), target: await hits(target, query) });
    }
    const bob = await source.as({ user: 'bob' });
    const memoryQuery = 'does Alice indent her code with tabs or spaces';
    const aliceMemories = (await source.find(memoryQuery)).memories.map((m) => m.uri);
    const bobMemories = (await bob.find(memoryQuery)).memories.map((m) => m.uri);

    const tampered = [];
    for (const [name, pack, parent] of [
      ['a file changed and zipped again', new Blob([changedFile(bytes)]), 'viking://resources'],
      ['a byte of a file flipped in place', flippedByte(bytes), 'viking://resources/tampered'],
    ] as const) {
      const before = await everything(target);
      const code = await codeOf(() =>
        target.import(pack, parent, { vectors: 'require', onConflict: 'overwrite' }),
      );
      tampered.push({ name, code, unchanged: (await everything(target)) === before });
    }

    // A pack over the 256 KB an import reads at a time (zip-read.ts), served as a Response's body
    // and read back as the runtime's own stream, as a download is. Written after the find()s: with
    // its 1,368 chunks' vectors in the store, a low hit of the source's find() was missing from the
    // target's (their HNSW graphs, built in different orders, answer differently).
    await source.write(`${LOGBOOK}/log.md`, logText(), { parents: true });
    const logbookBytes = (
      await new Response(await source.export(LOGBOOK, { includeVectors: true })).arrayBuffer()
    ).byteLength;
    const served = new Response(await source.export(LOGBOOK, { includeVectors: true })).body!;
    const copy = await target.import(served, 'viking://resources/copy', { vectors: 'require' });
    return {
      persistent: [source.persistent, target.persistent],
      home,
      memoryUri: memory.uri,
      isReadableStream,
      chunks: pieces.length,
      byteLength: bytes.length,
      imported,
      source: await contentBelow(source, FOLDER),
      target: await contentBelow(target, FOLDER),
      found,
      aliceMemories,
      bobMemories,
      copied: {
        byteLength: logbookBytes,
        result: copy,
        source: await contentBelow(source, LOGBOOK),
        target: await contentBelow(target, 'viking://resources/copy/logbook'),
      },
      tampered,
    };
  } finally {
    await source.close();
    await target.close();
  }
}

export async function writeFolder(longship: Longship): Promise<void> {
  await longship.mkdir(FOLDER, {
    abstract: 'The harbour',
    overview: 'Tides, knots and the crew of the harbour.',
  });
  await longship.write(
    `${FOLDER}/notes/tides.md`,
    'High tide comes twice a day; spring tides at full moon.',
    {
      parents: true,
    },
  );
  await longship.write(`${FOLDER}/notes/knots.md`, 'A bowline or a cleat hitch holds a mooring line.');
  await longship.write(`${FOLDER}/crew.md`, 'The crew: Ana the skipper, Bo the mate, Cy the cook.');
  await longship.write(`${FOLDER}/notes/ünïcode – name.md`, 'Names with accents and dashes travel too.');
}

/** About 600 KB of made-up words, which deflate leaves at about 480 KB. */
function logText(): string {
  let state = 7;
  const letter = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return String.fromCharCode(97 + ((state >>> 16) % 26));
  };
  const words: string[] = [];
  for (let length = 0; length < 600_000; ) {
    const word = Array.from({ length: 3 + (words.length % 6) }, letter).join('');
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const reader = stream.getReader();
  const pieces: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) pieces.push(next.value);
  return pieces;
}

function concat(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** The pack with one byte of one file's text changed, zipped again: its sha256 is not the manifest's. */
function changedFile(pack: Uint8Array): Uint8Array<ArrayBuffer> {
  const members = unzipSync(pack);
  const text = members[TAMPERED_FILE]!.slice();
  text[0]! ^= 0x20;
  return new Uint8Array(zipSync({ ...members, [TAMPERED_FILE]: text }));
}

/** The pack with one byte flipped in a file's deflated data, where it lies. */
function flippedByte(pack: Uint8Array): Uint8Array {
  const name = new TextEncoder().encode(TAMPERED_FILE);
  const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
  for (let at = 0; at + 30 < pack.length; at++) {
    if (view.getUint32(at, true) !== 0x04034b50) continue;
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    const found = pack.subarray(at + 30, at + 30 + nameLength);
    if (found.length !== name.length || !found.every((b, i) => b === name[i])) continue;
    const copy = pack.slice();
    copy[at + 30 + nameLength + extraLength + 8]! ^= 0xff;
    return copy;
  }
  throw new Error(`${TAMPERED_FILE} is not in the pack`);
}

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'imported';
  } catch (error) {
    return error instanceof LongshipError ? error.code : `not a LongshipError: ${error}`;
  }
}

/** Every node of the store, with its time and content, as one string. */
async function everything(longship: Longship): Promise<string> {
  const nodes = [];
  for await (const batch of longship.store.scan('nodes')) nodes.push(...batch);
  return JSON.stringify(nodes.sort((a, b) => (a.uri < b.uri ? -1 : 1)));
}

export async function contentBelow(longship: Longship, uri: string): Promise<NodeContent[]> {
  const top = await longship.store.node(uri);
  const all = top ? [top, ...(await longship.store.descendants(uri))] : [];
  return all
    .map(({ uri: at, kind, l0, l1, l2 }) => ({ path: at.slice(uri.length), kind, l0, l1, l2 }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function hits(longship: Longship, query: string): Promise<Hit[]> {
  const { resources } = await longship.find(query);
  return resources.map(({ uri, score }) => ({ path: uri.slice(FOLDER.length), score }));
}

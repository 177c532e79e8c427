// Packs for the OVPack tests: built here to OpenViking's format as its own server tests build them,
// and taken apart and put back together to make hostile ones.
import { createHash } from 'node:crypto';
import { unzipSync, Zip, ZipPassThrough } from 'fflate';
import type { Embedder } from '../../src/embed/embedder.js';
import type { Longship } from '../../src/engine.js';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/fixtures.js';

export const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');
export const utf8 = (text: string) => new TextEncoder().encode(text);

export const open = async (embedder: Embedder = hashEmbedder) =>
  openLongship({ store: await openMemoryStore(), embedder });

/** Python's json.dumps(sort_keys=True, separators=(',', ':'), ensure_ascii=False). */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${pythonJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A ZIP of these members, in this order, stored: names as given, twice if listed twice. */
export function zipOf(members: readonly (readonly [string, Uint8Array])[]): Uint8Array {
  const out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    out.push(chunk);
  });
  for (const [name, data] of members) {
    const file = new ZipPassThrough(name);
    zip.add(file);
    file.push(data, true);
  }
  zip.end();
  return new Uint8Array(Buffer.concat(out));
}

/** The members of a ZIP, in order. */
export const membersOf = (bytes: Uint8Array): [string, Uint8Array][] => Object.entries(unzipSync(bytes));

/**
 * A pack as OpenViking's own server tests build one: files, no index records unless given (written
 * one JSON object a line, keys sorted, as OpenViking writes them).
 */
export function openVikingPack(
  root = 'pkg',
  files: Record<string, string> = { 'content.md': '# Demo\n' },
  records: Record<string, unknown>[] = [],
) {
  const recordBytes = utf8(records.length ? `${records.map(pythonJson).join('\n')}\n` : '');
  const entries: Record<string, unknown>[] = [{ path: '', kind: 'directory' }];
  const inventory: Record<string, unknown>[] = [];
  for (const [path, text] of Object.entries(files).sort()) {
    const data = utf8(text);
    entries.push({ path, kind: 'file', size: data.length, sha256: sha256(data) });
    inventory.push({ path, size: data.length, sha256: sha256(data) });
  }
  const manifest = {
    kind: 'openviking.ovpack',
    format_version: 3,
    root: { name: root, uri: `viking://resources/${root}`, scope: 'resources' },
    entries,
    content_sha256: sha256(pythonJson(inventory)),
    index: {
      records: { path: '_ovpack/index_records.jsonl', count: records.length, sha256: sha256(recordBytes) },
    },
  };
  return zipOf([
    [`${root}/`, new Uint8Array()],
    [`${root}/files/`, new Uint8Array()],
    [`${root}/_ovpack/`, new Uint8Array()],
    [`${root}/_ovpack/index_records.jsonl`, recordBytes],
    [`${root}/_ovpack/manifest.json`, utf8(JSON.stringify(manifest))],
    ...Object.entries(files).map(([path, text]) => [`${root}/files/${path}`, utf8(text)] as const),
  ]);
}

/** The bytes of an exported pack. */
export async function exported(longship: Longship, uri: string, includeVectors = false): Promise<Uint8Array> {
  const stream = await longship.export(uri, { includeVectors });
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Every node below `uri` without its key (which each store hands out itself), by URI. */
export async function nodesBelow(longship: Longship, uri: string) {
  const top = await longship.store.node(uri);
  const all = top ? [top, ...(await longship.store.descendants(uri))] : [];
  return Promise.all(
    all.map(async ({ key, ...node }) => ({
      node,
      posting: await longship.store.posting(key).then((p) => p && { ...p, key: undefined }),
      vectors: (await longship.store.vectorsOfNode(key)).map((v) => ({
        chunk: v.chunk,
        vector: [...v.vector],
      })),
    })),
  );
}

/** Everything the store holds, for "nothing was written". */
export async function everything(longship: Longship) {
  const nodes = [];
  for await (const batch of longship.store.scan('nodes')) nodes.push(...batch);
  return { nodes, meta: await longship.store.meta() };
}

// Fills a new visitor's store from the sample corpus's pack (pack-format.ts), so that the model never
// embeds the corpus in the tab: the records are written in one transaction, then the snapshots of
// their indexes, which the engine opened next loads instead of building them. A pack made for another
// model or another shape of records is refused, and the page indexes the corpus as it did before
// there were packs.
import type { FullStore } from '../../src/store/full-store.js';
import { type EmbedderInfo, STORE_SCHEMA_VERSION } from '../../src/store/store.js';
import { decodePack, type Pack } from './pack-format.js';

export type PackOutcome = 'imported' | 'not-empty' | 'refused' | 'missing';

/** Why `pack` does not fit this worker, or undefined when it does. */
export function packMismatch(pack: Pack, embedder: EmbedderInfo, hash: string): string | undefined {
  const { header } = pack;
  if (header.embedder.id !== embedder.id || header.embedder.dimensions !== embedder.dimensions) {
    return `made with ${header.embedder.id} (${header.embedder.dimensions}), not ${embedder.id} (${embedder.dimensions})`;
  }
  if (header.schema !== STORE_SCHEMA_VERSION)
    return `records of schema ${header.schema}, not ${STORE_SCHEMA_VERSION}`;
  if (header.hash !== hash) return `corpus ${header.hash}, not ${hash}`;
  return undefined;
}

/**
 * Writes the pack at `url` into `store` when the store holds no node yet. `hash` is the pack this
 * build was made with; a pack that names another corpus, model or schema is refused.
 */
export async function importPack(
  store: FullStore,
  embedder: EmbedderInfo,
  { url, hash }: { url: URL; hash: string },
): Promise<PackOutcome> {
  if ((await store.stats()).nodes > 0) return 'not-empty';
  const response = await fetch(url);
  if (!response.ok) {
    console.warn(`the sample corpus's pack is not at ${url.pathname} (${response.status}): indexing it`);
    return 'missing';
  }
  const pack = decodePack(new Uint8Array(await response.arrayBuffer()));
  const mismatch = packMismatch(pack, embedder, hash);
  if (mismatch) {
    console.warn(`the sample corpus's pack was ${mismatch}: indexing it instead`);
    return 'refused';
  }
  return (await writePack(store, pack, embedder)) ? 'imported' : 'not-empty';
}

/**
 * Writes the pack's records into `store` as one change, then its snapshots as of that change; false
 * when another writer committed first. The snapshots describe exactly the records of the pack, so
 * they hold for a store that had none before.
 */
export async function writePack(store: FullStore, pack: Pack, embedder: EmbedderInfo): Promise<boolean> {
  const meta = await store.meta();
  // The pack's keys, taken in this store: the next ones the engine hands out come after them.
  const taken = pack.header.nextKey - meta.nextKey;
  if (taken > 0) await store.allocateKeys(taken);
  const { header, vectors } = pack;
  const keys = (records: readonly { key: number }[]) => records.map((r) => r.key).sort((a, b) => a - b);
  const written = await store.write({
    deleteNodes: [],
    deleteVectors: [],
    deletePostings: [],
    deleteRelations: [],
    putNodes: header.nodes,
    putVectors: vectors,
    putPostings: header.postings,
    putRelations: header.relations,
    embedder,
    change: {
      seq: meta.seq + 1,
      addedNodeKeys: keys(header.nodes),
      removedNodeKeys: [],
      addedVectorKeys: keys(vectors),
      removedVectorKeys: [],
      addedPostingKeys: keys(header.postings),
      removedPostingKeys: [],
    },
  });
  // Another writer came first (this worker holds the store's lock, so none should): leave it be.
  if (!written) return false;
  for (const { name, bytes } of pack.snapshots) await store.putSnapshot({ name, seq: meta.seq + 1, bytes });
  return true;
}

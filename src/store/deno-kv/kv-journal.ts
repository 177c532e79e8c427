// Commits too large for one atomic batch. The mutations are written first as a journal, under a
// fresh id that nothing reads; one small atomic batch then publishes it, checking the meta key's
// versionstamp as any write does and naming the journal in meta; the journal is then applied in
// batches, each checked against that same versionstamp, and meta cleared. A crash before the
// publish leaves a journal nobody reads, which the next open deletes; one after it leaves a
// published journal, which the next open, write or meta() applies again from the start (setting and
// deleting keys in order is idempotent). docs/guide/deno-kv.md, "Large commits".

import { LongshipError } from '../../errors.js';
import { newGeneration } from '../snapshot/snapshot-format.js';
import type { EmbedderInfo } from '../store.js';
import { addTo, commitEach, del, listAll, type Mutation, set, toBatches } from './kv-batches.js';
import type { DenoKv, KvKey } from './kv-handle.js';
import type { KvKeys } from './kv-keys.js';

/** What the meta key holds. */
export interface KvMeta {
  seq: number;
  embedder?: EmbedderInfo;
  /** A published journal not yet applied in full. */
  applying?: { id: string; count: number };
}

export interface MetaEntry {
  value: KvMeta;
  /** Null while the store has never been written. */
  versionstamp: string | null;
}

export async function readMeta(kv: DenoKv, k: KvKeys): Promise<MetaEntry> {
  const entry = await kv.get<KvMeta>(k.meta());
  return { value: entry.value ?? { seq: 0 }, versionstamp: entry.versionstamp };
}

/**
 * Makes `mutations` and sets meta to `next`, unless meta has changed since `meta` was read: then
 * writes nothing and resolves false. One atomic batch where they fit; else a journal, published, applied.
 */
export async function commitWrites(
  kv: DenoKv,
  k: KvKeys,
  mutations: readonly Mutation[],
  meta: MetaEntry,
  next: KvMeta,
): Promise<boolean> {
  const batches = toBatches(mutations, 1);
  const check = { key: k.meta(), versionstamp: meta.versionstamp };
  if (batches.length === 1) {
    return (await addTo(kv.atomic().check(check), batches[0]!).set(k.meta(), next).commit()).ok;
  }
  const id = newGeneration();
  const head = k.journalHead(id);
  const written = await kv
    .atomic()
    .check({ key: head, versionstamp: null })
    .set(head, mutations.length)
    .commit();
  const headStamp = (written as { versionstamp?: string }).versionstamp ?? null;
  try {
    await commitEach(
      kv,
      mutations.map((m, i) => set(k.journal(id, i), m)),
    );
  } catch (error) {
    await dropJournal(kv, k, id).catch(() => undefined);
    throw error;
  }
  const published = { ...next, applying: { id, count: mutations.length } };
  const publish = await kv
    .atomic()
    .check(check, { key: head, versionstamp: headStamp })
    .set(k.meta(), published)
    .commit();
  if (!publish.ok) {
    await dropJournal(kv, k, id).catch(() => undefined);
    return false;
  }
  await applyJournal(kv, k, {
    value: published,
    versionstamp: (publish as { versionstamp?: string }).versionstamp ?? null,
  });
  return true;
}

/**
 * Applies the journal `meta` names, then clears it from meta and deletes it. Stops, done, when meta
 * has moved on: another process applied it first.
 */
export async function applyJournal(kv: DenoKv, k: KvKeys, meta: MetaEntry): Promise<void> {
  const { applying, ...next } = meta.value;
  if (!applying) return;
  const check = { key: k.meta(), versionstamp: meta.versionstamp };
  const entries = await listAll<Mutation>(kv, { prefix: k.journal(applying.id) });
  if (entries.length !== applying.count) {
    // Only another process that applied it and cleared meta deletes a published journal.
    if ((await kv.get(k.meta())).versionstamp !== meta.versionstamp) return;
    throw new LongshipError(
      'STORE_ERROR',
      `commit ${next.seq}'s journal has ${entries.length} of its ${applying.count} writes`,
    );
  }
  for (const batch of toBatches(entries.map((e) => e.value))) {
    if (!(await addTo(kv.atomic().check(check), batch).commit()).ok) return;
  }
  if (!(await kv.atomic().check(check).set(k.meta(), next).commit()).ok) return;
  await dropJournal(kv, k, applying.id);
}

/** Deletes the journals no meta names: left by a crash before their publish, or by a failed one. */
export async function dropStrayJournals(kv: DenoKv, k: KvKeys): Promise<void> {
  const meta = await readMeta(kv, k);
  const live = meta.value.applying?.id;
  const check = { key: k.meta(), versionstamp: meta.versionstamp };
  const ids = new Set<string>();
  for (const { key } of await listAll(kv, { prefix: k.journalHead() })) {
    const id = String(key.at(-1));
    if (id === live) continue;
    // Deleting the head first makes a journal that is still being written fail its publish.
    if (!(await kv.atomic().check(check).delete(key).commit()).ok) return;
    ids.add(id);
  }
  // Entries whose head is gone: a drop cut short. A journal with its head is still being written.
  for (const { key } of await listAll(kv, { prefix: k.journals() })) {
    const id = String(key.at(-2));
    if (id === live || ids.has(id)) continue;
    if ((await kv.get(k.journalHead(id))).versionstamp === null) ids.add(id);
  }
  for (const id of ids) await dropJournal(kv, k, id, false);
}

async function dropJournal(kv: DenoKv, k: KvKeys, id: string, head = true): Promise<void> {
  const keys: KvKey[] = (await listAll(kv, { prefix: k.journal(id) })).map((e) => e.key);
  if (head) keys.unshift(k.journalHead(id));
  await commitEach(kv, keys.map(del));
}

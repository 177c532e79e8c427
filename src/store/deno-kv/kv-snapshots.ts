// Index snapshots in Deno KV: each 4 MiB chunk (snapshot-format.ts) written as pieces under the value
// limit, a few atomic batches at a time, under a fresh generation; the header, set last, names it.

import { throwIfAborted } from '../../abort.js';
import type { Snapshot, SnapshotInput, SnapshotPieces, SnapshotSink } from '../change-log.js';
import {
  checkSnapshot,
  checkSnapshotInput,
  joinSnapshot,
  newGeneration,
  piecesInto,
  rechunk,
  type SnapshotChunk,
  type SnapshotHeader,
  SnapshotSummer,
} from '../snapshot/snapshot-format.js';
import { commitEach, del, listAll, set } from './kv-batches.js';
import { kvErrors } from './kv-errors.js';
import type { DenoKv } from './kv-handle.js';
import type { KvKeys } from './kv-keys.js';
import { cut } from './kv-values.js';

/** The snapshots of one store. `live` throws `STORE_CLOSED` once it is closed; `seq` is its last. */
export class KvSnapshots {
  constructor(
    private readonly kv: DenoKv,
    private readonly k: KvKeys,
    private readonly live: () => void,
    private readonly seq: () => Promise<number>,
  ) {}

  async put(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    this.live();
    checkSnapshotInput(input?.name, input?.seq, await this.seq());
    throwIfAborted(signal);
    const { name, seq } = input;
    const generation = newGeneration();
    const sum = new SnapshotSummer();
    try {
      for await (const chunk of rechunk(input.bytes)) {
        this.live();
        throwIfAborted(signal);
        const index = sum.add(chunk);
        const pieces = cut(chunk).map((bytes, sub) =>
          set(this.k.snapshotPiece(name, generation, index, sub), bytes),
        );
        await commitEach(this.kv, pieces);
      }
      this.live();
      throwIfAborted(signal);
    } catch (error) {
      await this.#drop(name, (g) => g === generation).catch(() => undefined);
      throw error;
    }
    const { byteLength, chunkCount, checksum, hash } = sum;
    const header: SnapshotHeader = {
      name,
      seq,
      generation,
      byteLength,
      chunkCount,
      checksum,
      hash,
      createdAt: Date.now(),
    };
    // The header is the commit point; then the previous generation (and any unfinished one) goes.
    await this.kv.atomic().set(this.k.snapshot(name), header).commit();
    await this.#drop(name, (g) => g !== generation);
  }

  async get(name: string): Promise<Snapshot | undefined> {
    return joinSnapshot(await this.#checked(name));
  }

  async into<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    // The pieces are this call's copy of the values: kept for later reads, the snapshot would be held twice.
    return piecesInto(await this.#checked(name), open, false);
  }

  async delete(name: string): Promise<void> {
    this.live();
    await this.kv.atomic().delete(this.k.snapshot(name)).commit();
    await this.#drop(name, () => true);
  }

  async #checked(name: string): Promise<SnapshotPieces | undefined> {
    this.live();
    const read = await kvErrors(async () => {
      const header = (await this.kv.get<SnapshotHeader>(this.k.snapshot(name))).value;
      if (!header) return undefined;
      const prefix = this.k.snapshotPiece(name, header.generation);
      return { header, pieces: await listAll<Uint8Array>(this.kv, { prefix }) };
    });
    this.live();
    if (!read) return undefined;
    const { header, pieces } = read;
    const byIndex: { index: number; pieces: Uint8Array[] }[] = [];
    for (const { key, value } of pieces) {
      const index = key.at(-2) as number;
      if (byIndex.at(-1)?.index !== index) byIndex.push({ index, pieces: [] });
      byIndex.at(-1)!.pieces.push(value);
    }
    const chunks: SnapshotChunk[] = byIndex.map(({ index, pieces }) => ({
      name,
      generation: header.generation,
      index,
      bytes: concat(pieces),
    }));
    return checkSnapshot(header, chunks);
  }

  /** Deletes the pieces of `name` whose generation `which` picks. */
  async #drop(name: string, which: (generation: string) => boolean): Promise<void> {
    const found = await listAll(this.kv, { prefix: this.k.snapshotPiece(name) });
    await commitEach(
      this.kv,
      found.filter(({ key }) => which(String(key.at(-3)))).map(({ key }) => del(key)),
    );
  }
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

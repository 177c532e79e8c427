// A change log and snapshots kept in memory, in a MemoryData's tables: MemoryStore's, and the one
// fullStore() keeps for a store without a log of its own (full-store.ts).

import { throwIfAborted } from '../../abort.js';
import { LongshipError } from '../../errors.js';
import type { ChangeLog, Snapshot, SnapshotInput, SnapshotPieces, SnapshotSink } from '../change-log.js';
import {
  checkSnapshot,
  checkSnapshotInput,
  joinSnapshot,
  newGeneration,
  piecesInto,
  rechunk,
  type SnapshotChunk,
  SnapshotSummer,
} from '../snapshot/snapshot-format.js';
import type { ChangeRecord } from '../store.js';
import { chunkId, type MemoryData } from './memory-data.js';

/**
 * The log of `data`. `live` returns the tables, or throws `STORE_CLOSED` once the owner is closed.
 *
 * @example
 * const log = new MemoryLog(() => data);
 * await log.putSnapshot({ name: 'hnsw', seq: data.state.seq, bytes });
 */
export class MemoryLog implements ChangeLog {
  constructor(private readonly live: () => MemoryData) {}

  async changesSince(seq: number): Promise<ChangeRecord[]> {
    const { changes } = this.live();
    return [...changes.keys()]
      .filter((key) => key > seq)
      .sort((a, b) => a - b)
      .map((key) => structuredClone(changes.get(key)!));
  }

  async pruneChanges(throughSeq: number): Promise<void> {
    const { changes } = this.live();
    for (const seq of [...changes.keys()]) if (seq <= throughSeq) changes.delete(seq);
  }

  async putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    const data = this.live();
    checkSnapshotInput(input?.name, input?.seq, data.state.seq);
    throwIfAborted(signal);
    const { name, seq } = input;
    const generation = newGeneration();
    const sum = new SnapshotSummer();
    try {
      for await (const bytes of rechunk(input.bytes)) {
        this.live();
        throwIfAborted(signal);
        const index = sum.add(bytes);
        data.snapshotChunks.set(chunkId(name, generation, index), { name, generation, index, bytes });
      }
      this.live();
      throwIfAborted(signal);
    } catch (error) {
      for (let i = 0; i < sum.chunkCount; i++) data.snapshotChunks.delete(chunkId(name, generation, i));
      throw error;
    }
    for (let i = 0; i < sum.chunkCount; i++) {
      if (!data.snapshotChunks.has(chunkId(name, generation, i))) {
        throw new LongshipError('STORE_ERROR', `snapshot ${name} was replaced while it was being written`);
      }
    }
    // The header is the commit point; then the previous generation (and any unfinished one) goes.
    data.snapshots.set(name, { name, seq, generation, ...sum, createdAt: Date.now() });
    for (const [id, chunk] of data.snapshotChunks) {
      if (chunk.name === name && chunk.generation !== generation) data.snapshotChunks.delete(id);
    }
  }

  async snapshot(name: string): Promise<Snapshot | undefined> {
    return joinSnapshot(this.#checked(name));
  }

  async snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    return piecesInto(this.#checked(name), open);
  }

  async deleteSnapshot(name: string): Promise<void> {
    const data = this.live();
    data.snapshots.delete(name);
    for (const [id, chunk] of data.snapshotChunks) if (chunk.name === name) data.snapshotChunks.delete(id);
  }

  #checked(name: string): SnapshotPieces | undefined {
    const data = this.live();
    const header = data.snapshots.get(name);
    if (!header) return undefined;
    const chunks: SnapshotChunk[] = [];
    for (let i = 0; i < header.chunkCount; i++) {
      const chunk = data.snapshotChunks.get(chunkId(name, header.generation, i));
      if (!chunk) return undefined;
      chunks.push(chunk);
    }
    return checkSnapshot(header, chunks);
  }
}

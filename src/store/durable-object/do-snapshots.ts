// The index snapshots of a Durable Object store: each 4 MB chunk of the common layout
// (snapshot-format.ts) in rows of SNAPSHOT_PART_BYTES, written under a fresh generation, then the
// header in one transaction with the removal of older generations. The header is the commit point:
// a snapshot that fails or is aborted part way leaves the previous one in place.

import { throwIfAborted } from '../../abort.js';
import { LongshipError } from '../../errors.js';
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
import { storeError } from './do-errors.js';
import { SNAPSHOT_PART_BYTES } from './do-schema.js';
import type { DurableObjectSqlStorage, SqlValue } from './sql-storage.js';

export class DoSnapshots {
  constructor(
    private readonly storage: DurableObjectSqlStorage,
    /** The store's seq; throws `STORE_CLOSED` once it is closed. */
    private readonly liveSeq: () => number,
  ) {}

  async putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    checkSnapshotInput(input?.name, input?.seq, this.liveSeq());
    throwIfAborted(signal);
    const { name, seq } = input;
    const { sql } = this.storage;
    const generation = newGeneration();
    const sum = new SnapshotSummer();
    let parts = 0;
    try {
      for await (const chunk of rechunk(input.bytes)) {
        this.liveSeq();
        throwIfAborted(signal);
        const index = sum.add(chunk);
        for (let at = 0, part = 0; at < chunk.length; at += SNAPSHOT_PART_BYTES, part++, parts++) {
          const bytes = chunk.subarray(at, at + SNAPSHOT_PART_BYTES);
          this.#exec(
            'INSERT INTO longship_snapshot_parts (name, generation, chunk, part, bytes) VALUES (?, ?, ?, ?, ?)',
            name,
            generation,
            index,
            part,
            bytes,
          );
        }
      }
      this.liveSeq();
      throwIfAborted(signal);
    } catch (error) {
      this.#deleteGeneration(name, generation);
      throw error;
    }
    const header: SnapshotHeader = { name, seq, generation, ...sum, createdAt: Date.now() };
    this.#transaction(() => {
      const [row] = sql
        .exec(
          'SELECT count(*) AS n FROM longship_snapshot_parts WHERE name = ? AND generation = ?',
          name,
          generation,
        )
        .toArray();
      if (Number(row?.n) !== parts) {
        throw new LongshipError('STORE_ERROR', `snapshot ${name} was deleted while it was being written`);
      }
      sql.exec(
        'INSERT OR REPLACE INTO longship_snapshots (name, header) VALUES (?, ?)',
        name,
        JSON.stringify(header),
      );
      sql.exec('DELETE FROM longship_snapshot_parts WHERE name = ? AND generation != ?', name, generation);
    });
  }

  async snapshot(name: string): Promise<Snapshot | undefined> {
    return joinSnapshot(this.#checked(name));
  }

  async snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    // The pieces are this call's copy of the rows: offered to the sink for later reads, they would
    // hold a snapshot twice in the object's memory (BM25's whole, beside its sink's).
    return piecesInto(this.#checked(name), open, false);
  }

  async deleteSnapshot(name: string): Promise<void> {
    this.liveSeq();
    const { sql } = this.storage;
    this.#transaction(() => {
      sql.exec('DELETE FROM longship_snapshots WHERE name = ?', name);
      sql.exec('DELETE FROM longship_snapshot_parts WHERE name = ?', name);
    });
  }

  #exec(query: string, ...bindings: SqlValue[]): void {
    this.#transaction(() => this.storage.sql.exec(query, ...bindings));
  }

  #transaction(fn: () => void): void {
    try {
      this.storage.transactionSync(fn);
    } catch (error) {
      throw storeError(error, 'a snapshot');
    }
  }

  #deleteGeneration(name: string, generation: string): void {
    this.storage.sql.exec(
      'DELETE FROM longship_snapshot_parts WHERE name = ? AND generation = ?',
      name,
      generation,
    );
  }

  /** The header's chunks, each joined from its parts, checked; undefined if any is missing or damaged. */
  #checked(name: string): SnapshotPieces | undefined {
    this.liveSeq();
    const { sql } = this.storage;
    const [row] = sql.exec('SELECT header FROM longship_snapshots WHERE name = ?', name).toArray();
    if (!row) return undefined;
    const header = JSON.parse(row.header as string) as SnapshotHeader;
    const rows = sql
      .exec(
        'SELECT chunk, part, bytes FROM longship_snapshot_parts WHERE name = ? AND generation = ? ORDER BY chunk, part',
        name,
        header.generation,
      )
      .toArray();
    const chunks: SnapshotChunk[] = [];
    for (let i = 0; i < rows.length; ) {
      const index = Number(rows[i]!.chunk);
      const parts: Uint8Array[] = [];
      for (; i < rows.length && Number(rows[i]!.chunk) === index; i++) {
        if (Number(rows[i]!.part) !== parts.length) return undefined;
        parts.push(new Uint8Array(rows[i]!.bytes as ArrayBuffer));
      }
      chunks.push({ name, generation: header.generation, index, bytes: join(parts) });
    }
    return checkSnapshot(header, chunks);
  }
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

// The file store's checkpoint: every table as of the start of the current log, in frames (a header
// with the state, rows a thousand at a time, an end frame that counts them). It is written whole to
// a temporary file, flushed, and renamed over the previous one: a checkpoint is complete or absent.

import type { NodeFiles } from '../../env/node-files.js';
import { LongshipError } from '../../errors.js';
import type { MemoryData } from '../memory/memory-data.js';
import { relationId } from '../plan/commit-plan.js';
import type { StoreState } from '../plan/plan-reader.js';
import type { ChangeRecord, NodeRecord, PostingRecord, RelationRecord } from '../store.js';
import { frames, readFrames } from './file-frames.js';
import { FileLog, fileError, syncDirectory } from './file-log.js';
import { type RecordCodec, RecordKind } from './file-records.js';
import { writeNewFile } from './new-file.js';

export const FORMAT = 'longship-file-store';
export const FORMAT_VERSION = 1;
export const CHECKPOINT_FILE = 'checkpoint';
/** The file that makes a folder a Longship store: `{ format, version }`, written before anything else. */
export const MARKER_FILE = 'longship.json';
const ROWS_PER_FRAME = 1000;

export interface LogHeader {
  format: string;
  version: number;
  generation: number;
}

type RowTable = 'nodes' | 'postings' | 'relations' | 'changes';

/** The log file of checkpoint generation `generation`. */
export function logFile(files: NodeFiles, dir: string, generation: number): string {
  return files.path.join(dir, `log-${generation}`);
}

/** A file store's tables in memory, and the files that hold them: the checkpoint and its log. */
export interface LoggedTables {
  files: NodeFiles;
  dir: string;
  codec: RecordCodec;
  data: MemoryData;
  log: FileLog;
  generation: number;
  checkpointBytes: number;
}

/**
 * Folds the log into the checkpoint: writes checkpoint n+1 and an empty log n+1, renames the
 * checkpoint into place (the switch), then removes log n. An open after a crash finds checkpoint n
 * with log n, or n+1 with log n+1; the other log is a stray it removes. Run it with no write under
 * way: it moves `tables` on to the new log and generation.
 *
 * @example
 * await data.exclusive(() => compactLog(parts));
 */
export async function compactLog(tables: LoggedTables): Promise<void> {
  const { files, dir, codec, data } = tables;
  const generation = tables.generation + 1;
  const temp = files.path.join(dir, `${CHECKPOINT_FILE}.tmp`);
  await files.fs.promises.rm(temp, { force: true });
  const bytes = await writeCheckpoint(files, temp, codec, data, generation);
  const nextFile = logFile(files, dir, generation);
  await files.fs.promises.rm(nextFile, { force: true });
  const header: LogHeader = { format: FORMAT, version: FORMAT_VERSION, generation };
  const next = await FileLog.create(files, nextFile, codec.encode(RecordKind.header, header));
  try {
    await files.fs.promises.rename(temp, files.path.join(dir, CHECKPOINT_FILE));
    await syncDirectory(files, dir);
  } catch (error) {
    await next.close();
    throw fileError('renaming the checkpoint', temp, error);
  }
  const old = tables.log;
  tables.log = next;
  tables.generation = generation;
  tables.checkpointBytes = bytes;
  await old.close();
  await files.fs.promises.rm(old.file, { force: true });
}

/**
 * Writes `data` as checkpoint `generation` to `file` (which must not exist), flushed. Resolves with
 * its size.
 */
export async function writeCheckpoint(
  files: NodeFiles,
  file: string,
  codec: RecordCodec,
  data: MemoryData,
  generation: number,
): Promise<number> {
  try {
    return await writeNewFile(files, file, async (handle) => {
      let at = 0;
      let count = 0;
      const put = async (payload: Uint8Array) => {
        const bytes = frames([payload]);
        for (let done = 0; done < bytes.length; ) {
          done += (await handle.write(bytes, done, bytes.length - done, at + done)).bytesWritten;
        }
        at += bytes.length;
        count++;
      };
      const header: LogHeader & { state: StoreState } = {
        format: FORMAT,
        version: FORMAT_VERSION,
        generation,
        state: data.state,
      };
      await put(codec.encode(RecordKind.header, header));
      const tables: Record<RowTable, unknown[]> = {
        nodes: [...data.nodes.values()],
        postings: [...data.postings.values()],
        relations: [...data.relations.values()],
        changes: [...data.changes.values()],
      };
      for (const [table, rows] of Object.entries(tables)) {
        for (let i = 0; i < rows.length; i += ROWS_PER_FRAME) {
          await put(codec.encode(RecordKind.rows, { table, rows: rows.slice(i, i + ROWS_PER_FRAME) }));
        }
      }
      const vectors = [...data.vectors.values()];
      for (let i = 0; i < vectors.length; i += ROWS_PER_FRAME) {
        await put(codec.encode(RecordKind.rows, { table: 'vectors' }, vectors.slice(i, i + ROWS_PER_FRAME)));
      }
      await put(codec.encode(RecordKind.end, { frames: count }));
      return at;
    });
  } catch (error) {
    throw fileError('writing the checkpoint', file, error);
  }
}

/**
 * Reads checkpoint `file` into `data` (empty); resolves with its generation and size. A checkpoint
 * is renamed into place only once complete, so any damage is reported, never dropped.
 */
export async function readCheckpoint(
  files: NodeFiles,
  file: string,
  codec: RecordCodec,
  data: MemoryData,
): Promise<{ generation: number; byteLength: number }> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await files.fs.promises.readFile(file));
  } catch (error) {
    throw fileError('reading the checkpoint', file, error);
  }
  const damaged = (why: string) =>
    new LongshipError('STORE_ERROR', `the checkpoint ${file} is damaged (${why}); the store cannot be read`);
  const { payloads, end } = readFrames(bytes);
  if (end !== bytes.length) throw damaged(`a frame at byte ${end} fails its checksum`);
  const records = payloads.map((p) => codec.decode(p));
  const header = records[0]?.body as (LogHeader & { state: StoreState }) | undefined;
  const last = records.at(-1);
  if (records[0]?.kind !== RecordKind.header || header?.format !== FORMAT) throw damaged('no header');
  if (last?.kind !== RecordKind.end || (last.body as { frames: number }).frames !== records.length - 1) {
    throw damaged('no end');
  }
  data.state = header.state;
  for (const record of records.slice(1, -1)) {
    const { table, rows } = record.body as { table: RowTable | 'vectors'; rows?: unknown[] };
    if (table === 'vectors') for (const v of record.vectors) data.vectors.set(v.key, v);
    else if (table === 'nodes') for (const n of rows as NodeRecord[]) data.nodes.set(n.uri, n);
    else if (table === 'postings') for (const p of rows as PostingRecord[]) data.postings.set(p.key, p);
    else if (table === 'relations')
      for (const r of rows as RelationRecord[]) data.relations.set(relationId(r), r);
    else if (table === 'changes') for (const c of rows as ChangeRecord[]) data.changes.set(c.seq, c);
    else throw damaged(`unknown table ${String(table)}`);
  }
  data.reindex();
  return { generation: header.generation, byteLength: bytes.length };
}

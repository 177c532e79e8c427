// What each record of the file store's log does to the tables: the same function applies a record
// when it is written and when the log is replayed at open, so the two cannot disagree.

import { LongshipError } from '../../errors.js';
import type { MemoryData } from '../memory/memory-data.js';
import type { EmbedderInfo } from '../store.js';
import { type CommitBody, type DecodedRecord, RecordKind } from './file-records.js';

/**
 * Applies one log record to `data`. Throws STORE_ERROR for a record out of sequence (a log that
 * does not follow its checkpoint).
 *
 * @example
 * for (const payload of payloads) applyRecord(data, codec.decode(payload));
 */
export function applyRecord(data: MemoryData, record: DecodedRecord): void {
  switch (record.kind) {
    case RecordKind.commit: {
      const { plan, nextKey } = record.body as CommitBody;
      if (plan.change.seq !== data.state.seq + 1) {
        throw new LongshipError(
          'STORE_ERROR',
          `the log holds commit ${plan.change.seq} after ${data.state.seq}: it does not follow its checkpoint`,
        );
      }
      data.apply({ ...plan, putVectors: record.vectors });
      data.state.nextKey = Math.max(data.state.nextKey, nextKey);
      return;
    }
    case RecordKind.keys:
      data.state.nextKey = Math.max(data.state.nextKey, (record.body as { nextKey: number }).nextKey);
      return;
    case RecordKind.prune: {
      const { throughSeq } = record.body as { throughSeq: number };
      for (const seq of [...data.changes.keys()]) if (seq <= throughSeq) data.changes.delete(seq);
      return;
    }
    case RecordKind.embedder: {
      const { embedder, reset } = record.body as { embedder: EmbedderInfo; reset: boolean };
      if (reset) data.dropVectors();
      data.state.embedder = { id: embedder.id, dimensions: embedder.dimensions };
      return;
    }
    default:
      throw new LongshipError('STORE_ERROR', `the log holds a record of unknown kind ${record.kind}`);
  }
}

// After a job: the directories from its target up to the root re-summarised and re-embedded where
// their children changed.
import { throwIfAborted } from '../../abort.js';
import type { VikingUri } from '../../context/uri.js';
import { LongshipError } from '../../errors.js';
import type { ContextType } from '../../store/store.js';
import type { IngestContext } from '../ingest-context.js';
import { chainOf, refreshChain } from './ancestors.js';
import { type BatchContext, buildBatch, embedWrites } from './write-batch.js';

/** Reads of a chain whose directories keep being replaced under the refresh, before it gives up. */
const REFRESH_ATTEMPTS = 3;

/** Brings `target` and the directories above it up to date with their children, in one commit. */
export async function refreshAbove(
  ctx: IngestContext,
  target: VikingUri,
  context: { contextType: ContextType; now: number },
  signal?: AbortSignal,
): Promise<void> {
  // A directory removed while its summary was computed stays removed; one replaced is read again.
  for (let attempt = 1; ; attempt++) {
    const writes = await refreshChain(ctx.store, chainOf(target), ctx.summarizer, signal);
    if (writes.length === 0) return;
    const vectors = await embedWrites(writes, ctx.embedder, ctx.chunking, signal);
    throwIfAborted(signal, 'ingestion');
    const batch = await buildBatch(ctx.keys, writes, vectors, [], context);
    batch.requireNodes = writes.flatMap(({ previous: p }) => (p ? [{ uri: p.uri, key: p.key }] : []));
    try {
      return void (await ctx.store.commit(batch, signal));
    } catch (error) {
      if (!(error instanceof LongshipError && error.code === 'NOT_FOUND') || attempt === REFRESH_ATTEMPTS)
        throw error;
    }
  }
}

/** Once every document is in, a cancellation only skips the parents' refresh: the job did its work. */
export async function refreshAfter(
  ctx: IngestContext,
  target: VikingUri,
  context: BatchContext,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) return;
  try {
    await refreshAbove(ctx, target, { contextType: context.contextType, now: context.now }, signal);
  } catch (error) {
    if (!(signal?.aborted && error instanceof LongshipError && error.code === 'ABORTED')) throw error;
  }
}

// The last steps of a job: embed the planned writes several documents per call, and commit each
// call's documents together, each document whole or absent (see ingest.ts's header).
import { throwIfAborted } from '../../abort.js';
import type { ContextType, NodeRecord } from '../../store/store.js';
import type { IngestContext, Report } from '../ingest-context.js';
import type { ResourceNode } from '../plan.js';
import { commitParts, type Unit } from './commit-parts.js';
import { buildBatch, embedWrites, isEmptyBatch, type NodeWrite } from './write-batch.js';

/**
 * Embedding is batched across documents up to about this many nodes, then they are committed together.
 * A commit's cost is partly per commit (its durable flush): in Chromium at 100k, store + index took
 * 1.04-1.20 ms a document in commits of 64 against 1.20-1.53 in commits of 32 (medians of 3 processes).
 */
export const nodesPerEmbedCall = 64;

/** Vectors of a stored node with the same content: a renamed section need not be embedded again. */
async function reusable(
  ctx: IngestContext,
  node: ResourceNode,
  stored: ReadonlyMap<string, NodeRecord>,
): Promise<Float32Array[] | undefined> {
  const source = node.sameContentAs === undefined ? undefined : stored.get(node.sameContentAs);
  if (node.kind !== 'file' || source?.kind !== 'file') return undefined;
  const vectors = await ctx.store.vectorsOfNode(source.key);
  return vectors.length > 0 && vectors.every((v, i) => v.chunk === i)
    ? vectors.map((v) => v.vector)
    : undefined;
}

/** The end of the group of units that starts at `start`: one embedding call's worth. */
function groupEnd(units: readonly Unit[], start: number): number {
  let end = start;
  let nodes = 0;
  while (end < units.length && (end === start || nodes < nodesPerEmbedCall)) {
    nodes += units[end]!.writes.length;
    end++;
  }
  return end;
}

/** The group's writes, in order, with a stored node's vectors where its content moved unchanged. */
async function groupWrites(
  ctx: IngestContext,
  group: readonly Unit[],
  stored: ReadonlyMap<string, NodeRecord>,
): Promise<NodeWrite[]> {
  const writes: NodeWrite[] = [];
  for (const unit of group) {
    for (const write of unit.writes) {
      const planned = write.node as ResourceNode;
      if (!write.vectors && planned.sameContentAs !== undefined) {
        const vectors = await reusable(ctx, planned, stored);
        if (vectors) write.vectors = vectors;
      }
      writes.push(write);
    }
  }
  return writes;
}

/** Embeds and commits the units in order, embedding several documents per call. */
export async function commitUnits(
  ctx: IngestContext,
  units: readonly Unit[],
  context: { contextType: ContextType; reason?: string; now: number },
  stored: ReadonlyMap<string, NodeRecord>,
  report: Report,
  signal: AbortSignal | undefined,
  total: number,
): Promise<void> {
  let done = 0;
  for (let start = 0; start < units.length; ) {
    const end = groupEnd(units, start);
    const group = units.slice(start, end);
    throwIfAborted(signal, 'ingestion');
    const first = group.find((unit) => unit.writes.length > 0);
    if (first) report({ phase: 'embed', done, total, ...(first.uri ? { uri: first.uri } : {}) });
    const writes = await groupWrites(ctx, group, stored);
    const vectors = await embedWrites(writes, ctx.embedder, ctx.chunking, signal);
    let at = 0;
    for (const part of commitParts(group)) {
      const partWrites = part.flatMap((unit) => unit.writes);
      const mine = vectors.slice(at, at + partWrites.length);
      at += partWrites.length;
      const deletions = part.flatMap((unit) => unit.deletions);
      const batch = await buildBatch(ctx.keys, partWrites, mine, deletions, context);
      if (!isEmptyBatch(batch)) {
        throwIfAborted(signal, 'ingestion');
        const uri = part.find((unit) => unit.uri !== undefined)?.uri;
        report({ phase: 'write', done, total, ...(uri ? { uri } : {}) });
        await ctx.store.commit(batch, signal);
      }
      for (const unit of part) {
        if (unit.uri === undefined) continue;
        done++;
        report({ phase: 'write', done, total, uri: unit.uri });
      }
    }
    start = end;
  }
}

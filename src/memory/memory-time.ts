// What expiry, decay and consolidation read off a memory node: its kind and when it happened.
import type { NodeRecord } from '../store/store.js';

/** The fields of a node this module reads. */
export type MemoryFields = Pick<NodeRecord, 'kind' | 'contextType' | 'meta' | 'updatedAt'>;

/** A memory's kind (`meta.category`), or undefined for a node that is not a memory file. */
export function memoryKindOf(node: MemoryFields): string | undefined {
  if (node.kind !== 'file' || node.contextType !== 'memory') return undefined;
  return typeof node.meta.category === 'string' ? node.meta.category : undefined;
}

/**
 * When the memory happened: `meta.occurredAt` (ms since the epoch) when it is a finite number, else
 * the node's last update.
 *
 * @example
 * memoryTimeOf({ ...node, meta: { occurredAt: Date.UTC(2024, 0, 1) } }); // 1704067200000
 */
export function memoryTimeOf(node: MemoryFields): number {
  const at = node.meta.occurredAt;
  return typeof at === 'number' && Number.isFinite(at) ? at : node.updatedAt;
}

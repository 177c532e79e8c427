// What removing resources does to the memories derived from them (docs/guide/retrieval.md,
// "Provenance"): a memory records its sources in `meta.sources`; one whose every source goes is
// removed in the same commit, and one with other sources stays, the gone ones moved to
// `meta.orphanedSources`.

import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';

/** Where memories are: below these, never under viking://resources. */
const SPACES = ['viking://user', 'viking://agent'];

export interface DerivedMemoryChanges {
  deleteNodes: string[];
  putNodes: NodeRecord[];
}

/**
 * The changes to the memories derived from `removed` (the nodes an rm() takes out). It reads the
 * users' and agents' spaces, where every memory lies (docs/guide/namespaces.md), and only when a
 * resource is among them: an rm() of no resource costs nothing more, and no resource is read.
 */
export async function derivedMemoryChanges(
  store: FullStore,
  removed: readonly NodeRecord[],
  time: number,
): Promise<DerivedMemoryChanges> {
  const changes: DerivedMemoryChanges = { deleteNodes: [], putNodes: [] };
  const gone = new Set(removed.filter((n) => n.contextType === 'resource').map((n) => n.uri));
  if (gone.size === 0) return changes;
  const alsoRemoved = new Set(removed.map((n) => n.uri));
  for (const space of SPACES) {
    for (const node of await store.descendants(space)) {
      if (node.contextType !== 'memory' || node.kind !== 'file' || alsoRemoved.has(node.uri)) continue;
      const sources = Array.isArray(node.meta.sources) ? (node.meta.sources as unknown[]) : [];
      const lost = sources.filter((s) => typeof s === 'string' && gone.has(s)) as string[];
      if (lost.length === 0) continue;
      const kept = sources.filter((s) => !(typeof s === 'string' && gone.has(s)));
      if (kept.length === 0) {
        changes.deleteNodes.push(node.uri);
        continue;
      }
      const orphaned = Array.isArray(node.meta.orphanedSources) ? node.meta.orphanedSources : [];
      changes.putNodes.push({
        ...node,
        meta: { ...node.meta, sources: kept, orphanedSources: [...new Set([...orphaned, ...lost])] },
        updatedAt: time,
      });
    }
  }
  return changes;
}

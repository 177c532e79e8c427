// A store written before namespaces (docs/guide/namespaces.md, "Stores from before namespaces") kept
// memories in id-less spaces: viking://user/memories, viking://agent/memories, sessions under
// viking://agent/memories/sessions. Its first open moves them into the opening namespace's spaces.

import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';
import { agentSpace, type Namespace, userSpace } from './namespace.js';
import { movedBatch, relocated } from './tree-batches.js';
import { rootsBatch } from './tree-roots.js';
import { isWithin, join, parseUri, type VikingUri } from './uri.js';

const oldUser = parseUri('viking://user/memories');
const oldAgent = parseUri('viking://agent/memories');
const oldSessions = join(oldAgent, 'sessions');

/**
 * Moves the id-less spaces of an old store into `namespace`'s, keys, vectors and relations with
 * them, in one commit: a crash leaves the old layout whole, and the next open moves it again.
 * Resolves with how many nodes moved (0 for a store of today's layout).
 *
 * @example
 * await migrateLayout(store, { user: 'alice', agent: 'default' }, Date.now());
 */
export async function migrateLayout(store: FullStore, namespace: Namespace, time: number): Promise<number> {
  const found = (await store.nodes([oldUser, oldAgent])).filter((n): n is NodeRecord => n?.kind === 'dir');
  if (found.length === 0) return 0;
  const moves: [VikingUri, VikingUri][] = [
    [oldSessions, join(userSpace(namespace), 'sessions')],
    [oldUser, join(userSpace(namespace), 'memories')],
    [oldAgent, join(agentSpace(namespace), 'memories')],
  ];
  const moved = (uri: string): VikingUri => {
    const [from, to] = moves.find(([from]) => isWithin(uri as VikingUri, from))!;
    return relocated(uri, from, to);
  };
  const nodes: NodeRecord[] = [];
  for (const root of found) nodes.push(root, ...(await store.descendants(root.uri)));
  const batch = await movedBatch(store, nodes, moved, time);
  // A node of today's layout already there (none, unless both layouts were written) is kept.
  const there = await store.nodes(batch.putNodes.map((n) => n.uri));
  const kept = new Set(batch.putNodes.filter((_, i) => there[i] !== undefined).map((n) => n.key));
  const roots = await rootsBatch(store, time, namespace, new Set(batch.putNodes.map((n) => n.uri)));
  await store.commit({
    deleteNodes: nodes.map((n) => n.uri).reverse(),
    putNodes: [...roots.putNodes, ...batch.putNodes.filter((n) => !kept.has(n.key))],
    putPostings: [...roots.putPostings, ...batch.putPostings.filter((p) => !kept.has(p.key))],
    putVectors: batch.putVectors.filter((v) => !kept.has(v.nodeKey)),
    putRelations: batch.putRelations,
  });
  return nodes.length;
}

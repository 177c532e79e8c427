// The roots every store has (docs/guide/retrieval.md, "Context types and roots") and their parents.

import type { FullStore } from '../store/full-store.js';
import type { ContextType } from '../store/store.js';
import { basename, parentOf, type VikingUri } from './uri.js';

export const TOP = 'viking://' as VikingUri;

/** The roots and their parents, created on open (docs/guide/retrieval.md, "Context types and roots"). */
export const ROOTS: ReadonlyArray<{ uri: VikingUri; contextType: ContextType; abstract: string }> = [
  { uri: u('resources'), contextType: 'resource', abstract: 'Resources: documents the agent can read.' },
  // viking://user and viking://agent sit outside every context type; they hold memories (and skills).
  { uri: u('user'), contextType: 'memory', abstract: 'What the agent knows about its user.' },
  {
    uri: u('user/memories'),
    contextType: 'memory',
    abstract: "Memories of the user's preferences, entities and events.",
  },
  {
    uri: u('agent'),
    contextType: 'memory',
    abstract: 'What the agent knows about itself and what it can do.',
  },
  {
    uri: u('agent/memories'),
    contextType: 'memory',
    abstract: 'Memories the agent keeps about its own work.',
  },
  { uri: u('agent/skills'), contextType: 'skill', abstract: 'Skills: what the agent can do.' },
];
/** Roots and their parents: never removed or moved. */
export const PROTECTED = new Set<string>(ROOTS.map((root) => root.uri));
/** The nodes directly under `viking://`. */
export const TOP_LEVEL = ROOTS.filter((root) => parentOf(root.uri) === TOP).map((root) => root.uri);

function u(path: string): VikingUri {
  return `${TOP}${path}` as VikingUri;
}

/**
 * Creates the roots a store lacks, in one commit.
 *
 * @example
 * await ensureRoots(store, Date.now);
 */
export async function ensureRoots(store: FullStore, now: () => number): Promise<void> {
  const missing = [];
  for (const root of ROOTS) if (!(await store.node(root.uri))) missing.push(root);
  if (missing.length === 0) return;
  const first = await store.allocateKeys(missing.length);
  const time = now();
  // Roots have no vectors: retrieval starts from them, it never has to find them.
  await store.commit({
    putNodes: missing.map((root, i) => ({
      uri: root.uri,
      parent: parentOf(root.uri) === TOP ? null : parentOf(root.uri)!,
      name: basename(root.uri),
      kind: 'dir',
      contextType: root.contextType,
      key: first + i,
      l0: root.abstract,
      summaryKind: 'extractive',
      meta: {},
      createdAt: time,
      updatedAt: time,
      useCount: 0,
    })),
    putPostings: missing.map((root, i) => ({
      key: first + i,
      title: basename(root.uri),
      body: root.abstract,
    })),
  });
}

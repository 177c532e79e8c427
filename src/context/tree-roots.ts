// The directories every store has, and each namespace's own (docs/guide/namespaces.md).

import type { FullStore } from '../store/full-store.js';
import type { ContextType, WriteBatch } from '../store/store.js';
import { agentSpace, type Namespace, userSpace } from './namespace.js';
import { basename, join, parentOf, type VikingUri } from './uri.js';

export const TOP = 'viking://' as VikingUri;

/** A directory every store has (or a namespace's own), with its context type and L0. */
export interface RootDir {
  uri: VikingUri;
  contextType: ContextType;
  abstract: string;
}

/** The top directories, under `viking://`. */
export const TOP_LEVEL = [u('resources'), u('user'), u('agent')];

/**
 * The directories created on open (docs/guide/namespaces.md): the shared ones and the namespace's
 * own, parents first. The containers above memories are typed memory.
 */
export function rootsOf(namespace: Namespace): RootDir[] {
  const user = userSpace(namespace);
  const agent = agentSpace(namespace);
  return [
    { uri: u('resources'), contextType: 'resource', abstract: 'Resources: documents the agent can read.' },
    { uri: u('user'), contextType: 'memory', abstract: 'The users, each with a space of their own.' },
    { uri: user, contextType: 'memory', abstract: `The space of user ${namespace.user}.` },
    {
      uri: join(user, 'memories'),
      contextType: 'memory',
      abstract: "Memories of the user's profile, preferences, entities and events.",
    },
    { uri: u('agent'), contextType: 'memory', abstract: 'The agents, and the skills they share.' },
    { uri: u('agent/skills'), contextType: 'skill', abstract: 'Skills: what the agent can do.' },
    { uri: agent, contextType: 'memory', abstract: `The space of agent ${namespace.agent}.` },
    {
      uri: join(agent, 'memories'),
      contextType: 'memory',
      abstract: 'Memories the agent keeps about its own work.',
    },
  ];
}

/**
 * Whether `uri` may not be removed or moved: the top, the shared roots, and the namespace's own
 * space and memories. Another user's space may be removed (`rm -r`): that forgets the user.
 */
export function isProtected(uri: VikingUri, namespace: Namespace): boolean {
  return uri === TOP || rootsOf(namespace).some((root) => root.uri === uri);
}

type Batch<K extends keyof WriteBatch> = Required<Pick<WriteBatch, K>>;

function u(path: string): VikingUri {
  return `${TOP}${path}` as VikingUri;
}

/**
 * Creates the roots a store lacks, in one commit.
 *
 * @example
 * await ensureRoots(store, Date.now, defaultNamespace);
 */
export async function ensureRoots(store: FullStore, now: () => number, namespace: Namespace): Promise<void> {
  const batch = await rootsBatch(store, now(), namespace);
  if (batch.putNodes.length > 0) await store.commit(batch);
}

/** The records of the roots a store lacks, but `except`: nothing to commit when it lacks none. */
export async function rootsBatch(
  store: FullStore,
  time: number,
  namespace: Namespace,
  except: ReadonlySet<string> = new Set(),
): Promise<Batch<'putNodes' | 'putPostings'>> {
  const missing = [];
  for (const root of rootsOf(namespace)) {
    if (!except.has(root.uri) && !(await store.node(root.uri))) missing.push(root);
  }
  if (missing.length === 0) return { putNodes: [], putPostings: [] };
  const first = await store.allocateKeys(missing.length);
  // Roots have no vectors: retrieval starts from them, it never has to find them.
  return {
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
  };
}

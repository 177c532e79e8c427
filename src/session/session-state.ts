// A session's state between commits, kept in the meta of its directory node
// (`viking://user/default/sessions/{id}`) so that each change is one store commit, as durable as
// any write: the URIs used since the last commit, and what context() delivered in earlier turns.
// The messages not yet committed are nodes of their own below it (pending-messages.ts); the
// node's posting and vectors hold only its one-line abstract (docs/guide/sessions.md).

import { basename, parentOf, type VikingUri } from '../context/uri.js';
import type { Embedder } from '../embed/embedder.js';
import { LongshipError } from '../errors.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord, VectorRecord, WriteBatch } from '../store/store.js';
import { directoryEmbedText, sessionUriOf } from './archive.js';
import { withSessionLock } from './session-lock.js';

export interface SessionState {
  /** URIs reported used since the last commit, known or not (OpenViking keeps unknown ones too). */
  used: string[];
  /** What context() delivered in earlier turns: URI → content hash. Kept across commits. */
  delivered: Record<string, string>;
}

export interface StateDeps {
  store: FullStore;
  /** The user's sessions directory, `viking://user/{user}/sessions`. */
  sessionsRoot: VikingUri;
  /** Embeds a directory this creates; without one (recordDelivered) it has a posting only. */
  embedder?: Embedder;
  chunkTokens?: number;
  now?: () => number;
}

/** The state a session node holds; empty for a missing node or one written before sessions persisted. */
export function stateOf(node: NodeRecord | undefined): SessionState {
  const meta = node?.meta ?? {};
  const delivered = meta.delivered;
  return {
    used: Array.isArray(meta.used) ? (meta.used as string[]) : [],
    delivered:
      typeof delivered === 'object' && delivered !== null && !Array.isArray(delivered)
        ? (delivered as Record<string, string>)
        : {},
  };
}

/** The session's directory node; undefined when there is none (or a file stands there). */
export async function sessionNode(
  store: FullStore,
  sessionsRoot: VikingUri,
  sessionId: string,
): Promise<NodeRecord | undefined> {
  const node = await store.node(sessionUriOf(sessionsRoot, sessionId));
  return node?.kind === 'dir' ? node : undefined;
}

/** The session's directory node to write to, or NOT_A_DIRECTORY where a file stands in its way. */
async function writableNode(
  { store, sessionsRoot }: StateDeps,
  sessionId: string,
): Promise<{ root?: NodeRecord | undefined; node?: NodeRecord | undefined }> {
  const [root, node] = await store.nodes([sessionsRoot, sessionUriOf(sessionsRoot, sessionId)]);
  for (const found of [root, node]) {
    if (found?.kind === 'file') {
      throw new LongshipError('NOT_A_DIRECTORY', `cannot keep the session: ${found.uri} is a file`);
    }
  }
  return { root, node };
}

/** The write that replaces the state of an existing session node, if it is still that node. */
export function stateWrite(node: NodeRecord, state: SessionState, now: number): WriteBatch {
  return {
    putNodes: [{ ...node, meta: { ...node.meta, ...state }, updatedAt: now }],
    requireNodes: [{ uri: node.uri, key: node.key }],
  };
}

/**
 * Changes a session's state, under its lock, in one store commit; creates its directory (and the
 * sessions root) when missing. `change` returns the new state, or undefined to write nothing.
 * Resolves with the state as it now is.
 *
 * @example
 * await updateSessionState(deps, 'chat-1', (s) => ({ ...s, used: [...s.used, uri] }));
 */
export function updateSessionState(
  deps: StateDeps,
  sessionId: string,
  change: (state: SessionState) => SessionState | undefined,
): Promise<SessionState> {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return withSessionLock(store, sessionId, () =>
    withRootSettled(deps, async () => {
      // A node removed between the read and the commit (an rm of the folder) fails `requireNodes`:
      // read again, and create it afresh.
      for (let attempt = 1; ; attempt++) {
        const { root, node } = await writableNode(deps, sessionId);
        const before = stateOf(node);
        const next = change(before);
        if (!next) return before;
        try {
          if (node)
            await store.commit({ ...stateWrite(node, next, now()), ...(await healed(deps, [root!, node])) });
          else await store.commit(await creation(deps, sessionId, next, now()));
          return next;
        } catch (error) {
          if (attempt >= 3 || !(error instanceof LongshipError) || error.code !== 'NOT_FOUND') throw error;
        }
      }
    }),
  );
}

/** The lock of the sessions root: no session id is this (an id is a path segment, which holds no NUL). */
const rootLock = '\u0000sessions-root';

/**
 * Runs `task`, which holds a session's lock, under the sessions root's lock too while the root is
 * missing or bare (no vectors, with an embedder to give it some): every session's first write may
 * create or heal that one shared directory, and two doing so at once would each give it a key or a
 * vector of their own, and one commit would be refused. Once the root is settled, sessions write
 * side by side.
 */
export async function withRootSettled<T>(deps: StateDeps, task: () => Promise<T>): Promise<T> {
  const { store, embedder, sessionsRoot } = deps;
  const root = await store.node(sessionsRoot);
  const settled = root !== undefined && (!embedder || (await store.vectorsOfNode(root.key)).length > 0);
  return settled ? task() : withSessionLock(store, rootLock, task);
}

/**
 * Vectors for a session directory that has none (recordDelivered() made it, with no embedder), once
 * a writer with an embedder comes: THINKING walks reach archives through their directory's score.
 */
export async function healed(deps: StateDeps, dirs: readonly NodeRecord[]): Promise<WriteBatch> {
  const { store, embedder } = deps;
  if (!embedder) return {};
  const bare: NodeRecord[] = [];
  for (const dir of dirs) if ((await store.vectorsOfNode(dir.key)).length === 0) bare.push(dir);
  if (bare.length === 0) return {};
  const texts = bare.map((d) => directoryEmbedText(d.uri as VikingUri, d.l0, '', deps.chunkTokens ?? 90));
  const vectors = await embedder.embed(texts);
  const first = await store.allocateKeys(bare.length);
  return {
    putVectors: bare.map((d, i) => ({ key: first + i, nodeKey: d.key, chunk: 0, vector: vectors[i]! })),
  };
}

/** The batch that creates the session's directory, with the sessions root if it is missing. */
export async function creation(
  deps: StateDeps,
  sessionId: string,
  state: SessionState,
  now: number,
): Promise<WriteBatch> {
  const { store, embedder, sessionsRoot } = deps;
  const uri = sessionUriOf(sessionsRoot, sessionId);
  const root = await store.node(sessionsRoot);
  const dirs: { uri: VikingUri; l0: string; meta: Record<string, unknown> }[] = [];
  if (!root) {
    dirs.push({
      uri: sessionsRoot,
      l0: 'Archived conversations with the user, one directory per session.',
      meta: {},
    });
  }
  dirs.push({ uri, l0: `Conversation ${sessionId}.`, meta: { session: sessionId, ...state } });
  const texts = dirs.map((d) => directoryEmbedText(d.uri, d.l0, '', deps.chunkTokens ?? 90));
  const vectors = embedder ? await embedder.embed(texts) : [];
  let key = await store.allocateKeys(dirs.length + vectors.length);
  const putNodes: NodeRecord[] = [];
  const putVectors: VectorRecord[] = [];
  dirs.forEach((dir, i) => {
    const nodeKey = key++;
    putNodes.push({
      uri: dir.uri,
      parent: parentOf(dir.uri) ?? null,
      name: basename(dir.uri),
      kind: 'dir',
      contextType: 'memory',
      key: nodeKey,
      l0: dir.l0,
      summaryKind: 'extractive',
      meta: dir.meta,
      createdAt: now,
      updatedAt: now,
      useCount: 0,
    });
    const vector = vectors[i];
    if (vector) putVectors.push({ key: key++, nodeKey, chunk: 0, vector });
  });
  return {
    putNodes,
    putVectors,
    putPostings: putNodes.map((n) => ({ key: n.key, title: n.name, body: n.l0 })),
  };
}

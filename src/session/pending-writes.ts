// The writes to a session's pending messages (their layout: pending-messages.ts). An append writes
// the last chunk and the pending directory's index, nothing else; it also moves into chunks the
// messages an earlier version kept in the session directory's meta. A commit's removal takes out
// the chunks it archived. Each is one store commit, made under the session's lock.

import { basename, type VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import type { NodeRecord, WriteBatch } from '../store/store.js';
import { sessionUriOf } from './archive.js';
import { type Message, messageText } from './message.js';
import {
  CHUNK_CHARS,
  CHUNK_MESSAGES,
  chunkMessages,
  chunkUriOf,
  indexOf,
  legacyPendingOf,
  numbers,
  type PendingIndex,
  type PendingView,
  pendingUriOf,
  tokensOf,
} from './pending-messages.js';
import { withSessionLock } from './session-lock.js';
import { creation, healed, type StateDeps, withRootSettled } from './session-state.js';

/**
 * Stores `message` as the session's newest pending message, in one store commit, and resolves with
 * the pending directory's index as it now is. Creates the session's directory (with the sessions
 * root) when missing; NOT_A_DIRECTORY, with nothing written, where a file stands in the way.
 *
 * @example
 * const { messages, tokens } = await appendMessage(deps, 'chat-1', message);
 */
export function appendMessage(deps: StateDeps, sessionId: string, message: Message): Promise<PendingIndex> {
  return withSessionLock(deps.store, sessionId, () =>
    withRootSettled(deps, () => append(deps, sessionId, [message])),
  );
}

/** Moves the messages an earlier version kept in the session directory's meta into chunks; the caller holds the lock. */
export async function moveLegacy(deps: StateDeps, sessionId: string): Promise<void> {
  await append(deps, sessionId, []);
}

async function append(deps: StateDeps, sessionId: string, added: Message[]): Promise<PendingIndex> {
  const { store, sessionsRoot } = deps;
  const pendingUri = pendingUriOf(sessionsRoot, sessionId);
  // A directory removed between the read and the commit (an rm of the folder) fails
  // `requireNodes`: read again, and create it afresh.
  for (let attempt = 1; ; attempt++) {
    const [root, session, dir] = await store.nodes([
      sessionsRoot,
      sessionUriOf(sessionsRoot, sessionId),
      pendingUri,
    ]);
    for (const found of [root, session, dir]) {
      if (found?.kind === 'file') {
        throw new LongshipError('NOT_A_DIRECTORY', `cannot keep the session: ${found.uri} is a file`);
      }
    }
    const messages = [...legacyPendingOf(session), ...added];
    const index = indexOf(dir);
    if (messages.length === 0) return index;
    const last = index.last >= index.first ? await store.node(chunkUriOf(pendingUri, index.last)) : undefined;
    const now = (deps.now ?? Date.now)();
    const write = await appendBatch(deps, sessionId, { root, session, dir, last }, messages, now);
    try {
      await store.commit(write.batch);
      return write.index;
    } catch (error) {
      if (attempt >= 3 || !(error instanceof LongshipError) || error.code !== 'NOT_FOUND') throw error;
    }
  }
}

interface Chunk {
  n: number;
  messages: Message[];
  chars: number;
  /** The stored chunk this rewrites; none for a new one. */
  node?: NodeRecord;
}

const charsOf = (messages: readonly Message[]) => messages.reduce((sum, m) => sum + messageText(m).length, 0);

/** The chunks `messages` go into: the last one while it has room, then new ones. */
function fill(index: PendingIndex, last: NodeRecord | undefined, messages: readonly Message[]): Chunk[] {
  const chunks: Chunk[] = [];
  let open: Chunk | undefined;
  if (last?.kind === 'file') {
    const held = chunkMessages(last);
    open = { n: index.last, messages: [...held], chars: charsOf(held), node: last };
  }
  let next = index.last + 1;
  for (const message of messages) {
    const chars = messageText(message).length;
    const full =
      open &&
      (open.messages.length >= CHUNK_MESSAGES ||
        (open.messages.length > 0 && open.chars + chars > CHUNK_CHARS));
    if (!open || full) open = { n: next++, messages: [], chars: 0 };
    if (chunks.at(-1) !== open) chunks.push(open);
    open.messages.push(message);
    open.chars += chars;
  }
  return chunks;
}

/** The batch of an append: the chunks written, the index, and the session's directory where it changes. */
async function appendBatch(
  deps: StateDeps,
  sessionId: string,
  read: { root?: NodeRecord; session?: NodeRecord; dir?: NodeRecord; last?: NodeRecord },
  messages: readonly Message[],
  now: number,
): Promise<{ batch: WriteBatch; index: PendingIndex }> {
  const { root, session, dir, last } = read;
  const sessionUri = sessionUriOf(deps.sessionsRoot, sessionId);
  const pendingUri = pendingUriOf(deps.sessionsRoot, sessionId);
  const before = indexOf(dir);
  const chunks = fill(before, last, messages);
  const index: PendingIndex = {
    first: before.first,
    last: chunks.at(-1)!.n,
    messages: before.messages + messages.length,
    tokens: before.tokens + tokensOf(messages),
  };
  const fresh = chunks.filter((c) => !c.node).length + (dir ? 0 : 1);
  let key = fresh > 0 ? await deps.store.allocateKeys(fresh) : 0;
  const made: NodeRecord[] = [];
  const record = (uri: VikingUri, kind: 'dir' | 'file', l0: string, meta: Record<string, unknown>) => {
    const node: NodeRecord = {
      uri,
      parent: uri === pendingUri ? sessionUri : pendingUri,
      name: basename(uri),
      kind,
      contextType: 'memory',
      key: key++,
      l0,
      summaryKind: 'extractive',
      meta,
      createdAt: now,
      updatedAt: now,
      useCount: 0,
    };
    made.push(node);
    return node;
  };
  const putNodes: NodeRecord[] = [
    dir
      ? { ...dir, meta: { ...dir.meta, ...index }, updatedAt: now }
      : record(pendingUri, 'dir', `Messages of conversation ${sessionId} not yet committed.`, {
          searchable: false,
          session: sessionId,
          ...index,
        }),
    ...chunks.map((c) =>
      c.node
        ? { ...c.node, meta: { ...c.node.meta, messages: c.messages }, updatedAt: now }
        : record(chunkUriOf(pendingUri, c.n), 'file', `Messages of conversation ${sessionId}, part ${c.n}.`, {
            searchable: false,
            messages: c.messages,
          }),
    ),
  ];
  // The chunks' text is in their meta, not in a posting or vectors, and `searchable: false` keeps
  // them and their directory out of find()'s results (docs/guide/sessions.md).
  const own: WriteBatch = {
    putNodes,
    putPostings: made.map((node) => ({ key: node.key, body: '' })),
    requireNodes: [dir ?? session, last?.kind === 'file' ? last : undefined]
      .filter((n): n is NodeRecord => n !== undefined)
      .map(({ uri, key: k }) => ({ uri, key: k })),
  };
  if (session && legacyPendingOf(session).length > 0) {
    const { pending: _moved, ...meta } = session.meta;
    own.putNodes!.push({ ...session, meta, updatedAt: now });
    own.requireNodes!.push({ uri: session.uri, key: session.key });
  }
  const around = session
    ? await healed(deps, [root!, session])
    : await creation(deps, sessionId, { used: [], delivered: {} }, now);
  return { batch: merged(around, own), index };
}

/**
 * The batch that takes out the messages a commit read: the chunks `first`..`lastChunk`, of which
 * the last held `inLastChunk` messages then; messages added since stay. The directory goes once
 * nothing is left in it. `view` is the session as it is now; `archived` the messages read.
 */
export async function removalBatch(
  deps: StateDeps,
  sessionId: string,
  view: PendingView,
  read: { first: number; lastChunk: number; inLastChunk: number; archived: readonly Message[] },
  now: number,
): Promise<WriteBatch> {
  const dir = view.dir;
  if (!dir) return {};
  const pendingUri = pendingUriOf(deps.sessionsRoot, sessionId);
  const lastUri = chunkUriOf(pendingUri, read.lastChunk);
  const deleteNodes: string[] = numbers(read.first, read.lastChunk - 1).map((n) => chunkUriOf(pendingUri, n));
  const lastChunk = await deps.store.node(lastUri);
  const kept = chunkMessages(lastChunk).slice(read.inLastChunk);
  const putNodes: NodeRecord[] = [];
  if (lastChunk && kept.length > 0) {
    putNodes.push({ ...lastChunk, meta: { ...lastChunk.meta, messages: kept }, updatedAt: now });
  } else deleteNodes.push(lastUri);
  const first = kept.length > 0 ? read.lastChunk : read.lastChunk + 1;
  const empty = view.index.last < first;
  const index: PendingIndex = {
    first,
    last: Math.max(first - 1, view.index.last),
    messages: empty ? 0 : Math.max(0, view.index.messages - read.archived.length),
    tokens: empty ? 0 : Math.max(0, view.index.tokens - tokensOf(read.archived)),
  };
  const requireNodes = [{ uri: dir.uri, key: dir.key }];
  if (empty) {
    // Nodes someone else put in the directory keep it.
    const gone = new Set(deleteNodes);
    if ((await deps.store.children(pendingUri)).every((child) => gone.has(child.uri))) {
      return { deleteNodes: [...deleteNodes, pendingUri], requireNodes };
    }
  }
  putNodes.push({ ...dir, meta: { ...dir.meta, ...index }, updatedAt: now });
  return { putNodes, deleteNodes, requireNodes };
}

/** The batches as one: each list the lists of all of them. */
export function merged(...batches: WriteBatch[]): WriteBatch {
  const out: Record<string, unknown[]> = {};
  for (const batch of batches) {
    for (const [name, list] of Object.entries(batch)) {
      // concat, not push(...list): an archive's batch can hold more nodes than a call takes arguments.
      if (Array.isArray(list)) out[name] = (out[name] ?? []).concat(list);
    }
  }
  return out as WriteBatch;
}

// Where a session's pending messages are kept (docs/guide/sessions.md): in chunks of a few dozen, each a
// file node under the session's `pending` directory, whose meta counts them. Appending rewrites
// the last chunk and that count only, so its cost does not grow with the messages pending, and the
// last few are read from the last chunks alone. Stores written before this layout hold them in the
// session directory's meta (`pending`, an array): they are read after the chunks, and moved into
// chunks by the next addMessage() or commit (pending-writes.ts).

import { join, type VikingUri } from '../context/uri.js';
import { estimateTokens } from '../embed/chunk.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';
import { sessionUriOf } from './archive.js';
import { type Message, messageText } from './message.js';

/** The name of the directory of chunks under the session's directory. */
export const PENDING_DIR = 'pending';
/** A chunk takes messages until it holds this many… */
export const CHUNK_MESSAGES = 32;
/** …or this many characters of text (a longer message gets a chunk to itself). */
export const CHUNK_CHARS = 32_768;

/** What the pending directory's meta says of its chunks. */
export interface PendingIndex {
  /** The number of the oldest chunk; chunk numbers are never reused while the directory lasts. */
  first: number;
  /** The number of the newest chunk, `first - 1` when there is none. */
  last: number;
  /** Messages in the chunks. */
  messages: number;
  /** Their tokens, estimated as chunking counts them (for auto-commit's `tokens`). */
  tokens: number;
}

/** A session's pending messages as the store holds them, before the chunks themselves are read. */
export interface PendingView {
  /** The session's directory; undefined when there is none (or a file stands there). */
  session?: NodeRecord;
  /** The directory of chunks; undefined when there is none. */
  dir?: NodeRecord;
  index: PendingIndex;
  /** Messages kept in the session directory's meta by earlier versions, oldest first. */
  legacy: Message[];
}

export const pendingUriOf = (sessionsRoot: VikingUri, sessionId: string): VikingUri =>
  join(sessionUriOf(sessionsRoot, sessionId), PENDING_DIR);

/** Chunk `n` of the pending directory; zero-padded, so that a listing shows them in order. */
export const chunkUriOf = (pendingUri: VikingUri, n: number): VikingUri =>
  join(pendingUri, String(n).padStart(6, '0'));

const count = (value: unknown, fallback: number) =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : fallback;

/** The index a pending directory's meta holds; an empty one for a missing directory. */
export function indexOf(dir: NodeRecord | undefined): PendingIndex {
  const first = Math.max(1, count(dir?.meta.first, 1));
  return {
    first,
    last: Math.max(first - 1, count(dir?.meta.last, first - 1)),
    messages: count(dir?.meta.messages, 0),
    tokens: count(dir?.meta.tokens, 0),
  };
}

/** The messages a chunk holds. */
export function chunkMessages(chunk: NodeRecord | undefined): Message[] {
  const messages = chunk?.kind === 'file' ? chunk.meta.messages : undefined;
  return Array.isArray(messages) ? (messages as Message[]) : [];
}

/** The messages an earlier version kept in the session directory's meta. */
export function legacyPendingOf(session: NodeRecord | undefined): Message[] {
  return Array.isArray(session?.meta.pending) ? (session.meta.pending as Message[]) : [];
}

export const tokensOf = (messages: readonly Message[]): number =>
  messages.reduce((sum, m) => sum + estimateTokens(messageText(m)), 0);

/** The view of a session's directory and its pending directory (either may be missing). */
export function viewOf(session: NodeRecord | undefined, dir: NodeRecord | undefined): PendingView {
  if (session?.kind !== 'dir') return { index: indexOf(undefined), legacy: [] };
  const found = dir?.kind === 'dir' ? dir : undefined;
  return {
    session,
    ...(found ? { dir: found } : {}),
    index: indexOf(found),
    legacy: legacyPendingOf(session),
  };
}

/** Where the session's pending messages are: two node reads, whatever their number. */
export async function pendingView(
  store: FullStore,
  sessionsRoot: VikingUri,
  sessionId: string,
): Promise<PendingView> {
  const uri = sessionUriOf(sessionsRoot, sessionId);
  const [session, dir] = await store.nodes([uri, join(uri, PENDING_DIR)]);
  return viewOf(session, dir);
}

/** How many messages are pending, from the view alone. */
export const pendingCount = (view: PendingView): number => view.index.messages + view.legacy.length;

/** The chunk numbers `from`..`to`. */
export const numbers = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * Every pending message, oldest first, and how many the last chunk read held (a commit takes out
 * exactly those it read: messages added to that chunk meanwhile stay).
 */
export async function readPending(
  store: FullStore,
  view: PendingView,
): Promise<{ messages: Message[]; lastChunk: number; inLastChunk: number }> {
  const { first, last } = view.index;
  const { dir } = view;
  const chunks = dir
    ? await store.nodes(numbers(first, last).map((n) => chunkUriOf(dir.uri as VikingUri, n)))
    : [];
  const messages = chunks.flatMap(chunkMessages);
  return {
    messages: [...messages, ...view.legacy],
    lastChunk: last,
    inLastChunk: chunkMessages(chunks.at(-1)).length,
  };
}

/** The last `wanted` pending messages, oldest first, read from the last chunks only. */
export async function readRecent(store: FullStore, view: PendingView, wanted: number): Promise<Message[]> {
  const recent = view.legacy.slice(-wanted);
  if (!view.dir) return recent;
  const pendingUri = view.dir.uri as VikingUri;
  for (let n = view.index.last; n >= view.index.first && recent.length < wanted; n--) {
    const messages = chunkMessages(await store.node(chunkUriOf(pendingUri, n)));
    recent.unshift(...messages.slice(-(wanted - recent.length)));
  }
  return recent;
}

// Where the model keeps a session's state, and what of it the store's tree shows (docs/guide/sessions.md).
// The state (the pending messages, what context() delivered) goes with an rm of the session's
// directory, `viking://user/default/sessions/{id}`, travels with an mv, and survives a reopen or a
// crash. What context() delivered is in the directory's meta; the pending messages are in chunks
// under its `pending` directory, which tree(), ls(), glob() and rm()'s count show. This file is the
// one place that knows so: when the store lays the state out otherwise, change it here.

import { join, type VikingUri } from '../../src/context/uri.js';
import { type MessagePart, type MessageRole, messageText } from '../../src/session/message.js';
import { CHUNK_CHARS, CHUNK_MESSAGES, chunkUriOf, PENDING_DIR } from '../../src/session/pending-messages.js';

export const SESSIONS = 'viking://user/default/sessions' as VikingUri;

export const sessionUri = (id: string): VikingUri => join(SESSIONS, id);

/** A message as addMessage() was given it, checked and copied as the API copies it. */
export interface ModelMessage {
  role: MessageRole;
  parts: MessagePart[];
  name?: string;
  at?: number;
}

/** What context() gave a session for one URI: the layer, and that layer's whole text then. */
export interface Delivery {
  layer: 'L0' | 'L1' | 'L2';
  /** Passages of the L2 (then `text` is the whole L2 they came from). */
  excerpt: boolean;
  text: string;
}

export interface SessionState {
  /** Messages since the last commit, oldest first. */
  pending: readonly ModelMessage[];
  /** URI → what context() gave this session, kept across commits (docs/guide/context.md, "Across turns"). */
  delivered: ReadonlyMap<string, Delivery>;
}

/** The state a node holds, for any node (a session directory moved elsewhere keeps its meta). */
export interface HasSessionState {
  kind: 'dir' | 'file';
  session?: SessionState;
}

const empty: SessionState = { pending: [], delivered: new Map() };

/** The node's session state; empty for a file or a directory that never held one. */
export function stateOf(node: HasSessionState | undefined): SessionState {
  return node?.kind === 'dir' ? (node.session ?? empty) : empty;
}

/** The node with this state: a new object, so that the model's change tracking sees it. */
export function withState<T extends HasSessionState>(node: T, state: SessionState): T {
  return { ...node, session: state };
}

/** The text a message is archived as (the file of `<n>-<role>` in the archive). */
export const archivedText = (message: ModelMessage): string => messageText(message);

/**
 * The nodes the store shows below a directory for the session state it holds, which tree(),
 * ls(), glob() and rm()'s count include: while messages are pending, the `pending` directory and
 * its chunks, filled as the store fills them (a chunk's text is in its meta, so it reads as empty).
 */
export function stateNodes(
  uri: VikingUri,
  node: HasSessionState,
): { uri: VikingUri; kind: 'dir' | 'file'; size: number }[] {
  const { pending } = stateOf(node);
  if (pending.length === 0) return [];
  const dir = join(uri, PENDING_DIR);
  let chunks = 1;
  let held = 0;
  let chars = 0;
  for (const message of pending) {
    const length = messageText(message).length;
    if (held >= CHUNK_MESSAGES || (held > 0 && chars + length > CHUNK_CHARS)) {
      chunks++;
      held = 0;
      chars = 0;
    }
    held++;
    chars += length;
  }
  const files = Array.from({ length: chunks }, (_, i) => ({
    uri: chunkUriOf(dir, i + 1),
    kind: 'file' as const,
    size: 0,
  }));
  return [{ uri: dir, kind: 'dir', size: 0 }, ...files];
}

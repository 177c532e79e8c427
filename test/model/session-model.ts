// The model of the sessions (docs/guide/sessions.md) on the tree model's nodes: each session's state is
// kept in its directory's node (session-layout.ts says where, and what the tree shows of it), so
// that it goes, moves and survives with that node as the store's does.

import { basename, join, type VikingUri } from '../../src/context/uri.js';
import { fail, type Outcome, ok } from './outcome.js';
import {
  archivedText,
  type Delivery,
  type ModelMessage,
  SESSIONS,
  type SessionState,
  sessionUri,
  stateOf,
  withState,
} from './session-layout.js';
import type { TreeModel } from './tree-model.js';

/** What sessionInfo() and listSessions() count of a session. */
export interface ModelSessionInfo {
  id: string;
  uri: VikingUri;
  pending: number;
  archives: number;
}

const pad = (n: number) => String(n).padStart(4, '0');

export class SessionsModel {
  readonly #tree: TreeModel;
  /**
   * The auto-commit policy of the Session object the calls for each id go through: it belongs to
   * the object, not the store, so a reopen drops it (docs/guide/sessions.md, "Auto-commit").
   */
  readonly autoCommit = new Map<string, { messages?: number; tokens?: number }>();

  constructor(tree: TreeModel) {
    this.#tree = tree;
  }

  /**
   * The session's directory to change, made (with the sessions root) when missing; NOT_A_DIRECTORY
   * where a file stands at either.
   */
  #sessionDir(session: string): { code: string } | { value: VikingUri } {
    const uri = sessionUri(session);
    if (this.blocked(session)) return fail('NOT_A_DIRECTORY');
    for (const dir of [SESSIONS, uri])
      if (!this.#tree.nodes.has(dir)) this.#tree.nodes.set(dir, { kind: 'dir' });
    return ok(uri);
  }

  /** Whether a file stands where the session's directory or the sessions root goes. */
  blocked(id: string): boolean {
    return [SESSIONS, sessionUri(id)].some((u) => this.#tree.nodes.get(u)?.kind === 'file');
  }

  /** The state of the session `id`: empty when it has no directory. */
  state(id: string): SessionState {
    return stateOf(this.#tree.nodes.get(sessionUri(id)));
  }

  #changeState(uri: VikingUri, change: (state: SessionState) => SessionState): void {
    const node = this.#tree.nodes.get(uri)!;
    this.#tree.nodes.set(uri, withState(node, change(stateOf(node))));
  }

  /** Stores the message in the session's state. */
  addMessage(session: string, message: ModelMessage): Outcome {
    const dir = this.#sessionDir(session);
    if ('code' in dir) return dir;
    this.#changeState(dir.value, (state) => ({ ...state, pending: [...state.pending, message] }));
    return ok(undefined);
  }

  /** Puts the session's last `count` pending messages in the order the store has them. */
  reorderLast(session: string, order: readonly ModelMessage[]): void {
    this.#changeState(sessionUri(session), (state) => ({
      ...state,
      pending: [...state.pending.slice(0, state.pending.length - order.length), ...order],
    }));
  }

  /** used(uris): how many of them exist; the session's directory is made as for a message. */
  used(session: string, uris: readonly VikingUri[]): Outcome<number> {
    const existing = new Set(uris.filter((uri) => this.#tree.nodes.has(uri))).size;
    if (uris.length === 0) return ok(0);
    const dir = this.#sessionDir(session);
    return 'code' in dir ? dir : ok(existing);
  }

  /** What context() gave the session, merged by URI; the directory is made as for a message. */
  recordDelivered(session: string, parts: ReadonlyMap<string, Delivery>): Outcome {
    if (parts.size === 0) return ok(undefined);
    const dir = this.#sessionDir(session);
    if ('code' in dir) return dir;
    this.#changeState(dir.value, (state) => ({
      ...state,
      delivered: new Map([...state.delivered, ...parts]),
    }));
    return ok(undefined);
  }

  /** Archives the pending messages as `sessions/<id>/<n>/<i>-<role>`; the archive number follows the highest. */
  commit(session: string): Outcome<string | undefined> {
    const uri = sessionUri(session);
    const messages = this.state(session).pending;
    if (messages.length === 0) return ok(undefined);
    // The highest archive there, or node named like one (which an archive must not replace).
    const taken = this.#tree.children(uri).flatMap((child) => {
      const named = /^\d{1,9}$/.test(basename(child)) ? [Number(basename(child))] : [];
      return [this.#tree.nodes.get(child)?.archive ?? 0, ...named];
    });
    const number = Math.max(0, ...taken) + 1;
    const archive = join(uri, pad(number));
    if (this.#tree.nodes.has(archive)) return fail('ALREADY_EXISTS');
    this.#tree.nodes.set(archive, { kind: 'dir', archive: number });
    messages.forEach((message, i) => {
      const file = join(archive, `${pad(i + 1)}-${message.role}`);
      this.#tree.nodes.set(file, { kind: 'file', content: archivedText(message) });
    });
    this.#changeState(uri, (state) => ({ ...state, pending: [] }));
    return ok(archive);
  }

  /** sessionInfo(id)'s counts; NOT_FOUND without a directory there. */
  info(id: string): Outcome<ModelSessionInfo> {
    const uri = sessionUri(id);
    return this.#tree.nodes.get(uri)?.kind === 'dir' ? ok(this.#infoAt(uri)) : fail('NOT_FOUND');
  }

  #infoAt(uri: VikingUri): ModelSessionInfo {
    const archives = this.#tree
      .children(uri)
      .filter((child) => this.#tree.nodes.get(child)?.archive !== undefined);
    return {
      id: basename(uri),
      uri,
      pending: stateOf(this.#tree.nodes.get(uri)).pending.length,
      archives: archives.length,
    };
  }

  /** listSessions(): every directory right under the sessions root, by id. */
  list(): ModelSessionInfo[] {
    return this.#tree
      .children(SESSIONS)
      .filter((uri) => this.#tree.nodes.get(uri)?.kind === 'dir')
      .map((uri) => this.#infoAt(uri));
  }

  /** deleteSession(id): its directory with everything below it. */
  delete(id: string): Outcome<{ id: string; pending: number; archives: number; nodes: number }> {
    const info = this.info(id);
    if ('code' in info) return info;
    const nodes = this.#tree.removedCount(info.value.uri);
    this.#tree.removeNodes(this.#tree.subtree(info.value.uri));
    return ok({ id, pending: info.value.pending, archives: info.value.archives, nodes });
  }
}

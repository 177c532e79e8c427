// The engine's sessions: opening one by id (with its auto-commit policy), and listing, reading,
// checking and deleting them by id, over what the store holds (docs/guide/sessions.md).

import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import { sessionUriOf } from './archive.js';
import { archivesOf } from './commit.js';
import { createCommitJobs } from './commit-jobs.js';
import { PENDING_DIR, type PendingView, pendingCount, pendingView, viewOf } from './pending-messages.js';
import {
  type DeletedSession,
  type Session,
  type SessionDeps,
  type SessionInfo,
  type SessionOptions,
  sessionOptionsSchema,
} from './session.js';
import { withSessionLock } from './session-lock.js';
import { openSession, type SessionContext } from './stored-session.js';

export interface Sessions {
  /** The session `id` (a new id when none is given); nothing is written until it is used. */
  open(id?: string, options?: SessionOptions): Session;
  list(): Promise<SessionInfo[]>;
  /** NOT_FOUND for an id with no session. */
  info(id: string): Promise<SessionInfo>;
  exists(id: string): Promise<boolean>;
  /** Its pending messages, archives and state; the memories extracted from it stay. NOT_FOUND for an unknown id. */
  delete(id: string): Promise<DeletedSession>;
  /** Cancels commits under way (STORE_CLOSED: their messages stay pending) and the idle timers. */
  close(): Promise<void>;
}

/**
 * Binds sessions to the engine's parts.
 *
 * @example
 * const sessions = createSessions(deps);
 * const session = sessions.open('support-chat-42');
 */
export function createSessions(deps: SessionDeps): Sessions {
  const now = deps.now ?? Date.now;
  let jobIds = 0;
  const context: SessionContext = {
    deps,
    jobs: createCommitJobs(deps.jobId ?? (() => ++jobIds)),
    timers: new Set(),
  };
  const info = async (id: string): Promise<SessionInfo | undefined> => {
    const view = await pendingView(deps.store, deps.sessionsRoot, id);
    return view.session ? infoOf(view, (await archivesOf(deps, id)).length) : undefined;
  };
  return {
    open(id, input) {
      const options = checkOptions(sessionOptionsSchema, input, 'session()');
      const sessionId = id ?? newId(now());
      sessionUriOf(deps.sessionsRoot, sessionId);
      return openSession(context, sessionId, options.autoCommit);
    },
    async list() {
      const dirs = (await deps.store.children(deps.sessionsRoot)).filter((n) => n.kind === 'dir');
      const found: SessionInfo[] = [];
      for (const node of dirs) {
        const children = await deps.store.children(node.uri);
        const archives = children.filter((c) => c.kind === 'dir' && Number.isInteger(c.meta.archive));
        const view = viewOf(
          node,
          children.find((c) => c.name === PENDING_DIR),
        );
        found.push(infoOf(view, archives.length));
      }
      return found;
    },
    async info(id) {
      const found = await info(id);
      if (!found) throw new LongshipError('NOT_FOUND', `no session ${id}`);
      return found;
    },
    exists: async (id) => (await info(id)) !== undefined,
    async delete(id) {
      const uri = sessionUriOf(deps.sessionsRoot, id);
      // Its commits first: one finishing after the removal would bring an archive back.
      context.jobs.cancel(id);
      await context.jobs.wait(id);
      return withSessionLock(deps.store, id, async () => {
        const found = await info(id);
        if (!found) throw new LongshipError('NOT_FOUND', `no session ${id}`);
        const nodes = await deps.tree.rm(uri, { recursive: true });
        return { id, pending: found.pending, archives: found.archives, nodes };
      });
    },
    async close() {
      for (const timer of context.timers) clearTimeout(timer);
      context.timers.clear();
      await context.jobs.close();
    },
  };
}

/** What is said of a session: its last change is its directory's or its pending messages'. */
function infoOf(view: PendingView, archives: number): SessionInfo {
  const node = view.session!;
  return {
    id: node.name,
    uri: node.uri,
    pending: pendingCount(view),
    archives,
    createdAt: node.createdAt,
    updatedAt: Math.max(node.updatedAt, view.dir?.updatedAt ?? 0),
  };
}

let counter = 0;

/** A new session id: time, then a counter and randomness, so two in one millisecond differ. */
function newId(now: number): string {
  counter = (counter + 1) % 1_000_000;
  const random = Math.floor(Math.random() * 36 ** 4).toString(36);
  return `s-${now.toString(36)}-${counter.toString(36)}${random}`;
}

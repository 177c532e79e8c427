// A Session whose state is in the store (session-state.ts): every message is written when
// addMessage() resolves, and any Session object for the same id, in this engine or a later one,
// reads the same messages. Commits run as jobs (commit-jobs.ts), started by commit() or by the
// session's auto-commit policy.

import { parseUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import type { ConversationContext } from '../retrieve/intent.js';
import { readArchiveTail, sessionUriOf } from './archive.js';
import { archivesOf, commitSession } from './commit.js';
import type { CommitJobs } from './commit-jobs.js';
import {
  checkRole,
  type Message,
  type MessagePart,
  type MessageRole,
  messageText,
  toParts,
} from './message.js';
import { type PendingIndex, pendingCount, pendingView, readPending, readRecent } from './pending-messages.js';
import { appendMessage } from './pending-writes.js';
import {
  type AutoCommitPolicy,
  type CommitOptions,
  commitOptionsSchema,
  type MessageOptions,
  messageOptionsSchema,
  type Session,
  type SessionDeps,
} from './session.js';
import { updateSessionState } from './session-state.js';

/** The messages context() gives search() to plan from. */
const RECENT = 5;

/** What a session object shares with the engine's other sessions. */
export interface SessionContext {
  deps: SessionDeps;
  jobs: CommitJobs;
  /** The idle timers of auto-commit, cleared at close. */
  timers: Set<ReturnType<typeof setTimeout>>;
}

/**
 * The Session `id` (checked by the caller) with an optional auto-commit policy.
 *
 * @example
 * const session = openSession(context, 'chat-1', { messages: 20 });
 */
export function openSession(context: SessionContext, id: string, policy: AutoCommitPolicy = {}): Session {
  const { deps, jobs } = context;
  const uri = sessionUriOf(deps.sessionsRoot, id);
  let idle: ReturnType<typeof setTimeout> | undefined;
  const startCommit = (options: CommitOptions, auto: boolean) =>
    jobs.start(
      id,
      {
        auto,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      },
      (signal, report) => commitSession(deps, id, { ...options, signal }, report),
    );
  /** After a message is stored: commit in the background when the policy says so. */
  const afterMessage = (index: PendingIndex) => {
    if (policy.idleMs !== undefined) {
      if (idle) {
        clearTimeout(idle);
        context.timers.delete(idle);
      }
      const timer = setTimeout(() => {
        context.timers.delete(timer);
        // After any commit under way, and only if it left messages pending.
        void jobs
          .wait(id)
          .then(async () => {
            if (pendingCount(await pendingView(deps.store, deps.sessionsRoot, id)) > 0) startCommit({}, true);
          })
          .catch(() => undefined);
      }, policy.idleMs);
      // Node: an idle timer must not keep the process alive. Elsewhere timers have no unref.
      (timer as { unref?: () => void }).unref?.();
      context.timers.add(timer);
      idle = timer;
    }
    if (jobs.busy(id)) return;
    if (
      (policy.messages !== undefined && index.messages >= policy.messages) ||
      (policy.tokens !== undefined && index.tokens >= policy.tokens)
    ) {
      startCommit({}, true);
    }
  };
  // A plain object of own properties, not a class instance: the worker hands a session to the page
  // as its own methods and data, which a prototype would hide.
  return {
    id,
    uri,
    async addMessage(role, parts, input) {
      const message = newMessage(deps, role, parts, input);
      afterMessage(await appendMessage(deps, id, message));
      return message;
    },
    messages: async () =>
      (await readPending(deps.store, await pendingView(deps.store, deps.sessionsRoot, id))).messages,
    used: (uris) => markUsed(deps, id, uris),
    commit(input) {
      const options = checkOptions(commitOptionsSchema, input, 'commit()') as CommitOptions;
      return startCommit(options, false);
    },
    onCommitProgress(listener) {
      if (typeof listener !== 'function') {
        throw new LongshipError('INVALID_ARGUMENT', 'onCommitProgress() takes a function');
      }
      return jobs.onProgress(id, listener);
    },
    waitCommitted: () => jobs.wait(id),
    cancelCommits: async () => jobs.cancel(id),
    context: () => sessionContext(deps, id),
  };
}

/** The message addMessage() stores, its input checked: INVALID_ARGUMENT before anything is written. */
function newMessage(
  deps: SessionDeps,
  role: MessageRole,
  parts: string | readonly MessagePart[],
  input: MessageOptions | undefined,
): Message {
  const options = checkOptions(messageOptionsSchema, input, 'addMessage()');
  return {
    role: checkRole(role),
    parts: toParts(parts),
    at: options.at ?? (deps.now ?? Date.now)(),
    ...(options.name ? { name: String(options.name) } : {}),
  };
}

async function markUsed(deps: SessionDeps, id: string, uris: readonly string[]): Promise<number> {
  if (!Array.isArray(uris)) throw new LongshipError('INVALID_ARGUMENT', 'used() takes an array of URIs');
  const { store } = deps;
  const canonical = [...new Set(uris.map((u) => parseUri(u)))];
  if (canonical.length === 0) return 0;
  const existing: string[] = [];
  for (const u of canonical) if (await store.node(u)) existing.push(u);
  // Kept with the session, every one of them: an unknown URI is recorded, not refused.
  await updateSessionState(deps, id, (s) => {
    const added = canonical.filter((u) => !s.used.includes(u));
    return added.length > 0 ? { ...s, used: [...s.used, ...added] } : undefined;
  });
  if (existing.length === 0) return 0;
  // The store bumps each node inside its own transaction: a write racing this call is kept.
  const at = (deps.now ?? Date.now)();
  await store.commit({ useNodes: existing.map((u) => ({ uri: u, at })) });
  return existing.length;
}

async function sessionContext(deps: SessionDeps, id: string): Promise<ConversationContext> {
  const all = await archivesOf(deps, id);
  const latest = all.at(-1);
  const summary = [...all].reverse().find((a) => typeof a.meta.summary === 'string')?.meta.summary as
    | string
    | undefined;
  // The last messages only, from the last chunks and the latest archive's last files: a session
  // with 100,000 messages pending reads five of them here (docs/guide/sessions.md).
  const pending = await readRecent(deps.store, await pendingView(deps.store, deps.sessionsRoot, id), RECENT);
  let recent: { role: string; text: string }[] = pending.map((m) => ({ role: m.role, text: messageText(m) }));
  if (recent.length < RECENT && latest)
    recent = [...(await readArchiveTail(deps.store, latest, RECENT - recent.length)), ...recent];
  return { ...(summary ? { summary } : {}), recent };
}

/**
 * Sessions (docs/retrieval.md, "Sessions and memory"): the messages of a conversation, the context the
 * agent used, and commit(): archive the messages, then, with an LLM, extract memories from them.
 * An archive whose extraction failed stays marked so, and the next commit() tries it again.
 */

import * as v from 'valibot';
import type { ContextTree } from '../context/tree.js';
import { parseUri } from '../context/uri.js';
import type { Embedder } from '../embed/embedder.js';
import { LongshipError } from '../errors.js';
import { addUsage, type LLM, type TokenUsage } from '../llm/llm.js';
import { checkOptions, signalSchema, wholeNumber } from '../options.js';
import type { ConversationContext } from '../retrieve/intent.js';
import type { FindResult } from '../retrieve/retriever.js';
import type { FindOptions } from '../retrieve/settings.js';
import type { NodeRecord, Store } from '../store/store.js';
import { type ArchiveMeta, nextArchiveNumber, readArchive, sessionUriOf, writeArchive } from './archive.js';
import { type Deadline, startDeadline } from './deadline.js';
import { describeError, extractMemories } from './extract.js';
import {
  checkRole,
  type Message,
  type MessagePart,
  type MessageRole,
  messageText,
  toParts,
} from './message.js';

export interface SessionDeps {
  /** The store to write through (the derived indexes' store, so archives are searchable at once). */
  store: Store;
  embedder: Embedder;
  /** Memories are written through the tree, with its summaries and embedding. */
  tree: Pick<ContextTree, 'write'>;
  find(query: string, options: FindOptions): Promise<FindResult>;
  llm?: LLM;
  /** Estimated tokens per embedded chunk of a message. Default 90 (the bundled model reads 128). */
  chunkTokens?: number;
  now?: () => number;
}

export interface CommitOptions {
  signal?: AbortSignal;
  /** Limit for each extraction call to the LLM (default: the LLM client's own). */
  timeoutMs?: number;
  /**
   * Most time for all of this commit's memory extractions together (default 120 000). Past it, the
   * extraction under way and those not started are reported `failed` with `TIMEOUT: …`, and the
   * next commit() tries them again; the archive itself is already written.
   */
  extractionTimeoutMs?: number;
}

/** @internal */
export const commitOptionsSchema = v.strictObject({
  signal: v.optional(signalSchema),
  timeoutMs: v.optional(wholeNumber(1)),
  extractionTimeoutMs: v.optional(wholeNumber(1)),
});

export interface MessageOptions {
  /** Who spoke, when the role is not enough (a user's name). */
  name?: string;
  /** When, in ms since the epoch. Default now. */
  at?: number;
}

/** @internal */
export const messageOptionsSchema = v.strictObject({
  name: v.optional(v.string()),
  at: v.optional(v.pipe(v.number(), v.finite())),
});

export const defaultExtractionTimeoutMs = 120_000;

/** One archive's extraction, as the commit left it. */
export interface ExtractionReport {
  archive: string;
  state: ArchiveMeta['extraction'];
  memories: string[];
  /** `CODE: message` when it failed; the archive stays, and the next commit() retries it. */
  error?: string;
}

export interface CommitResult {
  /** The archive written by this commit; undefined when there were no new messages. */
  archive?: string;
  messages: number;
  /** Extractions run by this commit: the new archive's, and retries of earlier failures. */
  extractions: ExtractionReport[];
  usage?: TokenUsage;
}

/**
 * A conversation. Messages stay in memory until {@link Session.commit} archives them.
 *
 * @example
 * const session = longship.session();
 * session.addMessage('user', 'I prefer tabs over spaces.');
 * const { resources } = await longship.search('indentation settings', { session });
 * await session.used(resources.map((r) => r.uri));
 * await session.commit();
 */
export interface Session {
  readonly id: string;
  /** `viking://agent/memories/sessions/{id}`. */
  readonly uri: string;
  /** Messages added since the last commit. */
  readonly messages: readonly Message[];
  addMessage(role: MessageRole, parts: string | readonly MessagePart[], options?: MessageOptions): Message;
  /**
   * Records that the agent used these nodes: each one's use count goes up and its last use is now,
   * which find()'s hotness blend reads. Resolves with how many existed; unknown URIs are skipped.
   */
  used(uris: readonly string[]): Promise<number>;
  /** Archives the messages (one commit), then extracts memories with the LLM when there is one. */
  commit(options?: CommitOptions): Promise<CommitResult>;
  /** The summary (from the last extraction) and the last 5 messages: what search() plans from. */
  context(): Promise<ConversationContext>;
}

let counter = 0;

/** A new session id: time, then a counter and randomness, so two in one millisecond differ. */
function newId(now: number): string {
  counter = (counter + 1) % 1_000_000;
  const random = Math.floor(Math.random() * 36 ** 4).toString(36);
  return `s-${now.toString(36)}-${counter.toString(36)}${random}`;
}

/**
 * Binds sessions to the engine's parts.
 *
 * @example
 * const session = createSessions(deps)('support-chat-42');
 */
export function createSessions(deps: SessionDeps): (id?: string) => Session {
  const now = deps.now ?? Date.now;
  // One commit at a time per session: the archive number is read, then written.
  const locks = new Map<string, Promise<unknown>>();
  const exclusive = <T>(id: string, run: () => Promise<T>): Promise<T> => {
    const next = (locks.get(id) ?? Promise.resolve()).then(run);
    locks.set(
      id,
      next.catch(() => undefined),
    );
    return next;
  };

  return (id) => {
    const sessionId = id ?? newId(now());
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new LongshipError('INVALID_ARGUMENT', 'a session id must be a non-empty string');
    }
    const uri = sessionUriOf(sessionId);
    let pending: Message[] = [];
    const used = new Set<string>();

    const archives = async (): Promise<NodeRecord[]> =>
      (await deps.store.node(uri))
        ? (await deps.store.children(uri)).filter((c) => c.kind === 'dir' && Number.isInteger(c.meta.archive))
        : [];

    const extract = async (
      archive: NodeRecord,
      options: CommitOptions,
      deadline: Deadline,
    ): Promise<{ report: ExtractionReport; usage?: TokenUsage }> => {
      const meta = archive.meta as ArchiveMeta;
      const report: ExtractionReport = { archive: archive.uri, state: 'done', memories: [] };
      let usage: TokenUsage | undefined;
      try {
        const messages = await readArchive(deps.store, archive.uri);
        const done = await Promise.race([
          extractMemories(
            { store: deps.store, tree: deps.tree, find: deps.find, llm: deps.llm! },
            messages,
            { session: sessionId, archive: meta.archive },
            { ...options, signal: deadline.signal },
          ),
          deadline.expired,
        ]);
        report.memories = done.memories;
        usage = done.usage;
        await updateArchive(archive.uri, {
          extraction: 'done',
          memories: done.memories,
          ...(done.summary ? { summary: done.summary } : {}),
        });
      } catch (error) {
        if (options.signal?.aborted)
          throw new LongshipError('ABORTED', 'commit() was aborted', { cause: options.signal.reason });
        report.state = 'failed';
        report.error = describeError(deadline.passed() ? deadline.signal.reason : error);
        // Recording the failure may itself fail (the store closed): the archive is then still
        // 'pending', which a retry treats the same way.
        await updateArchive(archive.uri, { extraction: 'failed', extractionError: report.error }).catch(
          () => undefined,
        );
      }
      return usage ? { report, usage } : { report };
    };

    /** Rewrites an archive directory's meta (node only: its vectors and posting stay). */
    const updateArchive = async (archiveUri: string, change: Partial<ArchiveMeta>) => {
      const node = await deps.store.node(archiveUri);
      if (!node) return;
      const meta: Record<string, unknown> = { ...node.meta, ...change };
      if (change.extraction === 'done') delete meta.extractionError;
      await deps.store.commit({ putNodes: [{ ...node, meta, updatedAt: now() }] });
    };

    const session: Session = {
      id: sessionId,
      uri,
      get messages() {
        return pending;
      },
      addMessage(role, parts, input) {
        const options = checkOptions(messageOptionsSchema, input, 'addMessage()');
        const message: Message = {
          role: checkRole(role),
          parts: toParts(parts),
          at: options.at ?? now(),
          ...(options.name ? { name: String(options.name) } : {}),
        };
        pending = [...pending, message];
        return message;
      },
      async used(uris) {
        if (!Array.isArray(uris))
          throw new LongshipError('INVALID_ARGUMENT', 'used() takes an array of URIs');
        const canonical = [...new Set(uris.map((u) => parseUri(u)))];
        const existing: string[] = [];
        for (const u of canonical) if (await deps.store.node(u)) existing.push(u);
        if (existing.length === 0) return 0;
        // The store bumps each node inside its own transaction: a write racing this call is kept.
        const at = now();
        await deps.store.commit({ useNodes: existing.map((u) => ({ uri: u, at })) });
        for (const u of existing) used.add(u);
        return existing.length;
      },
      commit: (input) =>
        exclusive(sessionId, async () => {
          const options: CommitOptions = checkOptions(commitOptionsSchema, input, 'commit()');
          const result: CommitResult = { messages: pending.length, extractions: [] };
          if (pending.length > 0) {
            const messages = pending;
            const number = await nextArchiveNumber(deps.store, uri);
            result.archive = await writeArchive(
              {
                store: deps.store,
                embedder: deps.embedder,
                sessionUri: uri,
                sessionId,
                messages,
                used: [...used],
                extraction: deps.llm ? 'pending' : 'none',
                chunkTokens: deps.chunkTokens ?? 90,
                now: now(),
                ...(options.signal ? { signal: options.signal } : {}),
              },
              number,
            );
            // Only once they are stored: a failed archive write keeps the messages for the next try.
            pending = pending.slice(messages.length);
            used.clear();
          }
          if (deps.llm) {
            const todo = (await archives()).filter(
              (a) => a.meta.extraction === 'pending' || a.meta.extraction === 'failed',
            );
            let usage: TokenUsage | undefined;
            const ms = options.extractionTimeoutMs ?? defaultExtractionTimeoutMs;
            const deadline = startDeadline(ms, options.signal, 'memory extraction');
            try {
              for (const archive of todo) {
                const done = await extract(archive, options, deadline);
                if (done.usage) usage = usage ? addUsage(usage, done.usage) : done.usage;
                result.extractions.push(done.report);
              }
            } finally {
              deadline.clear();
            }
            if (usage) result.usage = usage;
          }
          return result;
        }),
      async context() {
        const all = await archives();
        const latest = all.at(-1);
        const summary = [...all].reverse().find((a) => typeof a.meta.summary === 'string')?.meta.summary as
          | string
          | undefined;
        let recent: { role: string; text: string }[] = pending.map((m) => ({
          role: m.role,
          text: messageText(m),
        }));
        if (recent.length < 5 && latest) recent = [...(await readArchive(deps.store, latest.uri)), ...recent];
        return { ...(summary ? { summary } : {}), recent: recent.slice(-5) };
      },
    };
    return session;
  };
}

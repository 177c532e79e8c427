/**
 * Sessions (docs/guide/retrieval.md, "Sessions and memory"): the messages of a conversation, the context the
 * agent used, and commit(): archive the messages, then, with an LLM, extract memories from them.
 * An archive whose extraction failed stays marked so, and the next commit() tries it again.
 */

import * as v from 'valibot';
import type { Namespace } from '../context/namespace.js';
import type { ContextTree } from '../context/tree.js';
import type { VikingUri } from '../context/uri.js';
import type { Embedder } from '../embed/embedder.js';
import type { LLM, TokenUsage } from '../llm/llm.js';
import { functionSchema, signalSchema, wholeNumber } from '../options.js';
import type { ConversationContext } from '../retrieve/intent.js';
import type { FindResult } from '../retrieve/retriever.js';
import type { FindOptions } from '../retrieve/settings.js';
import type { FullStore } from '../store/full-store.js';
import type { ArchiveMeta } from './archive.js';
import type { Message, MessagePart, MessageRole } from './message.js';

export interface SessionDeps {
  /** The store to write through (the derived indexes' store, so archives are searchable at once). */
  store: FullStore;
  /** The user's sessions directory, `viking://user/{user}/sessions` (docs/guide/namespaces.md). */
  sessionsRoot: VikingUri;
  /** Whose memories a commit extracts. */
  namespace: Namespace;
  embedder: Embedder;
  /** Memories are written through the tree, with its summaries and embedding; deleteSession() removes through it. */
  tree: Pick<ContextTree, 'write' | 'rm'>;
  find(query: string, options: FindOptions): Promise<FindResult>;
  llm?: LLM;
  /** Estimated tokens per embedded chunk of a message. Default 90 (the bundled model reads 128). */
  chunkTokens?: number;
  now?: () => number;
  /** Ids for commit jobs, shared with the ingestion queue's so that no two jobs of an engine share one. */
  jobId?: () => number;
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
  /** Hears this commit's progress (every commit's: {@link Session.onCommitProgress}). */
  onProgress?: (progress: CommitProgress) => void;
}

/** @internal */
export const commitOptionsSchema = v.strictObject({
  signal: v.optional(signalSchema),
  timeoutMs: v.optional(wholeNumber(1)),
  extractionTimeoutMs: v.optional(wholeNumber(1)),
  onProgress: v.optional(functionSchema),
});

/**
 * When a session commits on its own, in the background: once this many messages are pending, or
 * this many tokens (estimated, as chunking counts them), or once no message was added for `idleMs`.
 */
export interface AutoCommitPolicy {
  messages?: number;
  tokens?: number;
  idleMs?: number;
}

export interface SessionOptions {
  /** Commit in the background by this policy (default: only when commit() is called). */
  autoCommit?: AutoCommitPolicy;
}

/** The longest idle time a timer can wait for (2^31 - 1 ms, about 24.8 days). */
const maxIdleMs = 2 ** 31 - 1;

/** @internal */
export const sessionOptionsSchema = v.strictObject({
  autoCommit: v.optional(
    v.strictObject({
      messages: v.optional(wholeNumber(1)),
      tokens: v.optional(wholeNumber(1)),
      idleMs: v.optional(v.pipe(wholeNumber(1), v.maxValue(maxIdleMs, `must be at most ${maxIdleMs}`))),
    }),
  ),
});

/** A commit's progress: it waits for the one before it, archives the messages, extracts memories. */
export interface CommitProgress {
  jobId: number;
  session: string;
  /** Whether the auto-commit policy started it. */
  auto: boolean;
  phase: 'queued' | 'archive' | 'extract';
  /** Messages archived (of `total`), or archives whose extraction ended. */
  done: number;
  total: number;
}

/** A commit under way: its result, and its job id (as in its progress). */
export type CommitJob = Promise<CommitResult> & { readonly id: number };

/** How a commit ended, as {@link Session.waitCommitted} reports it. */
export interface CommitOutcome {
  jobId: number;
  auto: boolean;
  status: 'done' | 'failed' | 'cancelled';
  result?: CommitResult;
  /** `CODE: message` when it failed or was cancelled; its messages stay pending for the next commit. */
  error?: string;
}

/** What `Longship.listSessions()` and `Longship.sessionInfo()` say of a session. */
export interface SessionInfo {
  id: string;
  uri: string;
  /** Messages added and not yet committed. */
  pending: number;
  /** Archives its commits wrote. */
  archives: number;
  createdAt: number;
  /** Its last message, use or commit, in ms since the epoch. */
  updatedAt: number;
}

/** What `Longship.deleteSession()` removed. */
export interface DeletedSession {
  id: string;
  /** Pending messages dropped. */
  pending: number;
  archives: number;
  /** Nodes removed: the session's directory, its archives and their messages, its pending directory and chunks. */
  nodes: number;
}

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
  /** `llm`, or `rules` when there is no LLM (docs/guide/retrieval.md, "Without an LLM"). */
  by: 'llm' | 'rules';
  memories: string[];
  /** Memories written elsewhere than they were meant to go, or (without `uri`) nowhere, and why. */
  redirected?: RedirectedMemory[];
  /** `CODE: message` when it failed; the archive stays, and the next commit() retries it. */
  error?: string;
}

/** A memory an extraction could not write where it was meant to (docs/guide/retrieval.md, "Memory kinds"). */
export interface RedirectedMemory {
  category: string;
  name: string;
  /** Where it was meant to go. */
  wanted: string;
  /** Why it did not: `CODE: message`. */
  reason: string;
  /** Where it was written instead; absent when no place could hold it. */
  uri?: string;
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
 * A conversation. Each message is in the store once addMessage() resolves, so a session reopened by
 * id (another object, another tab, a new process) has it; commit() archives the pending messages.
 *
 * @example
 * const session = longship.session('chat-1', { autoCommit: { messages: 20 } });
 * await session.addMessage('user', 'I prefer tabs over spaces.');
 * const { resources } = await longship.search('indentation settings', { session });
 * await session.used(resources.map((r) => r.uri));
 * await session.commit();
 */
export interface Session {
  readonly id: string;
  /** `viking://user/default/sessions/{id}`. */
  readonly uri: string;
  /** Stores the message; resolves once it is durable. */
  addMessage(
    role: MessageRole,
    parts: string | readonly MessagePart[],
    options?: MessageOptions,
  ): Promise<Message>;
  /** The messages added since the last commit, oldest first, as the store has them. */
  messages(): Promise<Message[]>;
  /**
   * Records that the agent used these nodes: each existing one's use count goes up and its last use
   * is now, which find()'s hotness blend reads. Every URI, known or not, is kept with the session
   * and listed in its next archive (as OpenViking does). Resolves with how many existed.
   */
  used(uris: readonly string[]): Promise<number>;
  /**
   * Archives the pending messages (one store commit), then extracts memories with the LLM when
   * there is one. Runs after any commit of this session under way; cancel it with `signal`.
   */
  commit(options?: CommitOptions): CommitJob;
  /** Hears the progress of every commit of this session, auto-commits included; returns the unsubscribe. */
  onCommitProgress(listener: (progress: CommitProgress) => void): () => void;
  /**
   * Resolves once no commit of this session runs or waits, with how the commits of its last busy
   * spell ended (the commits that ran back to back until it was idle); the same again until more run.
   */
  waitCommitted(): Promise<CommitOutcome[]>;
  /** Cancels this session's commits under way or waiting (ABORTED); resolves with how many. */
  cancelCommits(): Promise<number>;
  /** The summary (from the last extraction) and the last 5 messages: what search() plans from. */
  context(): Promise<ConversationContext>;
}

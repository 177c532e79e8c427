/**
 * Sessions (docs/retrieval.md, "Sessions and memory"): the messages of a conversation, the context the
 * agent used, and commit(): archive the messages, then, with an LLM, extract memories from them.
 * An archive whose extraction failed stays marked so, and the next commit() tries it again.
 */

import * as v from 'valibot';
import type { ContextTree } from '../context/tree.js';
import type { Embedder } from '../embed/embedder.js';
import type { LLM, TokenUsage } from '../llm/llm.js';
import { signalSchema, wholeNumber } from '../options.js';
import type { ConversationContext } from '../retrieve/intent.js';
import type { FindResult } from '../retrieve/retriever.js';
import type { FindOptions } from '../retrieve/settings.js';
import type { Store } from '../store/store.js';
import type { ArchiveMeta } from './archive.js';
import type { Message, MessagePart, MessageRole } from './message.js';

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

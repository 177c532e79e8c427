// session_add_message and session_commit: a conversation kept in the store (docs/guide/sessions.md). Every
// surface gives a session the same defaults: an auto-commit, so that an agent that never commits
// still gets its messages archived (and memories extracted), and a cap on what a session holds
// uncommitted, since its pending messages are rewritten with every message added.

import * as v from 'valibot';
import { LongshipError } from '../errors.js';
import { sessionId } from './fields.js';
import { defineTool, type SessionPolicy } from './tool.js';
import type { ToolSession } from './tools-longship.js';

/** The defaults of {@link SessionPolicy} (docs/guide/mcp.md, "Sessions"). */
export const defaultSessionPolicy = {
  autoCommit: { messages: 20 },
  maxPending: { messages: 100, bytes: 1024 * 1024 },
} as const satisfies SessionPolicy;

export interface SessionMessageOutput {
  sessionId: string;
  uri: string;
  /** Messages pending once this one was added (an auto-commit may take them out later). */
  messages: number;
}

export const sessionAddMessage = defineTool({
  name: 'session_add_message',
  title: 'Add a message to a session',
  description:
    'Adds a message to a session (created on first use). search with the same sessionId reads its recent ' +
    'messages; session_commit archives them and extracts memories, as an auto-commit does (by default ' +
    `every ${defaultSessionPolicy.autoCommit.messages} messages).`,
  input: v.strictObject({
    sessionId: sessionId('The session: any stable id your agent chooses'),
    role: v.pipe(
      v.picklist(['user', 'assistant', 'system', 'tool'], 'must be user, assistant, system or tool'),
      v.description('Who said it'),
    ),
    content: v.pipe(v.string('must be a string'), v.description('The message text')),
  }),
  readOnly: false,
  run: async (longship, input, { sessions = {} }): Promise<SessionMessageOutput> => {
    const autoCommit = sessions.autoCommit ?? defaultSessionPolicy.autoCommit;
    const session = await longship.session(input.sessionId, autoCommit === false ? {} : { autoCommit });
    const message = { role: input.role, parts: [{ type: 'text', text: input.content }] };
    const pending = await session.messages();
    const { maxPending: defaults } = defaultSessionPolicy;
    checkRoom(input.sessionId, pending, message, {
      messages: sessions.maxPending?.messages ?? defaults.messages,
      bytes: sessions.maxPending?.bytes ?? defaults.bytes,
    });
    // Stored when it resolves: the next call (each a fresh server over HTTP) opens the same session.
    await session.addMessage(input.role, input.content);
    return { sessionId: input.sessionId, uri: session.uri, messages: pending.length + 1 };
  },
});

const utf8 = new TextEncoder();
const bytesOf = (value: unknown) => utf8.encode(JSON.stringify(value)).length;

/**
 * INPUT_TOO_LARGE when one more message would take the session past `limits`: its pending messages
 * counted, and their bytes as JSON (about what the store keeps of them). Concurrent calls for one
 * session may each pass before either is stored, so the cap holds to within those calls.
 */
function checkRoom(
  id: string,
  pending: readonly unknown[],
  message: unknown,
  limits: { messages: number; bytes: number },
): void {
  const over =
    pending.length + 1 > limits.messages
      ? `${pending.length} messages pending, at most ${limits.messages}`
      : pending.reduce<number>((sum, m) => sum + bytesOf(m), bytesOf(message)) > limits.bytes
        ? `its pending messages would take more than ${limits.bytes} bytes`
        : undefined;
  if (over === undefined) return;
  throw new LongshipError(
    'INPUT_TOO_LARGE',
    `session_add_message: session ${id} is full (${over}); session_commit archives what it holds`,
  );
}

type CommitResult = Awaited<ReturnType<ToolSession['commit']>>;

export interface SessionCommitOutput extends Pick<CommitResult, 'messages' | 'extractions'> {
  sessionId: string;
  /** The archive written; absent when no message was pending. */
  archive?: string;
}

export const sessionCommit = defineTool({
  name: 'session_commit',
  title: 'Commit a session',
  description:
    "Archives a session's messages and, where Longship has an LLM, extracts memories from them; returns " +
    'the archive and the memories written.',
  input: v.strictObject({ sessionId: sessionId('The session to commit') }),
  readOnly: false,
  run: async (longship, input): Promise<SessionCommitOutput> => {
    const { archive, messages, extractions } = await (await longship.session(input.sessionId)).commit();
    return {
      sessionId: input.sessionId,
      ...(archive === undefined ? {} : { archive }),
      messages,
      extractions,
    };
  },
});

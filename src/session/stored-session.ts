// A Session whose commits go to the store: the messages as one archive, then, with an LLM, the
// extraction of every archive not yet done, under one deadline for the whole commit.
import { abortError } from '../abort.js';
import { parseUri, type VikingUri } from '../context/uri.js';
import { type Deadline, startDeadline } from '../deadline.js';
import { LongshipError } from '../errors.js';
import { addUsage, type TokenUsage } from '../llm/llm.js';
import { checkOptions } from '../options.js';
import type { ConversationContext } from '../retrieve/intent.js';
import { SerialQueue } from '../serial-queue.js';
import type { NodeRecord } from '../store/store.js';
import { type ArchiveMeta, nextArchiveNumber, readArchive, sessionUriOf, writeArchive } from './archive.js';
import { describeError, extractMemories } from './extract.js';
import {
  checkRole,
  type Message,
  type MessagePart,
  type MessageRole,
  messageText,
  toParts,
} from './message.js';
import {
  type CommitOptions,
  type CommitResult,
  commitOptionsSchema,
  defaultExtractionTimeoutMs,
  type ExtractionReport,
  type MessageOptions,
  messageOptionsSchema,
  type Session,
  type SessionDeps,
} from './session.js';

/**
 * Binds sessions to the engine's parts.
 *
 * @example
 * const session = createSessions(deps)('support-chat-42');
 */
export function createSessions(deps: SessionDeps): (id?: string) => Session {
  const now = deps.now ?? Date.now;
  // One commit at a time per session id, whichever Session object it comes through: the archive
  // number is read, then written.
  const commits = new Map<string, SerialQueue>();
  return (id) => {
    const sessionId = id ?? newId(now());
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new LongshipError('INVALID_ARGUMENT', 'a session id must be a non-empty string');
    }
    const queue = commits.get(sessionId) ?? new SerialQueue();
    commits.set(sessionId, queue);
    return sessionOf(deps, now, sessionId, queue);
  };
}

let counter = 0;

/** A new session id: time, then a counter and randomness, so two in one millisecond differ. */
function newId(now: number): string {
  counter = (counter + 1) % 1_000_000;
  const random = Math.floor(Math.random() * 36 ** 4).toString(36);
  return `s-${now.toString(36)}-${counter.toString(36)}${random}`;
}

/** What a session's functions share: its parts, and the messages and uses not yet committed. */
interface SessionState {
  readonly deps: SessionDeps;
  readonly now: () => number;
  readonly id: string;
  readonly uri: VikingUri;
  pending: Message[];
  readonly used: Set<string>;
}

// A plain object of own properties, not a class instance: the worker hands a session to the page
// as its own methods and data (`messages` included), which a prototype would hide.
function sessionOf(deps: SessionDeps, now: () => number, id: string, commits: SerialQueue): Session {
  const state: SessionState = { deps, now, id, uri: sessionUriOf(id), pending: [], used: new Set() };
  return {
    id,
    uri: state.uri,
    get messages() {
      return state.pending;
    },
    addMessage: (role, parts, input) => addMessage(state, role, parts, input),
    used: (uris) => markUsed(state, uris),
    commit: (input) => commits.run(() => commitSession(state, input)),
    context: () => sessionContext(state),
  };
}

function addMessage(
  state: SessionState,
  role: MessageRole,
  parts: string | readonly MessagePart[],
  input: MessageOptions | undefined,
): Message {
  const options = checkOptions(messageOptionsSchema, input, 'addMessage()');
  const message: Message = {
    role: checkRole(role),
    parts: toParts(parts),
    at: options.at ?? state.now(),
    ...(options.name ? { name: String(options.name) } : {}),
  };
  state.pending = [...state.pending, message];
  return message;
}

async function markUsed(state: SessionState, uris: readonly string[]): Promise<number> {
  if (!Array.isArray(uris)) throw new LongshipError('INVALID_ARGUMENT', 'used() takes an array of URIs');
  const { store } = state.deps;
  const canonical = [...new Set(uris.map((u) => parseUri(u)))];
  const existing: string[] = [];
  for (const u of canonical) if (await store.node(u)) existing.push(u);
  if (existing.length === 0) return 0;
  // The store bumps each node inside its own transaction: a write racing this call is kept.
  const at = state.now();
  await store.commit({ useNodes: existing.map((u) => ({ uri: u, at })) });
  for (const u of existing) state.used.add(u);
  return existing.length;
}

async function commitSession(state: SessionState, input: CommitOptions | undefined): Promise<CommitResult> {
  const options: CommitOptions = checkOptions(commitOptionsSchema, input, 'commit()');
  const result: CommitResult = { messages: state.pending.length, extractions: [] };
  const archive = await archivePending(state, options);
  if (archive) result.archive = archive;
  if (state.deps.llm) {
    const { reports, usage } = await extractPending(state, options);
    result.extractions = reports;
    if (usage) result.usage = usage;
  }
  return result;
}

async function sessionContext(state: SessionState): Promise<ConversationContext> {
  const all = await archivesOf(state);
  const latest = all.at(-1);
  const summary = [...all].reverse().find((a) => typeof a.meta.summary === 'string')?.meta.summary as
    | string
    | undefined;
  let recent: { role: string; text: string }[] = state.pending.map((m) => ({
    role: m.role,
    text: messageText(m),
  }));
  if (recent.length < 5 && latest) recent = [...(await readArchive(state.deps.store, latest.uri)), ...recent];
  return { ...(summary ? { summary } : {}), recent: recent.slice(-5) };
}

/** Writes the pending messages as the next archive; undefined when there are none. */
async function archivePending(state: SessionState, options: CommitOptions): Promise<VikingUri | undefined> {
  if (state.pending.length === 0) return undefined;
  const { deps } = state;
  const messages = state.pending;
  const number = await nextArchiveNumber(deps.store, state.uri);
  const archive = await writeArchive(
    {
      store: deps.store,
      embedder: deps.embedder,
      sessionUri: state.uri,
      sessionId: state.id,
      messages,
      used: [...state.used],
      extraction: deps.llm ? 'pending' : 'none',
      chunkTokens: deps.chunkTokens ?? 90,
      now: state.now(),
      ...(options.signal ? { signal: options.signal } : {}),
    },
    number,
  );
  // Only once they are stored: a failed archive write keeps the messages for the next try.
  state.pending = state.pending.slice(messages.length);
  state.used.clear();
  return archive;
}

/** Extracts every archive still pending or failed, oldest first, under one deadline. */
async function extractPending(
  state: SessionState,
  options: CommitOptions,
): Promise<{ reports: ExtractionReport[]; usage?: TokenUsage }> {
  const todo = (await archivesOf(state)).filter(
    (a) => a.meta.extraction === 'pending' || a.meta.extraction === 'failed',
  );
  const reports: ExtractionReport[] = [];
  let usage: TokenUsage | undefined;
  const ms = options.extractionTimeoutMs ?? defaultExtractionTimeoutMs;
  const deadline = startDeadline(ms, options.signal, 'memory extraction');
  try {
    for (const archive of todo) {
      const done = await extractArchive(state, archive, options, deadline);
      if (done.usage) usage = usage ? addUsage(usage, done.usage) : done.usage;
      reports.push(done.report);
    }
  } finally {
    deadline.clear();
  }
  return usage ? { reports, usage } : { reports };
}

async function archivesOf({ deps: { store }, uri }: SessionState): Promise<NodeRecord[]> {
  return (await store.node(uri))
    ? (await store.children(uri)).filter((c) => c.kind === 'dir' && Number.isInteger(c.meta.archive))
    : [];
}

/** One archive's extraction; a failure is reported and recorded, only the caller's abort rejects. */
async function extractArchive(
  state: SessionState,
  archive: NodeRecord,
  options: CommitOptions,
  deadline: Deadline,
): Promise<{ report: ExtractionReport; usage?: TokenUsage }> {
  const { deps } = state;
  const meta = archive.meta as ArchiveMeta;
  const report: ExtractionReport = { archive: archive.uri, state: 'done', memories: [] };
  let usage: TokenUsage | undefined;
  try {
    const messages = await readArchive(deps.store, archive.uri);
    const done = await deadline.race(
      extractMemories(
        { store: deps.store, tree: deps.tree, find: deps.find, llm: deps.llm! },
        messages,
        { session: state.id, archive: meta.archive },
        { ...options, signal: deadline.signal },
      ),
    );
    report.memories = done.memories;
    usage = done.usage;
    await updateArchive(state, archive.uri, {
      extraction: 'done',
      memories: done.memories,
      ...(done.summary ? { summary: done.summary } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw abortError(options.signal, 'commit()');
    report.state = 'failed';
    report.error = describeError(deadline.passed() ? deadline.signal.reason : error);
    // Recording the failure may itself fail (the store closed): the archive is then still
    // 'pending', which a retry treats the same way.
    await updateArchive(state, archive.uri, { extraction: 'failed', extractionError: report.error }).catch(
      () => undefined,
    );
  }
  return usage ? { report, usage } : { report };
}

/** Rewrites an archive directory's meta (node only: its vectors and posting stay). */
async function updateArchive(
  state: SessionState,
  archiveUri: string,
  change: Partial<ArchiveMeta>,
): Promise<void> {
  const node = await state.deps.store.node(archiveUri);
  if (!node) return;
  const meta: Record<string, unknown> = { ...node.meta, ...change };
  if (change.extraction === 'done') delete meta.extractionError;
  await state.deps.store.commit({ putNodes: [{ ...node, meta, updatedAt: state.now() }] });
}

// One commit of a session: the pending messages become the next archive, in the same store commit
// that takes them out of the session's pending directory; then, with an LLM, every archive not yet extracted
// is, under one deadline for the whole commit (docs/guide/sessions.md); without one, rules read what they
// can off the new archive (docs/guide/retrieval.md, "Without an LLM").

import { abortError, throwIfAborted } from '../abort.js';
import { type Deadline, startDeadline } from '../deadline.js';
import { LongshipError } from '../errors.js';
import { addUsage, type TokenUsage } from '../llm/llm.js';
import type { NodeRecord } from '../store/store.js';
import { type ArchiveMeta, archiveBatch, nextArchiveNumber, readArchive, sessionUriOf } from './archive.js';
import { describeError, extractMemories } from './extract.js';
import { pendingView, readPending } from './pending-messages.js';
import { merged, moveLegacy, removalBatch } from './pending-writes.js';
import { extractByRules } from './rule-extract.js';
import {
  type CommitOptions,
  type CommitProgress,
  type CommitResult,
  defaultExtractionTimeoutMs,
  type ExtractionReport,
  type SessionDeps,
} from './session.js';
import { withSessionLock } from './session-lock.js';
import { stateOf, stateWrite } from './session-state.js';

/** What a commit reports its progress with: the phase, and how far. */
export type Report = (phase: CommitProgress['phase'], done: number, total: number) => void;

/** Runs one commit of session `id`; the caller runs them one at a time per id. */
export async function commitSession(
  deps: SessionDeps,
  id: string,
  options: CommitOptions,
  report: Report,
): Promise<CommitResult> {
  const archived = await archivePending(deps, id, options, report);
  const result: CommitResult = { messages: archived.messages, extractions: [] };
  if (archived.archive) result.archive = archived.archive;
  if (deps.llm) {
    const { reports, usage } = await extractPending(deps, id, options, report);
    result.extractions = reports;
    if (usage) result.usage = usage;
  } else if (archived.archive) {
    result.extractions = [await extractArchiveByRules(deps, id, archived.archive, options)];
  }
  return result;
}

/** Writes the pending messages as the next archive; no archive when there are none. */
async function archivePending(
  deps: SessionDeps,
  id: string,
  options: CommitOptions,
  report: Report,
): Promise<{ archive?: string; messages: number }> {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  let view = await pendingView(store, deps.sessionsRoot, id);
  if (view.legacy.length > 0) {
    // Messages an earlier version kept in the session's meta move into chunks first, so that what
    // this commit takes out is chunks only, whatever is added while it embeds.
    await withSessionLock(store, id, () => moveLegacy(deps, id));
    view = await pendingView(store, deps.sessionsRoot, id);
  }
  const node = view.session;
  if (!node) return { messages: 0 };
  const read = await readPending(store, view);
  const { messages } = read;
  if (messages.length === 0) return { messages: 0 };
  const { used } = stateOf(node);
  report('archive', 0, messages.length);
  const number = await nextArchiveNumber(store, sessionUriOf(deps.sessionsRoot, id));
  const { uri, batch } = await archiveBatch(
    {
      store,
      embedder: deps.embedder,
      sessionUri: sessionUriOf(deps.sessionsRoot, id),
      sessionId: id,
      messages,
      used,
      extraction: deps.llm ? 'pending' : 'none',
      chunkTokens: deps.chunkTokens ?? 90,
      now: now(),
      ...(options.signal ? { signal: options.signal } : {}),
    },
    number,
  );
  await withSessionLock(store, id, async () => {
    throwIfAborted(options.signal, 'commit()');
    // Messages added while the archive was embedded stay pending; the ones archived leave the state.
    const current = await pendingView(store, deps.sessionsRoot, id);
    if (current.session?.key !== node.key || current.dir?.key !== view.dir?.key) {
      throw new LongshipError(
        'NOT_FOUND',
        `session ${id} (or its pending messages) was removed while it was committing`,
      );
    }
    const state = stateOf(current.session);
    const usedNow = state.used.filter((u) => !used.includes(u));
    const change = stateWrite(current.session, { ...state, used: usedNow }, now());
    const removal = await removalBatch(
      deps,
      id,
      current,
      { first: view.index.first, ...read, archived: messages },
      now(),
    );
    await store.commit(merged(change, removal, batch), options.signal);
  });
  report('archive', messages.length, messages.length);
  return { archive: uri, messages: messages.length };
}

/** Extracts every archive still pending or failed, oldest first, under one deadline. */
async function extractPending(
  deps: SessionDeps,
  id: string,
  options: CommitOptions,
  report: Report,
): Promise<{ reports: ExtractionReport[]; usage?: TokenUsage }> {
  const todo = (await archivesOf(deps, id)).filter(
    (a) => a.meta.extraction === 'pending' || a.meta.extraction === 'failed',
  );
  const reports: ExtractionReport[] = [];
  let usage: TokenUsage | undefined;
  const ms = options.extractionTimeoutMs ?? defaultExtractionTimeoutMs;
  const deadline = startDeadline(ms, options.signal, 'memory extraction');
  try {
    for (const archive of todo) {
      report('extract', reports.length, todo.length);
      const done = await extractArchive(deps, id, archive, options, deadline);
      if (done.usage) usage = usage ? addUsage(usage, done.usage) : done.usage;
      reports.push(done.report);
    }
    if (todo.length > 0) report('extract', reports.length, todo.length);
  } finally {
    deadline.clear();
  }
  return usage ? { reports, usage } : { reports };
}

/** The session's archives, by URI. */
export async function archivesOf(
  deps: Pick<SessionDeps, 'store' | 'sessionsRoot'>,
  id: string,
): Promise<NodeRecord[]> {
  const { store } = deps;
  const uri = sessionUriOf(deps.sessionsRoot, id);
  return (await store.node(uri))
    ? (await store.children(uri)).filter((c) => c.kind === 'dir' && Number.isInteger(c.meta.archive))
    : [];
}

/** One archive's extraction; a failure is reported and recorded, only the caller's abort rejects. */
async function extractArchive(
  deps: SessionDeps,
  id: string,
  archive: NodeRecord,
  options: CommitOptions,
  deadline: Deadline,
): Promise<{ report: ExtractionReport; usage?: TokenUsage }> {
  const meta = archive.meta as ArchiveMeta;
  const report: ExtractionReport = { archive: archive.uri, state: 'done', by: 'llm', memories: [] };
  let usage: TokenUsage | undefined;
  try {
    const messages = await readArchive(deps.store, archive.uri);
    const done = await deadline.race(
      extractMemories(
        { store: deps.store, namespace: deps.namespace, tree: deps.tree, find: deps.find, llm: deps.llm! },
        messages,
        { session: id, archive: meta.archive },
        { ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), signal: deadline.signal },
      ),
    );
    report.memories = done.memories;
    if (done.redirected.length > 0) report.redirected = done.redirected;
    usage = done.usage;
    await updateArchive(deps, archive.uri, {
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
    await updateArchive(deps, archive.uri, { extraction: 'failed', extractionError: report.error }).catch(
      () => undefined,
    );
  }
  return usage ? { report, usage } : { report };
}

/**
 * Without an LLM: the memories rules read off the archive just written. A failure is reported and
 * the archive marked failed, which a commit with an LLM retries; only the caller's abort rejects.
 */
async function extractArchiveByRules(
  deps: SessionDeps,
  id: string,
  archiveUri: string,
  options: CommitOptions,
): Promise<ExtractionReport> {
  const report: ExtractionReport = { archive: archiveUri, state: 'done', by: 'rules', memories: [] };
  try {
    const node = await deps.store.node(archiveUri);
    const number = Number(node?.meta.archive);
    const messages = await readArchive(deps.store, archiveUri);
    const done = await extractByRules(
      deps,
      messages,
      { session: id, archive: number, now: (deps.now ?? Date.now)() },
      options.signal,
    );
    report.memories = done.memories;
    if (done.redirected.length > 0) report.redirected = done.redirected;
    await updateArchive(deps, archiveUri, {
      extraction: 'done',
      extractedBy: 'rules',
      memories: done.memories,
    });
  } catch (error) {
    if (options.signal?.aborted) throw abortError(options.signal, 'commit()');
    report.state = 'failed';
    report.error = describeError(error);
    await updateArchive(deps, archiveUri, { extraction: 'failed', extractionError: report.error }).catch(
      () => undefined,
    );
  }
  return report;
}

/** Rewrites an archive directory's meta (node only: its vectors and posting stay). */
async function updateArchive(
  deps: SessionDeps,
  archiveUri: string,
  change: Partial<ArchiveMeta>,
): Promise<void> {
  const node = await deps.store.node(archiveUri);
  if (!node) return;
  const meta: Record<string, unknown> = { ...node.meta, ...change };
  if (change.extraction === 'done') delete meta.extractionError;
  await deps.store.commit({ putNodes: [{ ...node, meta, updatedAt: (deps.now ?? Date.now)() }] });
}

// Writing one memory where its kind and name place it (docs/guide/retrieval.md, "Memory kinds"), for
// extraction with or without an LLM and for remember(): the same thing lands on the same node, its
// sources are unioned, and a memory whose place is taken by a directory goes to the next free name
// rather than vanishing.

import type { Namespace } from '../context/namespace.js';
import { clampText } from '../context/summarize.js';
import type { ContextTree } from '../context/tree.js';
import type { VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import type { MemoryCategory } from '../llm/prompts.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord } from '../store/store.js';

export interface MemoryWriteDeps {
  store: Pick<FullStore, 'node'>;
  tree: Pick<ContextTree, 'write'>;
  /** Whose memories these are (docs/guide/namespaces.md). */
  namespace: Namespace;
}

export interface MemoryDraft {
  category: MemoryCategory;
  name: string;
  content: string;
  abstract?: string;
  /** What it came from: `session:<id>#<archive>`, resource URIs. */
  sources: readonly string[];
  /**
   * Where it goes, best first: its own place (from `memoryUri()`), then the other names it may take
   * when a directory holds that one (`memoryPlaces()` in extract.ts).
   */
  places: readonly VikingUri[];
  /** Whether its text replaces the text at `places[0]` (a memory the writer was shown and rewrote). */
  replaces?: boolean;
  /** Milliseconds since the epoch. */
  expiresAt?: number;
  occurredAt?: number;
  /** More meta: `origin` and whatever the writer records. */
  meta: Record<string, unknown>;
}

/** `new`: a node was made; `merged`: added to (or, replacing, rewrote) one; `held`: it had the text. */
export type MemoryOutcome = 'new' | 'merged' | 'held';

export interface WrittenMemory {
  uri: VikingUri;
  outcome: MemoryOutcome;
  /** Where it belonged, when it went elsewhere, and why (`CODE: message`). */
  wanted?: VikingUri;
  reason?: string;
}

/**
 * Writes `draft` at its place, or at the next free name of its kind when a directory (or a race)
 * takes that place. Rejects with `IS_A_DIRECTORY` or `NOT_A_DIRECTORY` when none of them can hold
 * it, and with any other failure of the write as it is: never resolves without writing.
 */
export async function writeMemory(
  deps: MemoryWriteDeps,
  draft: MemoryDraft,
  signal?: AbortSignal,
): Promise<WrittenMemory> {
  const wanted = draft.places[0];
  if (!wanted) throw new LongshipError('INVALID_ARGUMENT', `no place for the memory "${draft.name}"`);
  let reason = '';
  for (const uri of new Set(draft.places)) {
    try {
      const outcome = await writeAt(deps, uri, draft, uri === wanted && draft.replaces === true, signal);
      return uri === wanted ? { uri, outcome } : { uri, outcome, wanted, reason };
    } catch (error) {
      if (!(error instanceof LongshipError)) throw error;
      if (error.code !== 'IS_A_DIRECTORY' && error.code !== 'NOT_A_DIRECTORY') throw error;
      reason ||= `${error.code}: ${error.message}`;
      // A parent that is a file fails every name of the kind alike.
      if (error.code === 'NOT_A_DIRECTORY') break;
    }
  }
  const code = reason.startsWith('NOT_A_DIRECTORY') ? 'NOT_A_DIRECTORY' : 'IS_A_DIRECTORY';
  throw new LongshipError(code, `no place for the ${draft.category} memory "${draft.name}" (${reason})`);
}

async function writeAt(
  deps: MemoryWriteDeps,
  uri: VikingUri,
  draft: MemoryDraft,
  replace: boolean,
  signal?: AbortSignal,
): Promise<MemoryOutcome> {
  const old = await deps.store.node(uri);
  if (old?.kind === 'dir') throw new LongshipError('IS_A_DIRECTORY', `${uri} is a directory`);
  const before = old?.l2 ?? '';
  const held = !!old && !replace && before.includes(draft.content);
  const content = !old || replace ? draft.content : held ? before : `${before}\n\n${draft.content}`;
  const sources = union(sourcesOf(old), draft.sources);
  const meta: Record<string, unknown> = {
    ...old?.meta,
    ...draft.meta,
    // Who made it first: extraction offers the LLM the memories a session made, added to or not.
    ...(old?.meta.origin === undefined ? {} : { origin: old.meta.origin }),
    category: draft.category,
    title: draft.name,
    sources,
    ...(draft.expiresAt !== undefined ? { expiresAt: draft.expiresAt } : {}),
    ...(draft.occurredAt !== undefined ? { occurredAt: draft.occurredAt } : {}),
  };
  // Held text with nothing new to record: no write, so no re-embedding.
  const sameTimes =
    (draft.expiresAt === undefined || draft.expiresAt === old?.meta.expiresAt) &&
    (draft.occurredAt === undefined || draft.occurredAt === old?.meta.occurredAt);
  if (held && sources.length === sourcesOf(old).length && sameTimes) return 'held';
  await deps.tree.write(uri, content, {
    abstract: draft.abstract ?? (old && !replace ? old.l0 : clampText(content)),
    // A memory is short: its text is its overview, and no summariser (an LLM one) is asked again.
    overview: clampText(content, 1500),
    parents: true,
    meta,
    ...(signal ? { signal } : {}),
  });
  return held ? 'held' : old ? 'merged' : 'new';
}

/**
 * The sources a stored memory records; one extracted before sources were kept names its session and
 * archive in its meta instead.
 */
export function sourcesOf(node: Pick<NodeRecord, 'meta'> | undefined): string[] {
  if (!node) return [];
  const { sources, session, archive } = node.meta;
  if (Array.isArray(sources)) return sources.filter((s): s is string => typeof s === 'string');
  if (typeof session === 'string' && Number.isInteger(archive))
    return [sessionSource(session, Number(archive))];
  return [];
}

/** The source a memory extracted from a session's archive names. */
export const sessionSource = (session: string, archive: number): string => `session:${session}#${archive}`;

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

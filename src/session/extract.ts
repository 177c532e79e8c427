// Memory extraction at commit (docs/guide/retrieval.md, "Sessions and memory"): an LLM reads an archived
// conversation and the memories that may be about the same things, and says what to remember. Each
// memory lands at a stable URI per category and name, so the same thing is updated, not duplicated.

import { agentSpace, type Namespace, userSpace } from '../context/namespace.js';
import type { ContextTree } from '../context/tree.js';
import { join, type VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import { slugify } from '../ingest/slug.js';
import type { LLM, TokenUsage } from '../llm/llm.js';
import { type MemoryCategory, memoryPrompt, singleFileCategories } from '../llm/prompts.js';
import { runPrompt } from '../llm/run-prompt.js';
import type { FindResult } from '../retrieve/retriever.js';
import type { FindOptions } from '../retrieve/settings.js';
import type { FullStore } from '../store/full-store.js';
import {
  type MemoryDraft,
  type MemoryWriteDeps,
  sessionSource,
  type WrittenMemory,
  writeMemory,
} from './memory-write.js';
import type { RedirectedMemory } from './session.js';

export interface ExtractDeps {
  store: FullStore;
  /** Whose memories these are (docs/guide/namespaces.md). */
  namespace: Namespace;
  tree: Pick<ContextTree, 'write'>;
  find(query: string, options: FindOptions): Promise<FindResult>;
  llm: LLM;
}

export interface Extraction {
  memories: string[];
  /** Memories that did not land where they were meant to, and why (none is dropped unrecorded). */
  redirected: RedirectedMemory[];
  summary: string;
  usage: TokenUsage;
}

/** Meta every extracted memory carries; how extraction finds the memories it may update. */
export const extractedMeta = { origin: 'session' } as const;

/**
 * The single-file kinds (profile, identity, soul) are one file each; every other kind is a directory
 * of memories, and the agent's own notes are under the agent's memories (docs/guide/retrieval.md,
 * "Memory kinds").
 */
export function memoryUri(namespace: Namespace, category: MemoryCategory, name: string): VikingUri {
  const slug = slugify(name, 'memory');
  const memories = join(userSpace(namespace), 'memories');
  if (singleFileCategories.includes(category)) return join(memories, category);
  if (category === 'agent') return join(agentSpace(namespace), 'memories', 'notes', slug);
  return join(memories, category, slug);
}

/** How many other names (`<name>-2` …) a memory of a directory kind tries when its own is taken. */
const alternateNames = 8;

/**
 * A memory's place, then the names it takes when a directory holds that one: `<name>-2` to
 * `<name>-9`. A single-file kind has the one place.
 */
export function memoryPlaces(namespace: Namespace, category: MemoryCategory, name: string): VikingUri[] {
  const places = [memoryUri(namespace, category, name)];
  if (singleFileCategories.includes(category)) return places;
  for (let i = 2; i <= alternateNames + 1; i++) places.push(memoryUri(namespace, category, `${name} ${i}`));
  return places;
}

/**
 * Extracts memories from one archived conversation and writes them. Rejects with the LLM's
 * `LongshipError` (the caller keeps the archive and marks it for a retry).
 */
export async function extractMemories(
  deps: ExtractDeps,
  messages: readonly { role: string; text: string }[],
  context: { session: string; archive: number },
  options: { signal?: AbortSignal; timeoutMs?: number; maxExisting?: number } = {},
): Promise<Extraction> {
  const { store, llm } = deps;
  // The memories most like this conversation, to update rather than duplicate. The single-file kinds
  // are always offered: every conversation may add to them.
  const query = messages
    .filter((m) => m.role === 'user')
    .map((m) => m.text)
    .join('\n')
    .slice(-2000);
  const similar = query.trim()
    ? await deps.find(query, {
        limit: options.maxExisting ?? 20,
        mode: 'quick',
        filter: { contextType: 'memory', kind: 'file', meta: extractedMeta },
        ...(options.signal ? { signal: options.signal } : {}),
      })
    : undefined;
  const candidates = new Set<string>(similar?.memories.map((m) => m.uri) ?? []);
  for (const kind of singleFileCategories) candidates.add(memoryUri(deps.namespace, kind, kind));
  const existing: { uri: string; category: string; content: string }[] = [];
  for (const uri of candidates) {
    const node = await store.node(uri);
    if (node?.kind === 'file') {
      existing.push({
        uri,
        category: String(node.meta.category ?? ''),
        content: (node.l2 ?? '').slice(0, 2000),
      });
    }
  }
  const { output, usage } = await runPrompt(
    llm,
    memoryPrompt,
    { messages: messages.map(({ role, text }) => ({ role, text: text.slice(0, 4000) })), existing },
    {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    },
  );
  const offered = new Set(existing.map((e) => e.uri));
  const placed = new PlacedMemories(deps, options.signal);
  for (const memory of output.memories) {
    // `updates` is honoured only for a URI we offered: the model cannot point a write elsewhere.
    const updates = memory.updates && offered.has(memory.updates) ? (memory.updates as VikingUri) : undefined;
    const occurredAt = memory.occurred_at ? Date.parse(memory.occurred_at) : Number.NaN;
    await placed.write(
      {
        category: memory.category,
        name: memory.name,
        content: memory.content,
        abstract: memory.abstract,
        places: [
          ...(updates ? [updates] : []),
          ...memoryPlaces(deps.namespace, memory.category, memory.name),
        ],
        ...(updates ? { replaces: true } : {}),
        ...(Number.isFinite(occurredAt) ? { occurredAt } : {}),
        sources: [sessionSource(context.session, context.archive)],
        meta: {
          ...extractedMeta,
          session: context.session,
          archive: context.archive,
          prompt: `${memoryPrompt.id}@${memoryPrompt.version}`,
        },
      },
      memory.updates && !updates
        ? {
            wanted: memory.updates,
            reason: `UPDATES_NOT_OFFERED: ${memory.updates} was not offered to update`,
          }
        : undefined,
    );
  }
  return { memories: placed.memories(), redirected: placed.redirected, summary: output.summary, usage };
}

/**
 * The memories of one extraction as they are written: one that its place cannot hold goes to the next
 * free name of its kind, else among the agent's notes, and is listed in `redirected` with why; one
 * that nothing can hold is listed there without a `uri`.
 */
export class PlacedMemories {
  readonly redirected: RedirectedMemory[] = [];
  readonly #written: string[] = [];

  constructor(
    private readonly deps: MemoryWriteDeps,
    private readonly signal?: AbortSignal,
  ) {}

  async write(draft: MemoryDraft, asked?: { wanted: string; reason: string }): Promise<void> {
    const { category, name } = draft;
    let done: WrittenMemory | undefined;
    let failure = '';
    try {
      done = await writeMemory(this.deps, draft, this.signal);
    } catch (error) {
      if (!isPlacement(error)) throw error;
      failure = describeError(error);
      const notes = memoryPlaces(this.deps.namespace, 'agent', `${category} ${name}`);
      done = await writeMemory(this.deps, { ...draft, places: notes, replaces: false }, this.signal).catch(
        (again: unknown) => {
          if (!isPlacement(again)) throw again;
          return undefined;
        },
      );
    }
    if (done) this.#written.push(done.uri);
    const wanted = asked?.wanted ?? done?.wanted ?? draft.places[0]!;
    const reason = asked?.reason ?? done?.reason ?? failure;
    if (asked || done?.wanted || failure) {
      this.redirected.push({ category, name, wanted, reason, ...(done ? { uri: done.uri } : {}) });
    }
  }

  /** Two memories of one answer may land on one URI: the later merged into the earlier; listed once. */
  memories(): string[] {
    return [...new Set(this.#written)];
  }
}

const isPlacement = (error: unknown): boolean =>
  error instanceof LongshipError && (error.code === 'IS_A_DIRECTORY' || error.code === 'NOT_A_DIRECTORY');

export function describeError(error: unknown): string {
  return error instanceof LongshipError
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
}

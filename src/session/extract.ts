// Memory extraction at commit (docs/guide/retrieval.md, "Sessions and memory"): an LLM reads an archived
// conversation and the memories that may be about the same things, and says what to remember. Each
// memory lands at a stable URI per category and name, so the same thing is updated, not duplicated.

import { agentSpace, type Namespace, userSpace } from '../context/namespace.js';
import { clampText } from '../context/summarize.js';
import type { ContextTree } from '../context/tree.js';
import { join, type VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import { slugify } from '../ingest/slug.js';
import type { LLM, TokenUsage } from '../llm/llm.js';
import { type MemoryCategory, memoryPrompt } from '../llm/prompts.js';
import { runPrompt } from '../llm/run-prompt.js';
import type { FindResult } from '../retrieve/retriever.js';
import type { FindOptions } from '../retrieve/settings.js';
import type { FullStore } from '../store/full-store.js';

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
  summary: string;
  usage: TokenUsage;
}

/** Meta every extracted memory carries; how extraction finds the memories it may update. */
export const extractedMeta = { origin: 'session' } as const;

/**
 * The profile is one file (docs/guide/retrieval.md, "Context types and roots"); every other category is a
 * directory of memories.
 */
export function memoryUri(namespace: Namespace, category: MemoryCategory, name: string): VikingUri {
  const slug = slugify(name, 'memory');
  const memories = join(userSpace(namespace), 'memories');
  if (category === 'profile') return join(memories, 'profile');
  if (category === 'agent') return join(agentSpace(namespace), 'memories', 'notes', slug);
  return join(memories, category, slug);
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
  const { store, tree, llm } = deps;
  // The memories most like this conversation, to update rather than duplicate. The profile is always
  // offered: it is one file that every conversation may add to.
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
  const candidates = new Set(similar?.memories.map((m) => m.uri) ?? []);
  const profile = memoryUri(deps.namespace, 'profile', '');
  if (await store.node(profile)) candidates.add(profile);
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
  const written: string[] = [];
  for (const memory of output.memories) {
    // `updates` is honoured only for a URI we offered: the model cannot point a write elsewhere.
    const target =
      memory.updates && offered.has(memory.updates)
        ? memory.updates
        : memoryUri(deps.namespace, memory.category, memory.name);
    const old = await store.node(target);
    if (old?.kind === 'dir') continue;
    let content = memory.content;
    if (old && !(memory.updates && offered.has(memory.updates))) {
      // The same name again without the model having seen the old text: keep both, once.
      const before = old.l2 ?? '';
      content = before.includes(memory.content) ? before : `${before}\n\n${memory.content}`;
    }
    await tree.write(target, content, {
      abstract: memory.abstract,
      // A memory is short: its text is its overview, and no summariser (an LLM one) is asked again.
      overview: clampText(content, 1500),
      parents: true,
      meta: {
        ...old?.meta,
        ...extractedMeta,
        category: memory.category,
        title: memory.name,
        session: context.session,
        archive: context.archive,
        prompt: `${memoryPrompt.id}@${memoryPrompt.version}`,
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    written.push(target);
  }
  // Two memories of one answer may land on one URI: the later merged into the earlier; listed once.
  return { memories: [...new Set(written)], summary: output.summary, usage };
}

export function describeError(error: unknown): string {
  return error instanceof LongshipError
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
}

// What each AI SDK tool does, as plain functions over a Longship (docs/ai-sdk.md): each answers
// small plain JSON sized for a prompt (URIs to cite, scores, the text at one layer), cut to the
// caller's `maxChars`. Nothing here knows the AI SDK; tools.ts wraps these in its `tool()`.
import { clampText } from '../context/summarize.js';
import type { VikingUri } from '../context/uri.js';
import type { Longship } from '../engine.js';
import { LongshipError } from '../errors.js';
import { memoryUri } from '../session/extract.js';
import {
  type AddMemoryInput,
  type ContextInput,
  contextTokens,
  type FindInput,
  type LsInput,
  type ReadInput,
} from './tool-inputs.js';

/** What the tools use of a Longship. */
export type ToolsLongship = Pick<
  Longship,
  'find' | 'context' | 'read' | 'overview' | 'abstract' | 'ls' | 'stat' | 'write'
>;

export interface ToolLimits {
  /** The longest text one result carries; longer text is cut at a word and marked `truncated`. */
  maxChars: number;
}

export interface FindHit {
  uri: string;
  type: 'resource' | 'memory' | 'skill';
  score: number;
  abstract: string;
}

/** The most entries ls returns; `more` counts the rest. */
const maxEntries = 100;
/** An abstract in a list is a line, not a page. */
const abstractChars = 300;
const defaultFindLimit = 5;

/** Hits of every context type, best first, each with its URI to cite and its L0. */
export async function findAction(longship: ToolsLongship, input: FindInput, signal?: AbortSignal) {
  const limit = input.limit ?? defaultFindLimit;
  const result = await longship.find(input.query, {
    limit,
    ...(input.targetUri ? { targetUri: input.targetUri } : {}),
    ...(signal ? { signal } : {}),
  });
  const hits: FindHit[] = [...result.resources, ...result.memories, ...result.skills]
    .map((hit) => ({
      uri: hit.uri,
      type: hit.context_type,
      score: Math.round(hit.score * 1000) / 1000,
      abstract: clampText(hit.abstract, abstractChars),
    }))
    .sort((a, b) => b.score - a.score || (a.uri < b.uri ? -1 : 1))
    .slice(0, limit);
  return { hits };
}

/**
 * The context for the model's next step within `tokens` (longship.context(), docs/context.md): the
 * block, and what it cites. With a session, what earlier calls gave it is left out unless it changed.
 */
export async function contextAction(
  longship: ToolsLongship,
  input: ContextInput,
  session: string | undefined,
  signal?: AbortSignal,
) {
  const result = await longship.context(input.query, {
    budget: { tokens: input.tokens ?? contextTokens.default },
    ...(input.targetUri ? { targetUri: input.targetUri } : {}),
    ...(session === undefined ? {} : { session }),
    ...(signal ? { signal } : {}),
  });
  return {
    context: result.text,
    tokens: result.tokens,
    cited: result.parts.map((part) => ({ uri: part.uri, type: part.type, layer: part.layer })),
    leftOut: result.leftOut.length,
  };
}

/** One node's text at one layer: L0 the abstract, L1 the overview, L2 the content (the default). */
export async function readAction(longship: ToolsLongship, input: ReadInput, limits: ToolLimits) {
  const layer = input.layer ?? 'L2';
  const uri = input.uri;
  const text =
    layer === 'L0'
      ? await longship.abstract(uri)
      : layer === 'L1'
        ? await longship.overview(uri)
        : await longship.read(uri);
  return { uri, layer, ...cut(text, limits.maxChars) };
}

/** A directory's children, each with its L0. */
export async function lsAction(longship: ToolsLongship, input: LsInput) {
  const children = await longship.ls(input.uri);
  const entries = children.slice(0, maxEntries).map((node) => ({
    uri: node.uri,
    kind: node.kind,
    abstract: clampText(node.abstract, abstractChars),
  }));
  return {
    uri: input.uri,
    entries,
    ...(children.length > maxEntries ? { more: children.length - maxEntries } : {}),
  };
}

/**
 * Writes a memory where session commits put theirs (docs/retrieval.md, "Sessions and memory"):
 * one URI per category and name, so the same name again adds to that memory, once.
 */
export async function addMemoryAction(longship: ToolsLongship, input: AddMemoryInput, signal?: AbortSignal) {
  const category = input.category ?? 'agent';
  const name = input.name ?? input.text.split(/\s+/).slice(0, 6).join(' ');
  const uri = memoryUri(category, name);
  const before = await existingText(longship, uri);
  if (before?.includes(input.text)) return { uri, written: false };
  const content = before ? `${before}\n\n${input.text}` : input.text;
  await longship.write(uri, content, {
    parents: true,
    // A memory is short: its text is its overview, and no summariser (an LLM one) is asked for it.
    overview: clampText(content, 1500),
    meta: { origin: 'tool', category, title: name },
    ...(signal ? { signal } : {}),
  });
  return { uri, written: true };
}

/** The memory already at `uri`, if any; a directory there is not a memory to add to. */
async function existingText(longship: ToolsLongship, uri: VikingUri): Promise<string | undefined> {
  const node = await longship.stat(uri).catch((error: unknown) => {
    if (error instanceof LongshipError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  });
  if (!node) return undefined;
  if (node.kind === 'dir') throw new LongshipError('IS_A_DIRECTORY', `add_memory: ${uri} is a directory`);
  return longship.read(uri);
}

function cut(text: string, maxChars: number): { text: string; truncated?: true } {
  if (text.length <= maxChars) return { text };
  return { text: clampText(text, maxChars), truncated: true };
}

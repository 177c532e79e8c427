// remember(): a memory written on purpose, where extraction writes memories of its kind
// (docs/guide/retrieval.md, "Remember"). It is written, or the call fails with a typed error: a place
// a directory holds moves it to the next free name, and the result says where it went.

import * as v from 'valibot';
import { parseUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import { memoryCategories, singleFileCategories } from '../llm/prompts.js';
import { checkOptions, signalSchema } from '../options.js';
import { memoryPlaces } from './extract.js';
import { type MemoryWriteDeps, writeMemory } from './memory-write.js';

export interface RememberOptions {
  /** Which memory kind: `profile`, `preferences`, …, or `agent` for the agent's own notes. */
  kind: (typeof memoryCategories)[number];
  /** Its name within the kind (default: its first six words); the same name adds to that memory. */
  name?: string;
  /**
   * What it came from: resource URIs (removing the resource removes the memory, or flags it when it
   * has other sources) or any other id, such as `session:<id>#<archive>`.
   */
  sources?: readonly string[];
  /** When it stops holding, in milliseconds since the epoch (`meta.expiresAt`). */
  expiresAt?: number;
  /** When what it tells happened, in milliseconds since the epoch (`meta.occurredAt`; events). */
  occurredAt?: number;
  signal?: AbortSignal;
}

/** @internal */
export const rememberOptionsSchema = v.strictObject({
  kind: v.picklist(memoryCategories, `must be one of ${memoryCategories.join(', ')}`),
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(120))),
  sources: v.optional(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2000)))),
  expiresAt: v.optional(v.pipe(v.number(), v.finite())),
  occurredAt: v.optional(v.pipe(v.number(), v.finite())),
  signal: v.optional(signalSchema),
});

/** The longest memory remember() writes: a memory is a few paragraphs, not a document. */
export const maxRememberChars = 20_000;

export interface Remembered {
  /** Where it was written. */
  uri: string;
  /** `new` node, `merged` into one of the same kind and name, or `held` already (nothing added). */
  outcome: 'new' | 'merged' | 'held';
  /** Its own place, when a directory there sent it to `uri` instead. */
  wanted?: string;
}

/**
 * Writes `content` as a memory of `options.kind`. INVALID_ARGUMENT for empty or overlong content,
 * an unknown kind or option; IS_A_DIRECTORY or NOT_A_DIRECTORY when no place of its kind can hold it.
 */
export async function remember(
  deps: MemoryWriteDeps,
  content: unknown,
  options: RememberOptions,
): Promise<Remembered> {
  const o = checkOptions(rememberOptionsSchema, options, 'remember()');
  const text = typeof content === 'string' ? content.trim() : '';
  if (text === '' || text.length > maxRememberChars) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `remember() takes a non-empty string of at most ${maxRememberChars} characters`,
    );
  }
  const name =
    o.name ?? (singleFileCategories.includes(o.kind) ? o.kind : text.split(/\s+/).slice(0, 6).join(' '));
  // A viking:// source is normalised as the tree writes URIs, so that removing it finds the memory.
  const sources = (o.sources ?? []).map((s) => (s.startsWith('viking://') ? parseUri(s) : s) as string);
  const written = await writeMemory(
    deps,
    {
      category: o.kind,
      name,
      content: text,
      places: memoryPlaces(deps.namespace, o.kind, name),
      sources,
      ...(o.expiresAt === undefined ? {} : { expiresAt: o.expiresAt }),
      ...(o.occurredAt === undefined ? {} : { occurredAt: o.occurredAt }),
      meta: { origin: 'remember' },
    },
    o.signal,
  );
  return {
    uri: written.uri,
    outcome: written.outcome,
    ...(written.wanted ? { wanted: written.wanted } : {}),
  };
}

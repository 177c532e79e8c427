// The options of export() and import(), and what they share: the parts a pack is read from and
// written to (docs/guide/ovpack.md).

import * as v from 'valibot';
import type { Embedder } from '../embed/embedder.js';
import { signalSchema, wholeNumber } from '../options.js';
import type { FullStore } from '../store/full-store.js';

/** What export and import work on: a Longship's store (its derived indexes' one) and embedder. */
export interface PackParts {
  store: FullStore;
  embedder: Embedder;
}

export interface ExportOptions {
  /** Carry each node's stored vectors and the embedder's identity (`dense.f32`). Default false. */
  includeVectors?: boolean;
  signal?: AbortSignal;
}

/** @internal */
export const exportOptionsSchema = v.strictObject({
  includeVectors: v.optional(v.boolean()),
  signal: v.optional(signalSchema),
});

/** OpenViking's `on_conflict`: what an import does when its root already exists. */
export type OnConflict = 'fail' | 'skip' | 'overwrite';
/** OpenViking's `vector_mode`: whether an import reuses the pack's vectors. */
export type VectorMode = 'auto' | 'recompute' | 'require';

export interface ImportOptions {
  /**
   * When the directory the pack becomes exists: `'fail'` (default, `ALREADY_EXISTS`), `'skip'`
   * (write nothing, resolve with `skipped: true`), `'overwrite'` (replace it and all below it).
   */
  onConflict?: OnConflict;
  /**
   * `'auto'` (default): reuse the pack's vectors when they come from this embedder (same id and
   * dimensions), else embed again; `'recompute'`: always embed; `'require'`: reuse them, or fail
   * (`EMBEDDER_MISMATCH` for another embedder, `INVALID_ARGUMENT` for a pack without them).
   */
  vectors?: VectorMode;
  /** Most bytes the pack may inflate to, in all; more is `INPUT_TOO_LARGE`. Default 1 GiB. */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** @internal */
export const importOptionsSchema = v.strictObject({
  onConflict: v.optional(v.picklist(['fail', 'skip', 'overwrite'])),
  vectors: v.optional(v.picklist(['auto', 'recompute', 'require'])),
  maxBytes: v.optional(wholeNumber(1)),
  signal: v.optional(signalSchema),
});

export interface ImportResult {
  /** The directory the pack became: the parent joined with the pack's root name. */
  uri: string;
  /** True when `onConflict: 'skip'` found it there and wrote nothing. */
  skipped: boolean;
  /** Nodes written (the directory and everything below it). */
  nodes: number;
  /** Whether the pack's vectors were reused or the nodes embedded again (none: skipped). */
  vectors: 'restored' | 'recomputed' | 'none';
}

/** What import() reads a pack from: its bytes, a Blob (a File), or a stream of bytes. */
export type PackInput = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array>;

/** The deflate ratio past which a pack is taken for a zip bomb; text deflates far less. */
export const MAX_RATIO = 200;
export const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024;

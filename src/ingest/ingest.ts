/**
 * Ingestion from input to committed store writes: read → plan (against what the store holds, so
 * unchanged nodes are skipped) → embed → commit the documents of each embedding call together, so
 * a crash or a cancellation leaves each document whole or absent, and a commit's fixed cost (an
 * IndexedDB transaction, a change record, an index catch-up) is paid once per call, not per
 * document. The queue (queue.ts) runs these one job at a time.
 *
 * This file is the Ingestor's interface; createIngestor (ingestor.ts) implements it, with a file per
 * job (add-resource.ts, skill/add-skill.ts, commit/refresh-parents.ts) and per step
 * (commit/commit-units.ts); the readers of each format are in parse/, the summaries in summary/.
 */
import * as v from 'valibot';
import type { Summarizer } from '../context/summarize.js';
import type { Embedder } from '../embed/embedder.js';
import type { LongshipError } from '../errors.js';
import { functionSchema, signalSchema, wholeNumber } from '../options.js';
import type { FullStore } from '../store/full-store.js';
import type { InputOptions, ResourceInput } from './input.js';
import type { SplitOptions } from './parse/split.js';
import type { SkillInput } from './skill/skill.js';

export interface IngestorParts {
  store: FullStore;
  /** Must be the embedder the store recorded (id and dimensions), else `EMBEDDER_MISMATCH`. */
  embedder: Embedder;
  /** Writes L0/L1; default the extractive summariser. */
  summarizer?: Summarizer;
  /** Most estimated tokens per embedded chunk: the model's window with headroom. Default 90 (USE-lite's 128). */
  chunkTokens?: number;
}

export type IngestPhase = 'read' | 'plan' | 'embed' | 'write';

/**
 * Where a job is. In the `read` phase, `done` of `total` files of a folder are read (PDFs take a
 * while); then `total` counts documents and `done` counts documents finished: committed, or found unchanged. `write` comes as a document's commit starts, then again
 * once it is finished with `done` counting it: from then on that document stays, whatever happens
 * to the job.
 */
export interface IngestProgress {
  phase: IngestPhase;
  done: number;
  total: number;
  uri?: string;
}

export interface AddResourceOptions extends Omit<InputOptions, 'signal'>, SplitOptions {
  /** The directory to add under; default `viking://resources`. Missing directories are created. */
  target?: string;
  /** Why it was added; kept as `meta.reason` on every node written. */
  reason?: string;
  /**
   * Default true: re-summarise and re-embed the directories from the target up to its root once
   * the job is done. The queue turns it off and does it once per busy spell instead
   * (`Ingestor.refreshParents`), so a hundred small adds do not re-embed the root a hundred times.
   */
  refreshParents?: boolean;
  /** Stops between steps; documents already committed stay (see {@link IngestProgress}). */
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

export interface AddSkillOptions {
  reason?: string;
  /** As for {@link AddResourceOptions.refreshParents}: `viking://agent/skills` and `viking://agent`. */
  refreshParents?: boolean;
  maxBytes?: number;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

/** Options of {@link Ingestor.removeSkill}. */
export type RemoveSkillOptions = Pick<AddSkillOptions, 'refreshParents' | 'signal' | 'onProgress'>;

const ingestEntries = {
  reason: v.optional(v.string()),
  refreshParents: v.optional(v.boolean()),
  maxBytes: v.optional(wholeNumber(1)),
  signal: v.optional(signalSchema),
  onProgress: v.optional(functionSchema),
};

/** {@link AddResourceOptions}, key by key. @internal */
export const addResourceOptionsSchema = v.strictObject({
  ...ingestEntries,
  target: v.optional(v.string()),
  name: v.optional(v.string()),
  fetch: v.optional(functionSchema),
  maxTokens: v.optional(wholeNumber(1)),
  mergeBelow: v.optional(wholeNumber(0)),
  maxPages: v.optional(wholeNumber(1)),
});

/** {@link AddSkillOptions}, key by key. @internal */
export const addSkillOptionsSchema = v.strictObject(ingestEntries);

/** What one job wrote. Counts are of planned nodes; the directories above the target are kept up to date but not counted. */
export interface IngestResult {
  /** Each document's node (a file, or the directory it was split into), in input order; or the skill's. */
  uris: string[];
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  /**
   * Folder entries left out, each with its typed error: binary, too large, encrypted, corrupt, or
   * a PDF with no text at all (docs/guide/documents.md).
   */
  skipped: { path: string; error: LongshipError }[];
  /** Documents added with pages that have no text (scanned images), when there are any. */
  scannedPages?: { path: string; pages: number[] }[];
}

export interface Ingestor {
  /**
   * Reads, plans, embeds and commits `input` under `options.target`, each document whole or not at all.
   * Adding the same input again writes only what changed, and nothing when nothing did; what the
   * store holds below each document's node (or below a named folder's directory) and the input no
   * longer has is deleted. Throws what readInput throws, `ABORTED`, `EMBEDDER_MISMATCH`, and the
   * store's errors (`QUOTA_EXCEEDED`…) for the document being written; earlier documents stay.
   */
  addResource(input: ResourceInput, options?: AddResourceOptions): Promise<IngestResult>;
  /**
   * Adds a skill, or replaces the one of the same name: fields make one file at
   * `viking://agent/skills/<slug of its name>`; a `SKILL.md` or a skill folder a directory
   * `viking://agent/skills/<name>` (docs/guide/skills.md). An invalid skill is `INVALID_ARGUMENT` naming
   * the field, and nothing is written.
   */
  addSkill(skill: SkillInput, options?: AddSkillOptions): Promise<IngestResult>;
  /** Removes the skill called `name` with its files (`removed` counts the nodes); `NOT_FOUND` if none. */
  removeSkill(name: string, options?: RemoveSkillOptions): Promise<IngestResult>;
  /**
   * Brings the summaries and vectors of `uri` and the directories above it up to date with their
   * children; writes nothing where they already are.
   */
  refreshParents(uri: string, options?: { signal?: AbortSignal }): Promise<void>;
}

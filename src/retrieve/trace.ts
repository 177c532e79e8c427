// The retrieval trajectory: every step of a find(), as plain data (structured-clonable, JSON-safe),
// so a person or the demo can see why a result appeared. Scores are rounded to 4 decimals.
import type { FusionMethod } from './score/fusion.js';

/** Why the walk stopped. `flat` for QUICK mode, `empty` when there was nothing to search. */
export type StopReason = 'flat' | 'empty' | 'queue-empty' | 'converged' | 'pool-stalled' | 'max-directories';

/** Why a scored node was or was not kept as a candidate. */
export type Verdict = 'kept' | 'below-threshold' | 'filtered' | 'better-elsewhere';

/** One node scored: its raw sides, the fused score, and (in the walk) the propagated one. */
export interface TraceScore {
  uri: string;
  kind: 'dir' | 'file';
  /** Similarity (1 − cosine distance) of its best chunk; null without a vector or with vectors off. */
  vector: number | null;
  /** BM25; 0 when no query term matches. */
  lexical: number;
  /** The normalised blend of both, in [0, 1]. */
  fused: number;
  /** `α · fused + (1 − α) · parent`; equal to `fused` outside the walk. */
  propagated: number;
  verdict: Verdict;
  /** Directories only: pushed onto the queue. */
  queued?: boolean;
}

export interface TraceSeed {
  uri: string;
  score: number;
  /** A root, a hit of the global directory search, or the parent of a global leaf hit. */
  from: 'root' | 'directory' | 'leaf';
}

/** One directory popped from the queue and its children scored. */
export interface TraceStep {
  round: number;
  uri: string;
  /** The directory's own (propagated) score, passed to its children. */
  score: number;
  /** Its priority in the queue (its score, or a leaf hit's below it). */
  priority: number;
  children: TraceScore[];
}

export interface FindTrace {
  mode: 'quick' | 'thinking';
  query: string;
  roots: string[];
  fusion: {
    method: FusionMethod;
    /** The BM25 weight used (higher than the setting when the query names an identifier). */
    lexicalWeight: number;
    /** The normalisation references of files and of directories (the same unless by kind). */
    file: FusionReferenceTrace;
    dir: FusionReferenceTrace;
  };
  /** The settings the call ran with, defaults filled in. */
  settings: Record<string, number | string | boolean>;
  seeds: TraceSeed[];
  /** THINKING: each directory popped, in order. */
  steps: TraceStep[];
  /** QUICK: every candidate scored. */
  scored: TraceScore[];
  stop: { reason: StopReason; rounds: number; directoriesVisited: number; candidates: number };
  /** Memories left out because they had expired (docs/guide/memory-lifecycle.md, "Expiry"). */
  expired: number;
  /**
   * The returned results with their final scores (after the hotness blend); `decay`: an event
   * memory's time decay, already in its score.
   */
  results: { uri: string; score: number; hotness?: number; decay?: number }[];
  elapsedMs: number;
}

/**
 * `lexical`: [0, best BM25] (minmax) or [mean, deviation] (zscore); `vector`: [lowest, best]
 * reference similarity (minmax) or [mean, deviation] (zscore); RRF uses ranks, these are informative.
 */
export interface FusionReferenceTrace {
  lexical: [number, number];
  vector: [number, number];
}

/** Rounds for the trace: 4 decimals are enough to read, and keep the trace small. */
export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

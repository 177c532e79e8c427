// What QUICK and THINKING searches share: the sources, the scope, the query's scorer, the settings
// and, when asked for, the trace being written.

import type { Candidate } from '../results.js';
import type { Scope } from '../scope.js';
import type { QueryScorer, ScoredNode } from '../score/query-scorer.js';
import type { Settings } from '../settings.js';
import type { RetrievalSources } from '../sources.js';
import {
  round4,
  type StopReason,
  type TraceScore,
  type TraceSeed,
  type TraceStep,
  type Verdict,
} from '../trace.js';

/** The parts of the trace a search fills in. */
export interface TraceLog {
  seeds: TraceSeed[];
  steps: TraceStep[];
  scored: TraceScore[];
}

export interface SearchContext {
  sources: RetrievalSources;
  scope: Scope;
  scorer: QueryScorer;
  settings: Settings;
  trace: TraceLog | undefined;
  signal: AbortSignal | undefined;
}

export interface SearchOutcome {
  candidates: Candidate[];
  stop: { reason: StopReason; rounds: number; directoriesVisited: number };
}

export function traceScore(scored: ScoredNode, propagated: number, verdict: Verdict): TraceScore {
  return {
    uri: scored.node.uri,
    kind: scored.node.kind,
    vector: scored.raw.vector === undefined ? null : round4(scored.raw.vector),
    lexical: round4(scored.raw.lexical),
    fused: round4(scored.fused),
    propagated: round4(propagated),
    verdict,
  };
}

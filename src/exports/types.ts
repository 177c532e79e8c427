// `longship/types`: every other type of the public API's options and results, beyond the everyday
// ones of the root: the tree's, ingestion's, retrieval's (its trace included), the context's and the
// sessions'. Types only: this entry has no code.

export type { ContextDigest, DigestOptions } from '../assemble/digest.js';
export type { ContextPart, LeftOut, LeftOutReason } from '../assemble/pack.js';
export type { Layer } from '../assemble/render.js';
export type {
  DroppedEntry,
  DroppedFiles,
  WebDataTransfer,
  WebDataTransferItem,
} from '../client/files-from-drop.js';
export type {
  ContextTree,
  GlobOptions,
  GrepMatch,
  GrepOptions,
  MkdirOptions,
  NodeInfo,
  NodePage,
  PageOptions,
  Relation,
  RmOptions,
  TreeNode,
  TreeOptions,
  TreePageOptions,
  WriteOptions,
} from '../context/tree.js';
export type { AddOptions } from '../engine.js';
export type { BrowserFiles } from '../ingest/browser-files.js';
export type {
  AddResourceOptions,
  AddSkillOptions,
  IngestPhase,
  IngestProgress,
  IngestResult,
} from '../ingest/ingest.js';
export type { FolderEntry, LocalPath, ResourceInput } from '../ingest/input.js';
export type { JobOutcome, QueueProgress, QueueSummary } from '../ingest/queue.js';
export type { SkillInput } from '../ingest/skill/skill.js';
export type { SkillInfo, SkillSummary } from '../ingest/skill/skill-reads.js';
export type { ConsolidateOptions, Consolidation, MemoryMerge } from '../memory/consolidate.js';
export type { SweepResult } from '../memory/expiry.js';
export type { EventDecayOptions, MemoryKind, MemoryOptions } from '../memory/memory-options.js';
export type {
  ExportOptions,
  ImportOptions,
  ImportResult,
  OnConflict,
  PackInput,
  VectorMode,
} from '../ovpack/pack-options.js';
export type { ConversationContext, IntentOptions, QueryPlan, TypedQuery } from '../retrieve/intent.js';
export type { RerankOptions, RerankReport } from '../retrieve/rerank.js';
export type { PageRange, RelatedContext } from '../retrieve/results.js';
export type { FindFilter } from '../retrieve/scope.js';
export type { FusionMethod } from '../retrieve/score/fusion.js';
export type { QueryResult } from '../retrieve/search.js';
export type {
  Calibration,
  FindMode,
  HotnessOptions,
  HybridOptions,
  SearchType,
  WalkOptions,
} from '../retrieve/settings.js';
export type {
  FindTrace,
  FusionReferenceTrace,
  StopReason,
  TraceScore,
  TraceSeed,
  TraceStep,
  Verdict,
} from '../retrieve/trace.js';
export type { ExtractionState } from '../session/archive.js';
export type { MessagePart, MessageRole } from '../session/message.js';
export type { Remembered, RememberOptions } from '../session/remember.js';
export type {
  AutoCommitPolicy,
  CommitJob,
  CommitOptions,
  CommitOutcome,
  CommitProgress,
  CommitResult,
  DeletedSession,
  ExtractionReport,
  MessageOptions,
  RedirectedMemory,
  SessionInfo,
} from '../session/session.js';
export type { WebFileList, WebFileSystemHandle } from '../web-types.js';

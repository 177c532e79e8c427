// The package's root, `longship`: what an application uses. Open or create a Longship, choose its
// store, embedder and LLM, and the types of their options and results. The rest is in subpaths
// (src/exports/, docs/guide/package.md); test/exports.test.ts pins every entry's names.

export type { AssembledContext, ContextOptions } from './assemble/context-options.js';
export type { ContextDigest, DigestOptions } from './assemble/digest.js';
export type { ContextPart, LeftOut, LeftOutReason } from './assemble/pack.js';
export type { Layer } from './assemble/render.js';
export type { Tokenizer } from './assemble/tokenizer.js';
export type { Summarizer, Summary, SummaryInput } from './context/summarize.js';
export type {
  ContextTree,
  GrepMatch,
  GrepOptions,
  MkdirOptions,
  NodeInfo,
  Relation,
  TreeNode,
  WriteOptions,
} from './context/tree.js';
export type { VikingUri } from './context/uri.js';
export { bundledModel, type ModelFile, type ModelFiles } from './embed/bundled-model.js';
export type { Embedder, EmbedOptions, EmbedProgress } from './embed/embedder.js';
export { type FunctionEmbedderOptions, functionEmbedder } from './embed/function-embedder.js';
export type { OrtWasmFiles } from './embed/ort-files.js';
export { RemoteEmbedder, type RemoteEmbedderOptions } from './embed/remote-embedder.js';
export {
  type ModelFolder,
  TransformersEmbedder,
  type TransformersEmbedderOptions,
} from './embed/transformers-embedder.js';
export { type AddOptions, type Longship, type LongshipOptions, openLongship } from './engine.js';
export { type ErrorCode, LongshipError } from './errors.js';
// The page's client is part of the root: an application may be a page.
export * from './exports/client.js';
export { type LlmSummarizerOptions, llmSummarizer } from './ingest/llm-summarizer.js';
export type { SkillFields, SkillFolder, SkillInput } from './ingest/skill.js';
export { parseSkillMd, type SkillMd } from './ingest/skill-md.js';
export type { SkillInfo, SkillSummary } from './ingest/skill-reads.js';
export type {
  ChatMessage,
  CompleteOptions,
  Completion,
  LLM,
  Reranker,
  RerankScores,
  TokenUsage,
} from './llm/llm.js';
export { llmReranker } from './llm/llm-reranker.js';
export { OpenAiCompatibleLlm, type OpenAiCompatibleLlmOptions } from './llm/openai-compatible.js';
export { RemoteReranker, type RemoteRerankerOptions } from './llm/remote-reranker.js';
export type { CallOptions, EndpointOptions } from './remote/json-endpoint.js';
export type { ConversationContext, IntentOptions, QueryPlan, TypedQuery } from './retrieve/intent.js';
export type { RerankOptions, RerankReport } from './retrieve/rerank.js';
export type { MatchedContext, RelatedContext } from './retrieve/results.js';
export type { FindResult } from './retrieve/retriever.js';
export type { FindFilter } from './retrieve/scope.js';
export type { ContextSearchOptions, QueryResult, SearchResult } from './retrieve/search.js';
export {
  type FindMode,
  type FindOptions,
  findDefaults,
  type HotnessOptions,
  type HybridOptions,
  type WalkOptions,
} from './retrieve/settings.js';
export type { FindTrace, StopReason, TraceScore, TraceSeed, TraceStep, Verdict } from './retrieve/trace.js';
export type { Message, MessagePart, MessageRole } from './session/message.js';
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
  Session,
  SessionInfo,
  SessionOptions,
} from './session/session.js';
export type {
  ChangeLog,
  Snapshot,
  SnapshotBytes,
  SnapshotInput,
  SnapshotRanges,
  SnapshotSink,
} from './store/change-log.js';
export { type FileStoreOptions, openFileStore } from './store/file/file-open.js';
export type { FileStore } from './store/file/file-store.js';
export type { FullStore } from './store/full-store.js';
export { type IdbStoreOptions, openIdbStore } from './store/idb/open-idb-store.js';
export { openMemoryStore } from './store/memory/memory-store.js';
export type {
  ChangeRecord,
  CommittedChange,
  ContextType,
  EmbedderInfo,
  EmbedderMismatch,
  NodeKind,
  NodeRecord,
  NodeRef,
  NodeUse,
  OpenStoreOptions,
  PostingRecord,
  RecordTables,
  RelationKey,
  RelationRecord,
  Store,
  StoreKeys,
  StoreLookups,
  StoreMeta,
  StoreOperations,
  StoreStats,
  StoreTables,
  StoreWrites,
  SummaryKind,
  VectorRecord,
  VerifyReport,
  WriteBatch,
} from './store/store.js';
export type { UsearchModule, WasmSource } from './vector/usearch-module.js';

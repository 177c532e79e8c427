// The public API of Longship: exactly what this file re-exports (test/exports.test.ts pins it).

export { type CreateLongshipOptions, createLongship } from './client/create-longship.js';
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
export {
  basename,
  contextTypeOf,
  isVikingUri,
  isWithin,
  join,
  parentOf,
  parseUri,
  relativeTo,
  roots,
  segments,
  type VikingUri,
} from './context/uri.js';
export type { DerivedIndexes, OpenedFrom } from './derived/derived-indexes.js';
export { bundledModel, type ModelFile, type ModelFiles } from './embed/bundled-model.js';
export { type ChunkOptions, chunkText, estimateTokens } from './embed/chunk.js';
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
export { type LlmSummarizerOptions, llmSummarizer } from './ingest/llm-summarizer.js';
export type { Summarizer, Summary, SummaryInput } from './ingest/summarize.js';
export { createLexicalIndex, loadLexicalIndex } from './lexical/bm25-index.js';
export type { LexicalDoc, LexicalHit, LexicalIndex, LexicalIndexOptions } from './lexical/lexical-index.js';
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
export { type IdbStoreOptions, openIdbStore } from './open-idb-store.js';
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
export type { CommitOptions, CommitResult, ExtractionReport, Session } from './session/session.js';
export { type FileStoreOptions, openFileStore } from './store/file-open.js';
export type { FileStore } from './store/file-store.js';
export { openMemoryStore } from './store/memory-store.js';
export type {
  ContextType,
  NodeRecord,
  Store,
  VectorRecord,
  VerifyReport,
  WriteBatch,
} from './store/store.js';
export { allocateIndexBytes, createVectorIndex, distance, loadVectorIndex } from './vector/usearch-index.js';
export { loadUsearch, type UsearchModule, type WasmSource } from './vector/usearch-module.js';
export type {
  IndexBytes,
  Metric,
  OpenOptions,
  Quantization,
  SearchHit,
  SearchOptions,
  VectorIndex,
  VectorIndexOptions,
} from './vector/vector-index.js';
export {
  type ConnectOptions,
  connectLongship,
  type Remote,
  type RemoteJob,
  type RemoteLongship,
  type RemoteResult,
  transfer,
} from './worker/connect.js';
export {
  createLongshipHost,
  type ExposeLongshipOptions,
  exposeLongship,
  type LongshipHost,
} from './worker/expose.js';
export type { WorkerOptions } from './worker/protocol.js';

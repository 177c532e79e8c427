// The package's root, `longship`: what an application uses. Open a Longship, choose its store,
// embedder and LLM, the options and results it touches, and the error. At most 45 names, values and
// types together; the rest is in subpaths (src/exports/, docs/guide/package.md): `longship/store` for
// writing a store, `longship/extend` for writing an embedder, an LLM or a summarizer, `longship/types`
// for every other type of the API. test/exports.test.ts pins every entry's names.

export type { AssembledContext, ContextOptions } from './assemble/context-options.js';
export type { Summarizer } from './context/summarize.js';
export type { Embedder } from './embed/embedder.js';
export { functionEmbedder } from './embed/function-embedder.js';
export { remoteEmbedder } from './embed/remote-embedder.js';
export { type TransformersEmbedderOptions, transformersEmbedder } from './embed/transformers-embedder.js';
export { type Longship, type LongshipOptions, openLongship } from './engine.js';
export { type ErrorCode, LongshipError } from './errors.js';
// The page's client is part of the root: an application may be a page.
export * from './exports/client.js';
export type { QueuedJob } from './ingest/queue.js';
export { llmSummarizer } from './ingest/summary/llm-summarizer.js';
export type { LLM, Reranker } from './llm/llm.js';
export { llmReranker } from './llm/llm-reranker.js';
export { type OpenAiCompatibleLlmOptions, openAiCompatibleLlm } from './llm/openai-compatible.js';
export { remoteReranker } from './llm/remote-reranker.js';
export type { MatchedContext } from './retrieve/results.js';
export type { FindResult } from './retrieve/retriever.js';
export type { ContextSearchOptions, SearchResult } from './retrieve/search.js';
export type { FindOptions } from './retrieve/settings.js';
export type { Message } from './session/message.js';
export type { Session, SessionOptions } from './session/session.js';
export { openFileStore } from './store/file/file-open.js';
export { openIdbStore } from './store/idb/open-idb-store.js';
export { openMemoryStore } from './store/memory/memory-store.js';
export type { Store } from './store/store.js';

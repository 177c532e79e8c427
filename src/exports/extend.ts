// `longship/extend`: for writing an embedder, an LLM, a reranker or a summarizer of your own, and for
// tuning what the package ships (docs/guide/package.md): the interfaces' call types, the bundled
// model's files, the WASM modules' sources, skill parsing and retrieval's defaults.

export type { UsearchExports } from '../../wasm/dist/usearch.js';
export type { Tokenizer } from '../assemble/tokenizer.js';
export type { Format, Summarizer, Summary, SummaryInput } from '../context/summarize.js';
export { bundledModel, type ModelFile, type ModelFiles } from '../embed/bundled-model.js';
export type { Embedder, EmbedOptions, EmbedProgress } from '../embed/embedder.js';
export type { FunctionEmbedderOptions } from '../embed/function-embedder.js';
export type { OrtWasmFiles } from '../embed/ort-files.js';
export type { RemoteEmbedderOptions } from '../embed/remote-embedder.js';
export type { ModelFolder } from '../embed/transformers-embedder.js';
export type { SkillFields, SkillFolder } from '../ingest/skill/skill.js';
export { parseSkillMd, type SkillMd } from '../ingest/skill/skill-md.js';
export type { LlmSummarizerOptions } from '../ingest/summary/llm-summarizer.js';
export type {
  ChatMessage,
  CompleteOptions,
  Completion,
  LLM,
  Reranker,
  RerankScores,
  TokenUsage,
} from '../llm/llm.js';
export type { RemoteRerankerOptions } from '../llm/remote-reranker.js';
export type { CallOptions, EndpointOptions } from '../remote/json-endpoint.js';
export { findDefaults } from '../retrieve/settings.js';
export type { UsearchModule, WasmSource } from '../vector/usearch-module.js';
export type { WasmModule } from '../web-types.js';

// The package's entry points and the names each exports (docs/guide/package.md). A change here is an
// API change: make it on purpose, in this list and in the entry file.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, expect, it } from 'vitest';

/** Each entry point: its subpath in package.json `exports`, its source file, its exported values and types. */
const entries: Record<string, { source: string; values: string[]; types: string[] }> = {
  '.': {
    source: 'src/index.ts',
    values: [
      'LongshipError',
      'connectLongship',
      'filesFromDrop',
      'functionEmbedder',
      'llmReranker',
      'llmSummarizer',
      'openAiCompatibleLlm',
      'openFileStore',
      'openIdbStore',
      'openLongship',
      'openLongshipInWorker',
      'openMemoryStore',
      'remoteEmbedder',
      'remoteReranker',
      'transfer',
      'transformersEmbedder',
    ],
    types: [
      'AssembledContext',
      'ConnectOptions',
      'ContextOptions',
      'ContextSearchOptions',
      'Embedder',
      'ErrorCode',
      'FindOptions',
      'FindResult',
      'LLM',
      'Longship',
      'LongshipOptions',
      'MatchedContext',
      'Message',
      'MessageEndpoint',
      'OpenAiCompatibleLlmOptions',
      'OpenLongshipInWorkerOptions',
      'QueuedJob',
      'RemoteJob',
      'RemoteLongship',
      'RemoteResult',
      'RemoteSession',
      'Reranker',
      'SearchResult',
      'Session',
      'SessionOptions',
      'Store',
      'Summarizer',
      'TransformersEmbedderOptions',
      'WorkerOptions',
    ],
  },
  './client': {
    source: 'src/exports/client.ts',
    values: ['connectLongship', 'filesFromDrop', 'openLongshipInWorker', 'transfer'],
    types: [
      'ConnectOptions',
      'MessageEndpoint',
      'OpenLongshipInWorkerOptions',
      'RemoteJob',
      'RemoteLongship',
      'RemoteResult',
      'RemoteSession',
      'WorkerOptions',
    ],
  },
  './extension': {
    source: 'src/exports/extension.ts',
    values: ['connectLongshipFromPage', 'shareLongshipWithServiceWorker'],
    types: ['ClientsLike', 'ConnectLongshipFromPageOptions', 'ServiceWorkerContainerLike', 'SharedLongship'],
  },
  './worker': {
    source: 'src/exports/worker.ts',
    values: ['createLongshipHost', 'exposeLongship', 'workerLlm'],
    types: ['ExposeLongshipOptions', 'LongshipHost', 'WorkerLlmOptions', 'WorkerOptions'],
  },
  './vector': {
    source: 'src/exports/vector.ts',
    values: ['allocateIndexBytes', 'createVectorIndex', 'distance', 'loadUsearch', 'loadVectorIndex'],
    types: [
      'IndexBytes',
      'Metric',
      'OpenOptions',
      'Quantization',
      'SearchHit',
      'SearchOptions',
      'UsearchModule',
      'VectorIndex',
      'VectorIndexFactory',
      'VectorIndexOptions',
      'WasmModule',
      'WasmSource',
    ],
  },
  './lexical': {
    source: 'src/exports/lexical.ts',
    values: ['createLexicalIndex', 'loadLexicalIndex'],
    types: [
      'CorpusStatistics',
      'LexicalDoc',
      'LexicalField',
      'LexicalHit',
      'LexicalIndex',
      'LexicalIndexOptions',
      'LexicalLoadOptions',
      'LexicalSearchOptions',
      'UnreadPostingsSource',
    ],
  },
  './uri': {
    source: 'src/exports/uri.ts',
    values: [
      'basename',
      'contextTypeOf',
      'defaultNamespace',
      'expandHome',
      'isContainer',
      'isVikingUri',
      'isWithin',
      'join',
      'namespaceRoots',
      'parentOf',
      'parseUri',
      'relativeTo',
      'roots',
      'segments',
    ],
    types: ['ContextType', 'Namespace', 'VikingUri'],
  },
  './testing': {
    source: 'src/exports/testing.ts',
    values: ['changeLogContract', 'storeContract'],
    types: ['ChangeLog', 'ChangeLogHarness', 'OpenStoreOptions', 'SnapshotTamper', 'Store', 'StoreHarness'],
  },
  './ai': {
    source: 'src/exports/ai.ts',
    values: ['longshipToolNames', 'longshipTools'],
    types: [
      'AddMemoryOutput',
      'AddResourceOutput',
      'BrowsePage',
      'ContextOutput',
      'DefaultToolName',
      'LongshipToolName',
      'LongshipToolSet',
      'LongshipToolsOptions',
      'LsOutput',
      'NodeBrief',
      'OpenVikingHits',
      'OpenVikingMatch',
      'OpenVikingTypedQuery',
      'ReadOutput',
      'SearchHits',
      'SessionCommitOutput',
      'SessionMessageOutput',
      'ToolSession',
      'ToolsLongship',
      'TreeBrief',
      'TreeOutput',
    ],
  },
  './mcp': {
    source: 'src/exports/mcp.ts',
    values: ['createMcpFetchHandler', 'createMcpServer', 'serveMcpStdio'],
    types: ['McpHttpOptions', 'McpServerOptions', 'McpStdio', 'McpStdioOptions'],
  },
  './store': {
    source: 'src/exports/store.ts',
    values: [],
    types: [
      'ChangeLog',
      'ChangeRecord',
      'CommittedChange',
      'ContextType',
      'EmbedderInfo',
      'EmbedderMismatch',
      'FileStore',
      'FileStoreOptions',
      'FullStore',
      'IdbStoreOptions',
      'MemoryStoreOptions',
      'NodeKind',
      'NodeRecord',
      'NodeRef',
      'NodeUse',
      'OpenStoreOptions',
      'PostingRecord',
      'RecordTables',
      'RelationKey',
      'RelationRecord',
      'Snapshot',
      'SnapshotBytes',
      'SnapshotInput',
      'SnapshotRanges',
      'SnapshotSink',
      'Store',
      'StoreKeys',
      'StoreLookups',
      'StoreMeta',
      'StoreOperations',
      'StoreStats',
      'StoreTables',
      'StoreWrites',
      'SummaryKind',
      'VectorRecord',
      'VerifyReport',
      'WriteBatch',
    ],
  },
  './cloudflare': {
    source: 'src/exports/cloudflare.ts',
    values: ['openDurableObjectStore'],
    types: ['DurableObjectSqlStorage', 'DurableObjectStore', 'SqlCursor', 'SqlStorage', 'SqlValue'],
  },
  './deno-kv': {
    source: 'src/exports/deno-kv.ts',
    values: ['openDenoKvStore'],
    types: [
      'DenoKv',
      'DenoKvStoreOptions',
      'KvAtomicOperation',
      'KvEntry',
      'KvEntryMaybe',
      'KvKey',
      'KvKeyPart',
    ],
  },
  './shard': {
    source: 'src/exports/shard.ts',
    values: ['corpusShard', 'openShardedCorpus'],
    types: [
      'CandidatesQuery',
      'ChunkHit',
      'CorpusShard',
      'MissingShard',
      'PlaceStatistics',
      'RawScores',
      'ShardCandidates',
      'ShardFindOptions',
      'ShardNode',
      'ShardQuery',
      'ShardStatistics',
      'ShardedContext',
      'ShardedCorpus',
      'ShardedCorpusOptions',
      'ShardedFindResult',
    ],
  },
  './extend': {
    source: 'src/exports/extend.ts',
    values: ['bundledModel', 'findDefaults', 'parseSkillMd'],
    types: [
      'CallOptions',
      'ChatMessage',
      'CompleteOptions',
      'Completion',
      'EmbedOptions',
      'EmbedProgress',
      'Embedder',
      'EndpointOptions',
      'Format',
      'FunctionEmbedderOptions',
      'LLM',
      'LlmSummarizerOptions',
      'ModelFile',
      'ModelFiles',
      'ModelFolder',
      'OrtWasmFiles',
      'RemoteEmbedderOptions',
      'RemoteRerankerOptions',
      'RerankScores',
      'Reranker',
      'SkillFields',
      'SkillFolder',
      'SkillMd',
      'Summarizer',
      'Summary',
      'SummaryInput',
      'TokenUsage',
      'Tokenizer',
      'UsearchExports',
      'UsearchModule',
      'WasmModule',
      'WasmSource',
    ],
  },
  './types': {
    source: 'src/exports/types.ts',
    values: [],
    types: [
      'AddOptions',
      'AddResourceOptions',
      'AddSkillOptions',
      'AutoCommitPolicy',
      'BrowserFiles',
      'Calibration',
      'CommitJob',
      'CommitOptions',
      'CommitOutcome',
      'CommitProgress',
      'CommitResult',
      'ConsolidateOptions',
      'Consolidation',
      'ContextDigest',
      'ContextPart',
      'ContextTree',
      'ConversationContext',
      'DeletedSession',
      'DigestOptions',
      'DroppedEntry',
      'DroppedFiles',
      'EventDecayOptions',
      'ExportOptions',
      'ExtractionReport',
      'ExtractionState',
      'FindFilter',
      'FindMode',
      'FindTrace',
      'FolderEntry',
      'FusionMethod',
      'FusionReferenceTrace',
      'GlobOptions',
      'GrepMatch',
      'GrepOptions',
      'HotnessOptions',
      'HybridOptions',
      'ImportOptions',
      'ImportResult',
      'IngestPhase',
      'IngestProgress',
      'IngestResult',
      'IntentOptions',
      'JobOutcome',
      'Layer',
      'LeftOut',
      'LeftOutReason',
      'LocalPath',
      'MemoryKind',
      'MemoryMerge',
      'MemoryOptions',
      'MessageOptions',
      'MessagePart',
      'MessageRole',
      'MkdirOptions',
      'NodeInfo',
      'NodePage',
      'OnConflict',
      'PackInput',
      'PageOptions',
      'PageRange',
      'QueryPlan',
      'QueryResult',
      'QueueProgress',
      'QueueSummary',
      'RedirectedMemory',
      'RelatedContext',
      'Relation',
      'RememberOptions',
      'Remembered',
      'RerankOptions',
      'RerankReport',
      'ResourceInput',
      'RmOptions',
      'SearchType',
      'SessionInfo',
      'SkillInfo',
      'SkillInput',
      'SkillSummary',
      'StopReason',
      'SweepResult',
      'TraceScore',
      'TraceSeed',
      'TraceStep',
      'TreeNode',
      'TreeOptions',
      'TreePageOptions',
      'TypedQuery',
      'VectorMode',
      'Verdict',
      'WalkOptions',
      'WebDataTransfer',
      'WebDataTransferItem',
      'WebFileList',
      'WebFileSystemHandle',
      'WriteOptions',
    ],
  },
};

const repo = new URL('../', import.meta.url);

/** The root is for applications: at most this many names, values and types together (issue 34). */
const rootBudget = 45;

it.each(Object.entries(entries))('%s exports exactly its values', async (_, { source, values }) => {
  const module = await import(new URL(source, repo).href);
  expect(Object.keys(module).sort()).toEqual(values);
});

/** Every name each entry file exports, values and types, as the TypeScript compiler sees them. */
let exported: Map<string, string[]>;
beforeAll(() => {
  const files = Object.values(entries).map(({ source }) => fileURLToPath(new URL(source, repo)));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  exported = new Map(
    Object.values(entries).map(({ source }) => {
      const file = program.getSourceFile(fileURLToPath(new URL(source, repo)));
      const module = file && checker.getSymbolAtLocation(file);
      if (!module) throw new Error(`no module for ${source}`);
      return [source, checker.getExportsOfModule(module).map((symbol) => symbol.name)];
    }),
  );
}, 60_000);

it.each(Object.entries(entries))('%s exports exactly its types', (_, { source, values, types }) => {
  const names = exported.get(source)!;
  expect(names.filter((name) => !values.includes(name)).sort()).toEqual(types);
});

it(`keeps the root to ${rootBudget} names, values and types together`, () => {
  const { source, values, types } = entries['.']!;
  expect(exported.get(source)!.length).toBe(values.length + types.length);
  expect(values.length + types.length).toBeLessThanOrEqual(rootBudget);
});

it('names in package.json every entry point, each built from its source file', async () => {
  const manifest = JSON.parse(await readFile(new URL('package.json', repo), 'utf8'));
  const code = Object.entries(manifest.exports as Record<string, string | { types: string; default: string }>)
    .filter(([, target]) => typeof target === 'object')
    .map(([subpath, target]) => [subpath, target]);
  expect(Object.fromEntries(code)).toEqual(
    Object.fromEntries(
      Object.entries(entries).map(([subpath, { source }]) => {
        const built = source.replace(/^src\//, './dist/').replace(/\.ts$/, '');
        return [subpath, { types: `${built}.d.ts`, default: `${built}.js` }];
      }),
    ),
  );
  // The worker script openLongshipInWorker() starts, as a file (the host is `./worker`).
  expect(manifest.exports['./worker-script.js']).toBe('./dist/worker/entry.js');
  expect(manifest.types).toBe(manifest.exports['.'].types);
});

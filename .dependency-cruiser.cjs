// The import rules of src/, checked by `npm run lint` (docs/internals/layers.md says why each layer sits where
// it does). Each layer imports only itself and the layers this table lets it; everything else in
// src/ is forbidden, so a new folder belongs nowhere until it is added here.

/**
 * Files every layer may import: `*.ts` is any file directly in src/ but engine.ts and index.ts
 * (errors, option checks, abort signals and deadlines, web platform types).
 */
const shared = ['*.ts'];
/** Under the bottom layer: the runtime (env/) and the HTTP plumbing of remote models (remote/). */
const base = ['env/', 'remote/', ...shared];
/** Independent of each other: an index, a model, or the store. */
const bottom = ['vector/', 'lexical/', 'embed/', 'llm/', 'store/'];
const belowMiddle = ['derived/', ...bottom, ...base];
/** What the agent tools stand on, and the surfaces over them (MCP, the AI SDK) too: a Longship's parts. */
const overEngine = [
  'engine.ts',
  'ovpack/',
  'assemble/',
  'session/',
  'retrieve/',
  'ingest/',
  'context/',
  ...belowMiddle,
];

/**
 * A layer: its modules (paths under src/) and the paths it may import besides its own. A folder is a
 * prefix, so its folders are in its layer too (`ingest/` covers `ingest/parse/`).
 */
const layers = {
  // The `longship` command (package.json `bin`): a Node program at the very top, over the engine
  // and the MCP server, as an app is. Nothing imports it.
  cli: {
    path: ['cli/'],
    imports: [
      'engine.ts',
      'mcp/',
      'tools/',
      'ovpack/',
      'session/',
      'retrieve/',
      'ingest/',
      'context/',
      ...belowMiddle,
    ],
  },
  // The AI SDK's tools (longship/ai): over a Longship, beside the client and the worker.
  ai: {
    path: ['ai/'],
    imports: ['tools/', ...overEngine],
  },
  // The page's side (and its entry, longship/client): the worker's proxy and nothing under it, so
  // a page never loads the engine.
  client: { path: ['client/', 'exports/client.ts'], imports: ['worker/', ...shared] },
  // The MCP server (longship/mcp): a transport of the engine's API, as the worker is the page's.
  mcp: {
    path: ['mcp/'],
    imports: ['tools/', ...overEngine],
  },
  // The agent tools, defined once (docs/guide/mcp.md, "Tools"): what MCP, the AI SDK and the CLI offer.
  // Over a Longship (its type only; sessions through its API, memories where commits put them),
  // knowing no SDK.
  tools: {
    path: ['tools/'],
    imports: overEngine,
  },
  worker: {
    path: ['worker/'],
    imports: overEngine,
  },
  // A corpus over shards (longship/shard): each shard answers from a Longship's retrieval sources,
  // the corpus ranks their answers with retrieval's own code.
  shard: {
    path: ['shard/'],
    imports: overEngine,
  },
  // The engine chooses the implementations (stores, indexes, embedder) and wires the layers.
  engine: {
    path: ['engine.ts'],
    imports: [
      'ovpack/',
      'assemble/',
      'memory/',
      'session/',
      'retrieve/',
      'ingest/',
      'context/',
      ...belowMiddle,
    ],
  },
  // How memories age: expiry, decay through retrieval's hook, consolidation through the tree.
  memory: { path: ['memory/'], imports: ['retrieve/', 'ingest/', 'context/', ...belowMiddle] },
  // A session searches and writes memories: over retrieval, ingestion and the tree.
  session: { path: ['session/'], imports: ['retrieve/', 'ingest/', 'context/', ...belowMiddle] },
  // OVPack export and import: the tree's records as a ZIP and back, over the tree and ingestion's embedding.
  ovpack: { path: ['ovpack/'], imports: ['ingest/', 'context/', ...belowMiddle] },
  // Context assembly (context()): over retrieval; the content hash it shares with ingestion.
  assemble: { path: ['assemble/'], imports: ['retrieve/', 'ingest/', 'context/', ...belowMiddle] },
  retrieve: { path: ['retrieve/'], imports: ['context/', ...belowMiddle] },
  ingest: { path: ['ingest/'], imports: ['context/', ...belowMiddle] },
  // URIs and the tree: what retrieval, ingestion and sessions all build on.
  context: { path: ['context/'], imports: belowMiddle },
  // Keeps the indexes in step with the store: over the indexes, the embedder and the store.
  derived: { path: ['derived/'], imports: ['vector/', 'lexical/', 'embed/', 'store/', ...base] },
  vector: { path: ['vector/'], imports: base },
  lexical: { path: ['lexical/'], imports: base },
  embed: { path: ['embed/'], imports: base },
  llm: { path: ['llm/'], imports: base },
  store: { path: ['store/'], imports: base },
  env: { path: ['env/'], imports: shared },
  remote: { path: ['remote/'], imports: shared },
  shared: { path: shared, imports: [] },
  // The store contract suite (`longship/testing`): it tests a Store through its interface.
  testing: { path: ['testing/'], imports: ['store/', ...shared] },
};

/** A path of the table as a pattern: a folder, a file, or the shared files. */
const pattern = (path) => {
  if (path === '*.ts') return '(?!index\\.ts$|engine\\.ts$)[^/]+\\.ts$';
  return path.replaceAll('.', '\\.') + (path.endsWith('/') ? '' : '$');
};
const anyOf = (paths) => `^src/(${paths.map(pattern).join('|')})`;

const layerRules = Object.entries(layers).map(([name, layer]) => ({
  name: `layer-${name}`,
  comment: `src/${layer.path.join(', src/')} imports only ${layer.imports.join(', ') || 'itself'} (docs/internals/layers.md)`,
  severity: 'error',
  from: { path: anyOf(layer.path) },
  to: { path: '^src/', pathNot: anyOf([...layer.path, ...layer.imports]) },
}));

/** Packages only one folder imports: the one place that speaks them. */
const onlyIn = {
  // The protocol between page and worker is one folder (docs/guide/worker.md).
  comlink: 'worker/',
  // The package runs without vitest; only the contract suite (longship/testing) needs it.
  vitest: 'testing/',
  // The AI SDK is an optional peer; only the tools of longship/ai import it.
  ai: 'ai/',
};

const packageRules = Object.entries(onlyIn).map(([name, folder]) => ({
  name: `${name}-only-in-${folder.replace('/', '')}`,
  comment: `only src/${folder} imports ${name}`,
  severity: 'error',
  from: { path: '^src/', pathNot: `^src/${folder}` },
  to: { path: `(^|/)node_modules/${name}/` },
}));

/** The package's entry points (package.json `exports`): they import anything, nothing imports them. */
const entries = '^src/(index\\.ts$|exports/)';

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-entry-imports',
      comment: 'src/index.ts and src/exports/ are what the package exports; code imports the module itself',
      severity: 'error',
      from: { path: '^src/', pathNot: entries },
      to: { path: entries },
    },
    {
      name: 'every-module-in-a-layer',
      comment: 'a module outside every layer of the table above (add its folder to a layer)',
      severity: 'error',
      from: { path: '^src/', pathNot: [entries, ...Object.values(layers).map((layer) => anyOf(layer.path))] },
      to: {},
    },
    ...packageRules,
    {
      name: 'node-builtins-only-in-env',
      comment: 'Node modules load only in src/env/, with import() behind a runtime check; types are free',
      severity: 'error',
      // src/cli/ is the `longship` command: a Node program, never loaded by an entry point, so it
      // asks no runtime question and imports Node's modules as any Node program does.
      from: { path: '^src/', pathNot: '^src/(env|cli)/' },
      to: { dependencyTypes: ['core'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment: 'modules that import each other, directly or round a loop',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-tests-from-src',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|tools|demo)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};

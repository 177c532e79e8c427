// Every public method's options: a misspelt or unknown key, or a bad value, is INVALID_ARGUMENT
// naming it; every documented option is accepted. The lists come from the schemas, and the types
// below fail `npm run typecheck` when a schema and its options interface name different keys.

import type * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type ContextOptions, contextOptionsSchema } from '../src/assemble/context-options.js';
import {
  type GlobOptions,
  type GrepOptions,
  globOptionsSchema,
  grepOptionsSchema,
  type MkdirOptions,
  mkdirOptionsSchema,
  type PageOptions,
  pageOptionsSchema,
  type RmOptions,
  rmOptionsSchema,
  type TreeOptions,
  type TreePageOptions,
  treeOptionsSchema,
  treePageOptionsSchema,
  type WriteOptions,
  writeOptionsSchema,
} from '../src/context/tree.js';
import {
  type RemoteEmbedderOptions,
  remoteEmbedder,
  remoteEmbedderOptionsSchema,
} from '../src/embed/remote-embedder.js';
import { type Longship, type LongshipOptions, longshipOptionsSchema, openLongship } from '../src/engine.js';
import { LongshipError } from '../src/errors.js';
import {
  type AddResourceOptions,
  type AddSkillOptions,
  addResourceOptionsSchema,
  addSkillOptionsSchema,
} from '../src/ingest/ingest.js';
import {
  type LlmSummarizerOptions,
  llmSummarizer,
  llmSummarizerOptionsSchema,
} from '../src/ingest/summary/llm-summarizer.js';
import { openAiCompatibleLlm } from '../src/llm/openai-compatible.js';
import { remoteReranker } from '../src/llm/remote-reranker.js';
import { type ConsolidateOptions, consolidateOptionsSchema } from '../src/memory/consolidate.js';
import { sweepOptionsSchema } from '../src/memory/expiry.js';
import type { MemoryOptions, memoryOptionsSchema } from '../src/memory/memory-options.js';
import { checkOptions, type OptionsSchema, optionNames } from '../src/options.js';
import { type EndpointOptions, endpointOptionsSchema } from '../src/remote/json-endpoint.js';
import { type ContextSearchOptions, searchOptionsSchema } from '../src/retrieve/search.js';
import { type FindOptions, findOptionsSchema } from '../src/retrieve/settings.js';
import {
  type CommitOptions,
  commitOptionsSchema,
  type MessageOptions,
  messageOptionsSchema,
  type SessionOptions,
  sessionOptionsSchema,
} from '../src/session/session.js';
import { openMemoryStore } from '../src/store/memory/memory-store.js';
import { STORE_METHODS } from '../src/store/store.js';
import { bagOfWordsEmbedder } from './retrieve/fixture.js';

type Keys<S extends v.GenericSchema> = keyof v.InferInput<S>;

it('each schema names exactly the keys of its options type', () => {
  expectTypeOf<Keys<typeof longshipOptionsSchema>>().toEqualTypeOf<keyof LongshipOptions>();
  expectTypeOf<Keys<typeof findOptionsSchema>>().toEqualTypeOf<keyof FindOptions>();
  expectTypeOf<Keys<typeof searchOptionsSchema>>().toEqualTypeOf<keyof ContextSearchOptions>();
  expectTypeOf<Keys<typeof contextOptionsSchema>>().toEqualTypeOf<keyof ContextOptions>();
  expectTypeOf<Keys<typeof writeOptionsSchema>>().toEqualTypeOf<keyof WriteOptions>();
  expectTypeOf<Keys<typeof mkdirOptionsSchema>>().toEqualTypeOf<keyof MkdirOptions>();
  expectTypeOf<Keys<typeof rmOptionsSchema>>().toEqualTypeOf<keyof RmOptions>();
  expectTypeOf<Keys<typeof treeOptionsSchema>>().toEqualTypeOf<keyof TreeOptions>();
  expectTypeOf<Keys<typeof pageOptionsSchema>>().toEqualTypeOf<keyof PageOptions>();
  expectTypeOf<Keys<typeof treePageOptionsSchema>>().toEqualTypeOf<keyof TreePageOptions>();
  expectTypeOf<Keys<typeof globOptionsSchema>>().toEqualTypeOf<keyof GlobOptions>();
  expectTypeOf<Keys<typeof grepOptionsSchema>>().toEqualTypeOf<keyof GrepOptions>();
  expectTypeOf<Keys<typeof addResourceOptionsSchema>>().toEqualTypeOf<keyof AddResourceOptions>();
  expectTypeOf<Keys<typeof addSkillOptionsSchema>>().toEqualTypeOf<keyof AddSkillOptions>();
  expectTypeOf<Keys<typeof commitOptionsSchema>>().toEqualTypeOf<keyof CommitOptions>();
  expectTypeOf<Keys<typeof messageOptionsSchema>>().toEqualTypeOf<keyof MessageOptions>();
  expectTypeOf<Keys<typeof sessionOptionsSchema>>().toEqualTypeOf<keyof SessionOptions>();
  expectTypeOf<Keys<typeof endpointOptionsSchema>>().toEqualTypeOf<keyof EndpointOptions>();
  expectTypeOf<Keys<typeof remoteEmbedderOptionsSchema>>().toEqualTypeOf<keyof RemoteEmbedderOptions>();
  expectTypeOf<Keys<typeof llmSummarizerOptionsSchema>>().toEqualTypeOf<keyof LlmSummarizerOptions>();
  expectTypeOf<Keys<typeof consolidateOptionsSchema>>().toEqualTypeOf<keyof ConsolidateOptions>();
  expectTypeOf<Keys<typeof memoryOptionsSchema>>().toEqualTypeOf<keyof MemoryOptions>();
});

/** A valid value for every option name any schema has; a new option needs one here (checked). */
const fn = () => undefined;
const samples: Record<string, unknown> = {
  // openLongship
  store: Object.fromEntries(STORE_METHODS.map((method) => [method, fn])),
  path: '/tmp/longship',
  indexedDB: { open: fn },
  name: 'db',
  embedder: { embed: fn },
  transformers: { dtype: 'q8' },
  usearch: new URL('https://example.com/usearch.wasm'),
  assets: new URL('https://example.com/longship/'),
  vectorIndex: { metric: 'cos', quantization: 'i8', connectivity: 16, expansionAdd: 64, expansionSearch: 64 },
  snapshots: { delayMs: 10, maxDelayMs: 100, afterChanges: 0 },
  llm: { complete: fn },
  reranker: { rerank: fn },
  summarizer: { summarize: fn },
  user: 'alice',
  agent: 'coder',
  memory: { ttl: { events: 1000 }, decay: { halfLifeDays: 30, protectionDays: 1 }, now: fn },
  // consolidateMemories()
  similarity: 0.9,
  // find and search
  targetUri: 'viking://resources',
  limit: 5,
  scoreThreshold: 0.1,
  filter: { contextType: ['resource', 'memory'], kind: 'file', meta: { a: 1 } },
  mode: 'thinking',
  searchType: 'keywords',
  cursor: 'eyJvZiI6ImxzIn0',
  trace: true,
  alpha: 0.5,
  placeWeight: 0.5,
  directories: 'always',
  calibration: { unrelated: 0.2, related: 0.7 },
  convergenceRounds: 3,
  hybrid: {
    vector: true,
    lexical: true,
    lexicalWeight: 0.5,
    identifierWeight: 0.9,
    fusion: 'rrf',
    rrfK: 60,
    candidates: 10,
    normalise: 'by-kind',
    exact: true,
  },
  hotness: { weight: 0.2, halfLifeDays: 3, now: 0 },
  walk: {
    directoriesPerRound: 2,
    stallRounds: 2,
    minDirectories: 1,
    maxDirectories: 10,
    exactChildren: 8,
    seedDirectories: 4,
    seedLeaves: 2,
  },
  maxRelations: 2,
  signal: new AbortController().signal,
  session: { id: 's', context: fn },
  intent: { timeoutMs: 1000 },
  rerank: { candidates: 5, timeoutMs: 100, weight: 0.5, calibrate: false },
  // context()
  budget: { tokens: 100 },
  quotas: { memories: 1, resources: 2, skills: 0 },
  candidates: 20,
  maxLayer: 'L1',
  tokenizer: { name: 'words', count: () => 1 },
  digest: { maxBullets: 3, timeoutMs: 1000 },
  // the tree
  abstract: 'a',
  overview: 'o',
  meta: { k: 'v' },
  parents: true,
  maxBytes: 1000,
  maxPages: 50,
  uri: 'viking://resources',
  ignoreCase: true,
  depth: 2,
  recursive: true,
  // ingestion
  target: 'viking://resources/docs',
  reason: 'why',
  refreshParents: false,
  onProgress: fn,
  autoCommit: { messages: 10, tokens: 2000, idleMs: 60_000 },
  fetch: fn,
  maxTokens: 100,
  mergeBelow: 10,
  // sessions
  timeoutMs: 1000,
  extractionTimeoutMs: 5000,
  at: 1,
  // remote clients
  baseUrl: 'http://127.0.0.1:1/v1',
  apiKey: 'sk-x',
  model: 'm',
  maxRetries: 0,
  retryBaseMs: 1,
  retryMaxMs: 10,
  maxConcurrent: 2,
  dimensions: 4,
  requestDimensions: true,
  batchSize: 8,
  id: 'remote:m',
};

const schemas: Record<string, OptionsSchema> = {
  'openLongship()': longshipOptionsSchema,
  'find()': findOptionsSchema,
  'search()': searchOptionsSchema,
  'context()': contextOptionsSchema,
  'write()': writeOptionsSchema,
  'mkdir()': mkdirOptionsSchema,
  'rm()': rmOptionsSchema,
  'tree()': treeOptionsSchema,
  'lsPage()': pageOptionsSchema,
  'treePage()': treePageOptionsSchema,
  'glob()': globOptionsSchema,
  'grep()': grepOptionsSchema,
  'addResource()': addResourceOptionsSchema,
  'addSkill()': addSkillOptionsSchema,
  'commit()': commitOptionsSchema,
  'addMessage()': messageOptionsSchema,
  'session()': sessionOptionsSchema,
  openAiCompatibleLlm: endpointOptionsSchema,
  remoteEmbedder: remoteEmbedderOptionsSchema,
  'llmSummarizer()': llmSummarizerOptionsSchema,
  'sweepMemories()': sweepOptionsSchema,
  'consolidateMemories()': consolidateOptionsSchema,
};

describe.each(Object.entries(schemas))('the options of %s', (what, schema) => {
  it('accept every documented option, alone and all together', () => {
    const all: Record<string, unknown> = {};
    for (const name of optionNames(schema)) {
      expect(samples, `no sample value for ${what} option ${name}`).toHaveProperty(name);
      all[name] = samples[name];
      expect(() => checkOptions(schema, { [name]: samples[name] }, what)).not.toThrow(
        /unknown option|options must be an object/,
      );
    }
    // Required options (a remote client's baseUrl and model) are only satisfied all together.
    expect(() => checkOptions(schema, all, what)).not.toThrow();
  });

  it('refuse a misspelt key, naming it and the options there are', () => {
    const [first] = optionNames(schema);
    const misspelt = `${first}s`;
    const error = caught(() => checkOptions(schema, { [misspelt]: 1 }, what));
    expect(error.message).toContain(`unknown option '${misspelt}'`);
    expect(error.message).toContain(optionNames(schema).join(', '));
  });
});

function caught(run: () => unknown): LongshipError {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(LongshipError);
  expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
  return error as LongshipError;
}

async function rejected(run: () => unknown): Promise<LongshipError> {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(LongshipError);
  expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
  return error as LongshipError;
}

describe('the methods check their options where the call enters', () => {
  let longship: Longship;
  const embedder = bagOfWordsEmbedder();
  const R = 'viking://resources';
  beforeAll(async () => {
    const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
    longship = await openLongship({ store, embedder });
    await longship.write(`${R}/a.md`, 'Bread needs flour, water and salt.');
  });
  afterAll(() => longship.close());

  it('find and search: snake case, a misspelt option, a misplaced fusion, a bad filter', async () => {
    const bad: [string, object, RegExp][] = [
      ['find', { score_threshold: 0.5 }, /unknown option 'score_threshold'/],
      ['find', { limt: 3 }, /unknown option 'limt'/],
      ['find', { fusion: 'rrf' }, /unknown option 'fusion'/],
      [
        'find',
        { filter: { kinds: 'file' } },
        /unknown option 'filter.kinds'; filter takes contextType, kind, meta/,
      ],
      [
        'find',
        { filter: { kind: 'bogus' } },
        /option 'filter.kind' must be \("file" \| "dir"\), not "bogus"/,
      ],
      ['find', { hybrid: { fusion: 'best' } }, /hybrid.fusion/],
      ['search', { fusion: 'rrf' }, /^search\(\): unknown option 'fusion'/],
      ['search', { intent: { timeout: 5 } }, /intent/],
      ['search', { rerank: { weigth: 1 } }, /rerank/],
    ];
    for (const [method, options, message] of bad) {
      const error = await rejected(() =>
        method === 'find'
          ? longship.find('bread', options as FindOptions)
          : longship.search('bread', options),
      );
      expect(error.message).toMatch(message);
    }
    for (const options of [null, 'limit', [1]]) {
      const error = await rejected(() => longship.find('bread', options as never));
      expect(error.message).toMatch(/^find\(\): options must be an object/);
    }
  });

  it('the tree methods: unknown keys, null options, bad grep limits, huge globs', async () => {
    await rejected(() => longship.write(`${R}/b.md`, 'x', { parent: true } as never));
    await rejected(() => longship.mkdir(`${R}/d`, { recursive: true } as never));
    await rejected(() => longship.rm(`${R}/a.md`, { force: true } as never));
    await rejected(() => longship.tree(R, { depth: 1.5 }));
    await rejected(() => longship.glob('*', { root: R } as never));
    await rejected(() => longship.write(`${R}/b.md`, 'x', null as never));
    for (const limit of [-1, 0, Number.NaN, Number.POSITIVE_INFINITY, 1.5, '3']) {
      const error = await rejected(() => longship.grep('flour', { limit: limit as number }));
      expect(error.message).toMatch(/^grep\(\): option 'limit'/);
    }
    const error = await rejected(() => longship.glob('*'.repeat(100_000)));
    expect(error.message).toMatch(/at most 1024 characters/);
    expect((await longship.ls(R)).map((n) => n.name)).toEqual(['a.md']);
  });

  it('addResource, addSkill, sessions and the remote clients', async () => {
    caught(() => longship.addResource('text', { name: 'a.md', targt: R } as never));
    caught(() => longship.addSkill({ name: 's', content: 'c' } as never, { reasons: 'x' } as never));
    const session = longship.session('opts');
    await rejected(() => session.addMessage('user', 'hi', { when: 1 } as never));
    await rejected(() => session.commit({ timeout: 1 } as never));
    caught(() => longship.session('opts', { autocommit: {} } as never));
    caught(() => longship.session('opts', { autoCommit: { messages: 0 } }));
    caught(() => longship.session('opts', { autoCommit: { tokens: 1.5 } }));
    caught(() => longship.session('opts', { autoCommit: { idleMs: 2 ** 31 } }));
    caught(() => longship.session('opts', { autoCommit: { every: 3 } } as never));
    expect(await longship.sessionExists('opts')).toBe(false);
    const remote = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm' };
    caught(() => openAiCompatibleLlm({ ...remote, api_key: 'k' } as never));
    caught(() => remoteReranker({ ...remote, retries: 1 } as never));
    caught(() => remoteEmbedder({ ...remote, dimensions: 4, batch: 2 } as never));
    caught(() => llmSummarizer({ model: 'm' } as never, { timeout: 1 } as never));
    await expect(openLongship({ store: null, embeder: {} } as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect((await longship.ls(R)).map((n) => n.name)).toEqual(['a.md']);
  });
});

// One corpus over many shards (docs/guide/sharding.md): `find()` asks every shard in two rounds
// (shard-protocol.ts) and ranks what they send with retrieval's own code, so the answer is the one
// a single store of the whole corpus gives: BM25 with the corpus's statistics, one fusion with
// references from the best of all shards, directories and places from the whole tree, one
// calibration. A shard that misses its deadline or fails is left out and named in `missing`.
import * as v from 'valibot';
import { throwIfAborted } from '../abort.js';
import { assembleContext } from '../assemble/assemble.js';
import type { AssembledContext, ContextOptions } from '../assemble/context-options.js';
import { memoryDeliveredLedger } from '../assemble/delivered.js';
import { isWithin, parseUri, type VikingUri } from '../context/uri.js';
import type { Embedder } from '../embed/embedder.js';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import {
  type Candidate,
  calibrated,
  confidenceOf,
  listOf,
  type Places,
  propagateWith,
  type ResultSources,
  rank,
  toMatched,
} from '../retrieve/results.js';
import type { FindResult } from '../retrieve/retriever.js';
import { scorerSettings } from '../retrieve/retriever.js';
import { search } from '../retrieve/search.js';
import { type FindOptions, resolveSettings } from '../retrieve/settings.js';
import type { NodeRecord, RelationRecord } from '../store/store.js';
import { type Answers, askAll, type MissingShard } from './shard-calls.js';
import { mergeCandidates } from './shard-merge.js';
import type { CorpusShard, ShardFindOptions, ShardStatistics } from './shard-protocol.js';
import { sumStatistics } from './shard-statistics.js';

export type { MissingShard } from './shard-calls.js';

export interface ShardedCorpusOptions {
  /** The shards, in a fixed order: a URI's shard is found by its index (see `shardOf`). */
  shards: readonly CorpusShard[];
  /** The directory the corpus is, in every shard; default `viking://resources`. */
  root?: string;
  /** Embeds each query once, here; default: the first shard that answers embeds it. */
  embedder?: Pick<Embedder, 'embed'>;
  /** How long each shard has to answer each round, in ms; default 5,000. */
  deadlineMs?: number;
}

const optionsSchema = v.strictObject({
  shards: v.pipe(
    // A Durable Object's stub is a proxy: an object or a function, its methods reached by name.
    v.array(
      v.custom<CorpusShard>(
        (x) => x !== null && (typeof x === 'object' || typeof x === 'function'),
        'must be a shard',
      ),
    ),
    v.minLength(1, 'needs at least one shard'),
  ),
  root: v.optional(v.string()),
  embedder: v.optional(
    v.custom<Pick<Embedder, 'embed'>>(
      (x) => typeof x === 'object' && x !== null && typeof (x as Embedder).embed === 'function',
      'must be an embedder (an object with embed())',
    ),
  ),
  deadlineMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

/** find()'s result over a corpus: what a single store would return, and the shards left out. */
export interface ShardedFindResult extends FindResult {
  /** The shards that did not answer in time or failed, by index: the results are from the others. */
  missing: MissingShard[];
}

/** context() over a corpus: the block for a prompt, and the shards left out of its search. */
export interface ShardedContext extends AssembledContext {
  missing: MissingShard[];
}

export interface ShardedCorpus {
  readonly root: VikingUri;
  /** How many shards. */
  readonly size: number;
  /**
   * The shard a URI below the root belongs in: by its first segment below the root, so a
   * document's subtree stays whole in one shard. Add each subtree to the shard this names.
   */
  shardOf(uri: string): number;
  /**
   * find() over the whole corpus, QUICK (the only mode): the results a single store holding every
   * shard's documents gives, with the shards that did not answer in `missing`.
   */
  find(query: string, options?: FindOptions): Promise<ShardedFindResult>;
  /**
   * The context for an agent's prompt within a token budget (docs/guide/context.md), from this
   * find(). A session id remembers what was delivered for as long as the corpus object lives.
   */
  context(query: string, options: ContextOptions): Promise<ShardedContext>;
}

/**
 * A corpus spread over shards by subtree, searched as one.
 *
 * @example
 * const corpus = openShardedCorpus({ shards: [corpusShard(a), corpusShard(b)] });
 * await [a, b][corpus.shardOf('viking://resources/manuals')].addResource(files, { name: 'manuals' });
 * const { resources, missing } = await corpus.find('how do I reset the device?');
 */
export function openShardedCorpus(options: ShardedCorpusOptions): ShardedCorpus {
  const checked = checkOptions(optionsSchema, options, 'openShardedCorpus()');
  const shards = checked.shards;
  const root = parseUri(checked.root ?? 'viking://resources');
  const deadlineMs = checked.deadlineMs ?? 5000;
  const shardOf = (uri: string): number => {
    const parsed = parseUri(uri);
    if (!isWithin(parsed, root) || parsed === root) {
      throw new LongshipError('INVALID_URI', `${uri} is not below the corpus's root ${root}`);
    }
    return hashOf(parsed.slice(root.length + 1).split('/')[0]!) % shards.length;
  };
  const corpus: Corpus = { shards, root, deadlineMs, embedder: checked.embedder, shardOf };
  const delivered = deliveredOf();
  return {
    root,
    size: shards.length,
    shardOf,
    find: (query, findOptions = {}) => findInShards(corpus, query, findOptions),
    context: (query, contextOptions) => contextInShards(corpus, delivered, query, contextOptions),
  };
}

/** What context() delivered to each session, for as long as the corpus lives. */
function deliveredOf() {
  const ledger = memoryDeliveredLedger();
  const key = {};
  return {
    readDelivered: (_store: object, id: string) => ledger.readDelivered(key, id),
    recordDelivered: (_store: object, id: string, entries: Parameters<typeof ledger.recordDelivered>[2]) =>
      ledger.recordDelivered(key, id, entries),
  };
}

async function contextInShards(
  corpus: Corpus,
  delivered: ReturnType<typeof deliveredOf>,
  query: string,
  options: ContextOptions,
): Promise<ShardedContext> {
  const missing: MissingShard[] = [];
  const note = (more: readonly MissingShard[]) => {
    for (const left of more) if (!missing.some((known) => known.shard === left.shard)) missing.push(left);
    missing.sort((a, b) => a.shard - b.shard);
  };
  const find = async (q: string, o: FindOptions) => {
    const result = await findInShards(corpus, q, o);
    note(result.missing);
    return result;
  };
  const readsMissing: MissingShard[] = [];
  const reads = routed(corpus, new Map(), (indexes, call) =>
    askAll(corpus.shards, indexes, call, corpus.deadlineMs, readsMissing),
  );
  const node = (uri: string) => reads.store.node(uri);
  const assembled = await assembleContext(
    // The shards' embedder is theirs to know: no default threshold (docs/guide/sharding.md).
    { store: { node }, search: (q, o) => search({ find, node }, q, o), delivered, noGoodMatch: 0 },
    query,
    options,
  );
  note(readsMissing);
  return { ...assembled, missing };
}

interface Corpus {
  shards: readonly CorpusShard[];
  root: VikingUri;
  deadlineMs: number;
  embedder: Pick<Embedder, 'embed'> | undefined;
  shardOf(uri: string): number;
}

async function findInShards(corpus: Corpus, query: string, options: FindOptions): Promise<ShardedFindResult> {
  if (typeof query !== 'string') {
    throw new LongshipError('INVALID_ARGUMENT', `find() needs a query string, not ${typeof query}`);
  }
  const settings = resolveSettings(options);
  if (settings.mode !== 'quick')
    throw new LongshipError('INVALID_ARGUMENT', 'a sharded corpus finds in QUICK mode only');
  if (settings.trace) throw new LongshipError('INVALID_ARGUMENT', 'a sharded corpus has no trace');
  if (settings.method === 'rrf') {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      "a sharded corpus fuses with 'minmax' or 'zscore', not 'rrf'",
    );
  }
  const targetUri = parseUri(options.targetUri ?? corpus.root);
  if (!isWithin(targetUri, corpus.root)) {
    throw new LongshipError('INVALID_URI', `${targetUri} is not within the corpus's root ${corpus.root}`);
  }
  const { signal, targetUri: _target, trace: _trace, mode: _mode, ...shardOptions } = options;
  const empty: ShardedFindResult = { memories: [], resources: [], skills: [], total: 0, missing: [] };
  if (query.trim() === '') return empty;
  const base = { query, targetUri, options: shardOptions as ShardFindOptions };
  const missing: MissingShard[] = [];
  const ask = <T>(indexes: readonly number[], call: (shard: CorpusShard, index: number) => Promise<T>) =>
    askAll(corpus.shards, indexes, call, corpus.deadlineMs, missing);

  // Round 1: the statistics, and the query's vector from the first shard unless embedded here.
  const wantsVector = settings.useVector;
  const embedHere = wantsVector && corpus.embedder ? corpus.embedder.embed([query]) : undefined;
  // Awaited after the first round; a failure meanwhile is not an unhandled rejection.
  embedHere?.catch(() => undefined);
  const all = corpus.shards.map((_, i) => i);
  const stats = await ask(all, (shard, i) =>
    shard.statistics({ ...base, embed: wantsVector && !corpus.embedder && i === 0 }),
  );
  throwIfAborted(signal, 'find()');
  const vector = embedHere ? (await embedHere)[0] : await vectorFrom(stats, base, ask, wantsVector);
  throwIfAborted(signal, 'find()');
  if (stats.size === 0) return { ...empty, missing };
  const { lexical, place } = sumStatistics([...stats.values()]);

  // Round 2: every answering shard's candidates, scored with the corpus's statistics.
  const answers = await ask([...stats.keys()], (shard) =>
    shard.candidates({ ...base, vector, lexical, place }),
  );
  throwIfAborted(signal, 'find()');
  const merged = mergeCandidates([...answers.entries()], scorerSettings(settings, query), settings);
  const candidates: Candidate[] = merged.candidates;
  const places: Places = {
    parentOf: (uri) => merged.places.get(uri)?.parent,
    score: (uri) => (merged.placeBest > 0 ? (merged.places.get(uri)?.sum ?? 0) / merged.placeBest : 0),
  };

  const top = rank(propagateWith(candidates, places, settings), settings);
  const sources = routed(corpus, merged.owners, ask);
  const confidence = settings.calibration ? await confidenceOf(sources, query, top, settings.calibration) : 1;
  const ranked = settings.calibration
    ? calibrated(top, confidence, settings.scoreThreshold)
    : top.filter((item) => item.final > settings.scoreThreshold);
  const items = await toMatched(sources, ranked, settings);
  const result: ShardedFindResult = { ...empty, total: items.length, missing };
  for (const item of items) result[listOf[item.contextType]].push(item);
  return result;
}

/** The query's vector from round 1, or, when the shard asked for it did not answer, from another. */
async function vectorFrom(
  stats: Answers<ShardStatistics>,
  base: { query: string; targetUri: string; options: ShardFindOptions },
  ask: <T>(
    indexes: readonly number[],
    call: (shard: CorpusShard, i: number) => Promise<T>,
  ) => Promise<Answers<T>>,
  wanted: boolean,
): Promise<Float32Array | undefined> {
  if (!wanted) return undefined;
  const given = stats.get(0)?.vector;
  if (given) return given;
  for (const index of stats.keys()) {
    const again = await ask([index], (shard) => shard.statistics({ ...base, embed: true }));
    const vector = again.get(index)?.vector;
    if (vector) return vector;
  }
  return undefined;
}

/** The reads of the results (a result's text, its relations), each from the shard that holds it. */
function routed(
  corpus: Corpus,
  owners: ReadonlyMap<string, number>,
  ask: <T>(indexes: readonly number[], call: (shard: CorpusShard) => Promise<T>) => Promise<Answers<T>>,
): ResultSources {
  const ownerOf = (uri: string) => owners.get(uri) ?? corpus.shardOf(uri);
  return {
    store: {
      async node(uri): Promise<NodeRecord | undefined> {
        const index = ownerOf(uri);
        return (await ask([index], (shard) => shard.node(uri))).get(index);
      },
      async relations(uri): Promise<RelationRecord[]> {
        const index = ownerOf(uri);
        return (await ask([index], (shard) => shard.relations(uri))).get(index) ?? [];
      },
    },
  };
}

/** FNV-1a over UTF-16 code units: the same shard for a name in every runtime. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

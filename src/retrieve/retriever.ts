/**
 * find(): flat (QUICK) and hierarchical (THINKING) retrieval over the `viking://` tree, hybrid BM25
 * and vector scoring, the hotness blend and the trace. docs/guide/retrieval.md describes them; the
 * defaults in {@link findDefaults} were chosen on ObliQA (bench/results/quality-obliqa.md).
 */
import { throwIfAborted } from '../abort.js';
import { LongshipError } from '../errors.js';
import type { NodeKind } from '../store/store.js';
import {
  type Candidate,
  calibrated,
  confidenceOf,
  listOf,
  type MatchedContext,
  propagate,
  rank,
  toMatched,
} from './results.js';
import { loadScope, resolveRoots, ScopeCache } from './scope.js';
import { createQueryScorer, type QueryScorer, type ScorerSettings } from './score/query-scorer.js';
import { type FindOptions, resolveSettings, type Settings } from './settings.js';
import type { RetrievalSources } from './sources.js';
import { type FindTrace, round4 } from './trace.js';
import { quickSearch } from './walk/quick.js';
import type { SearchContext, SearchOutcome, TraceLog } from './walk/search-context.js';
import { walk } from './walk/walk.js';

/** What find() returns: the results split by context type, best first in each. */
export interface FindResult {
  memories: MatchedContext[];
  resources: MatchedContext[];
  skills: MatchedContext[];
  /** Results in all three lists together (at most `limit`). */
  total: number;
  /** With `trace: true`: every step of the search. */
  trace?: FindTrace;
}

/** find() bound to its sources: what the engine holds. */
export interface Retriever {
  find(query: string, options?: FindOptions): Promise<FindResult>;
}

/**
 * Binds {@link find} to a set of sources, keeping the nodes of recent scopes between queries
 * until the store changes (the sources may be getters: the engine's indexes are replaced on a rebuild).
 *
 * @example
 * const retriever = createRetriever(sources);
 * const { resources } = await retriever.find('ERR_QUOTA_EXCEEDED', { mode: 'quick' });
 */
export function createRetriever(sources: RetrievalSources): Retriever {
  const scopes = new ScopeCache();
  return { find: (query, options) => find(sources, query, options, scopes) };
}

/**
 * Finds the nodes that best match `query`, within `targetUri` or the roots of the context types.
 * QUICK (the default) searches all nodes in scope at once; THINKING walks the tree from the best
 * directories down. Both fuse BM25 with vector similarity, so identifiers and error codes match
 * exactly. Fails with INVALID_URI for a bad `targetUri`, INVALID_ARGUMENT for a bad option,
 * ABORTED when `signal` fires.
 *
 * @example
 * const result = await find(sources, 'How are retries configured?', { limit: 5, trace: true });
 * for (const hit of result.resources) console.log(hit.score.toFixed(3), hit.uri, hit.abstract);
 */
export async function find(
  sources: RetrievalSources,
  query: string,
  options: FindOptions = {},
  scopes?: ScopeCache,
): Promise<FindResult> {
  const started = performance.now();
  if (typeof query !== 'string') {
    throw new LongshipError('INVALID_ARGUMENT', `find() needs a query string, not ${typeof query}`);
  }
  const settings = resolveSettings(options);
  const { signal, filter } = options;
  const rootUris = resolveRoots(options.targetUri, filter, sources.roots);
  throwIfAborted(signal, 'find()');

  const scope = await (scopes ? scopes.load(sources, rootUris) : loadScope(sources, rootUris));
  throwIfAborted(signal, 'find()');
  const empty = query.trim() === '' || scope.nodes.length === 0;
  const scorer = empty
    ? undefined
    : await createQueryScorer(sources, scope, query, scorerSettings(settings, query), signal);
  throwIfAborted(signal, 'find()');

  const log: TraceLog | undefined = settings.trace ? { seeds: [], steps: [], scored: [] } : undefined;
  let outcome: SearchOutcome = {
    candidates: [],
    stop: { reason: 'empty', rounds: 0, directoriesVisited: 0 },
  };
  if (scorer) {
    const context: SearchContext = { sources, scope, scorer, settings, trace: log, signal };
    outcome = settings.mode === 'quick' ? quickSearch(context, filter) : await walk(context, filter);
  }

  const { candidates, expired } = aged(propagate(outcome.candidates, scope, query, settings), sources);
  const top = rank(candidates, settings);
  const confidence = settings.calibration ? await confidenceOf(sources, query, top, settings.calibration) : 1;
  const ranked = settings.calibration
    ? calibrated(top, confidence, settings.scoreThreshold)
    : top.filter((item) => item.final > settings.scoreThreshold);
  const items = await toMatched(sources, ranked, settings);
  const result: FindResult = { memories: [], resources: [], skills: [], total: items.length };
  for (const item of items) result[listOf[item.contextType]].push(item);

  if (log) {
    result.trace = {
      mode: settings.mode,
      query,
      roots: scope.roots.map((root) => root.uri),
      fusion: fusionTrace(scorer?.fuser, settings),
      settings: traceSettings(settings),
      seeds: log.seeds,
      steps: log.steps,
      scored: log.scored,
      stop: { ...outcome.stop, candidates: candidates.length },
      expired,
      results: ranked.map((item) => ({
        uri: item.node.uri,
        score: round4(item.final),
        ...(item.hotness === undefined ? {} : { hotness: round4(item.hotness) }),
        ...(item.decay === undefined ? {} : { decay: round4(item.decay) }),
      })),
      elapsedMs: Math.round(performance.now() - started),
    };
  }
  return result;
}

/** How one query is scored: the settings, and the blend leaning to BM25 when it names an identifier. */
export function scorerSettings(settings: Settings, query: string): ScorerSettings {
  return {
    method: settings.method,
    lexicalWeight:
      identifiersIn(query).length > 0
        ? Math.max(settings.lexicalWeight, settings.identifierWeight)
        : settings.lexicalWeight,
    useVector: settings.useVector,
    useLexical: settings.useLexical,
    rrfK: settings.rrfK,
    candidates: settings.candidates,
    byKind: settings.byKind,
    exactBelow: settings.exactChildren,
    exactVectors: settings.exactVectors,
  };
}

/**
 * The candidates the sources' ageing keeps (docs/guide/memory-lifecycle.md): expired memories leave
 * before the ranking, so the results still fill their limit; a decayed one carries its lower score in.
 */
function aged(
  candidates: readonly Candidate[],
  sources: Pick<RetrievalSources, 'ageing'>,
): { candidates: Candidate[]; expired: number } {
  const judge = sources.ageing?.();
  if (!judge) return { candidates: [...candidates], expired: 0 };
  const kept: Candidate[] = [];
  let expired = 0;
  for (const candidate of candidates) {
    const verdict = judge(candidate.node);
    if (verdict === 'expired') expired++;
    else if (verdict === undefined) kept.push(candidate);
    else kept.push({ ...candidate, score: candidate.score * verdict, decay: verdict });
  }
  return { candidates: kept, expired };
}

function fusionTrace(fuser: QueryScorer['fuser'] | undefined, settings: Settings): FindTrace['fusion'] {
  const reference = (kind: NodeKind) => {
    const described = fuser?.[kind].describe();
    const pair = (p: [number, number] | undefined): [number, number] =>
      p ? [round4(p[0]), round4(p[1])] : [0, 0];
    return { lexical: pair(described?.lexical), vector: pair(described?.vector) };
  };
  return {
    method: settings.method,
    lexicalWeight: fuser?.file.describe().lexicalWeight ?? settings.lexicalWeight,
    file: reference('file'),
    dir: reference('dir'),
  };
}

function traceSettings(settings: Settings): FindTrace['settings'] {
  const { now: _now, trace: _trace, calibration, ...rest } = settings;
  return calibration
    ? { ...rest, calibrationUnrelated: calibration.unrelated, calibrationRelated: calibration.related }
    : { ...rest, calibration: false };
}

// Queries that name an identifier (an error code, a function, a rule number) want the node that
// contains it, which only BM25 can tell: an embedding model knows nothing of `ERR_QUOTA_EXCEEDED`.
// For such queries the blend leans further towards BM25 (`hybrid.identifierWeight`), so the vector
// side's opinion of near-synonyms cannot bury the exact match.

const PATTERNS: readonly RegExp[] = [
  // snake_case and SCREAMING_SNAKE: ERR_QUOTA_EXCEEDED, read_file
  /[\p{L}\p{N}]_[\p{L}\p{N}]/u,
  // camelCase and PascalCase with an inner capital: readFileSync, XMLHttpRequest
  /\p{Ll}\p{Lu}/u,
  // a path of names: fs.readFileSync, std::vector, @types/node
  /\p{L}(?:\.|::|\/)\p{L}/u,
  // letters and digits in one word: E1234, HTTP404, v2
  /\p{L}\p{N}|\p{N}\p{L}/u,
  // numbered references: 11.2.1, 3.4
  /\p{N}\.\p{N}/u,
];

const TOKEN = /\S+/gu;
// 1st, 2nd, 1990s, 24h: digits with a unit or suffix are words, not identifiers.
const ORDINAL = /^\p{N}+(?:st|nd|rd|th|s|h|m|k|am|pm)$/iu;

/**
 * The identifier-like words of a query, trailing punctuation dropped.
 *
 * @example
 * identifiersIn('What does ERR_QUOTA_EXCEEDED mean?'); // ['ERR_QUOTA_EXCEEDED']
 */
export function identifiersIn(query: string): string[] {
  const found: string[] = [];
  for (const [raw] of query.matchAll(TOKEN)) {
    const token = raw.replace(/^[^\p{L}\p{N}@_]+|[^\p{L}\p{N}_)]+$/gu, '');
    if (token === '' || ORDINAL.test(token)) continue;
    if (PATTERNS.some((pattern) => pattern.test(token))) found.push(token);
  }
  return found;
}

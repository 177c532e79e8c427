// The options of find(), their defaults, and their checks. Every constant of the walk and the
// fusion is an option; the defaults were chosen on ObliQA (bench/results/quality-obliqa.md).
import * as v from 'valibot';
import { LongshipError } from '../errors.js';
import { checkOptions, signalSchema } from '../options.js';
import { type FindFilter, findFilterSchema } from './scope.js';
import type { FusionMethod } from './score/fusion.js';

export type FindMode = 'quick' | 'thinking';

/**
 * Which sides of the search run: `'hybrid'` both, fused; `'keywords'` BM25 alone, the query never
 * embedded (OpenViking's `search_type="keywords"`); `'vector'` similarity alone.
 */
export type SearchType = 'hybrid' | 'keywords' | 'vector';

/** Similarities of the embedder for unrelated text and for a relevant passage. */
export interface Calibration {
  unrelated: number;
  related: number;
}

/**
 * Measured with the bundled USE-lite: the best hit's similarity for 300 SyllabusQA questions over
 * their syllabi (p10 0.61) and for 300 chat questions over the same syllabi (p90 0.41, p50 0.29).
 */
const bundledCalibration: Calibration = { unrelated: 0.3, related: 0.6 };

/** Which sides of the hybrid search run, and how they are fused. */
export interface HybridOptions {
  /** Vector similarity on. Default true. Off: the query is not embedded at all. */
  vector?: boolean;
  /** BM25 on. Default true. */
  lexical?: boolean;
  /** Weight of BM25 in the convex blend, in [0, 1]; the vector side gets the rest. Default 0.8. */
  lexicalWeight?: number;
  /**
   * The lexical weight used instead when the query names an identifier (an error code, a function,
   * a rule number: see `identifiersIn`), if it is higher. Default 0.9.
   */
  identifierWeight?: number;
  /** Default `'minmax'`. See `createFuser` (src/retrieve/score/fusion.ts) for each method. */
  fusion?: FusionMethod;
  /** RRF's k, for `fusion: 'rrf'`. Default 60. */
  rrfK?: number;
  /** Nodes taken from each side's global search; also the normalisation reference. Default 100. */
  candidates?: number;
  /**
   * `'by-kind'`: directories and files are each normalised against the best of their own kind, so
   * a directory indexed with long text cannot shrink every file's BM25 share. `'together'`: one
   * reference for all nodes. Default `'together'`.
   */
  normalise?: 'by-kind' | 'together';
  /**
   * Scan every vector in scope instead of walking the HNSW graph: the exact nearest chunks, at a
   * cost that grows with the scope. A graph search may miss a few; two stores' graphs miss
   * different ones, so a corpus over shards answers exactly as one store does only with this on
   * (docs/guide/sharding.md). Default false.
   */
  exact?: boolean;
}

export interface HotnessOptions {
  /** `score = (1 − weight) · score + weight · hotness`, weight in [0, 1]. */
  weight: number;
  /** Days for hotness to halve. Default 7. */
  halfLifeDays?: number;
  /** The clock, in ms since the epoch. Default `Date.now()`. */
  now?: number;
}

/** The THINKING walk's search and stopping rules (α and the convergence rounds are top-level). */
export interface WalkOptions {
  /** Directories popped and scored per round (OpenViking pops 4). Default 1. */
  directoriesPerRound?: number;
  /** Stop after this many rounds in which the candidate pool did not grow. Default 3. */
  stallRounds?: number;
  /**
   * Neither convergence nor a stalled pool stops the walk before this many directories were
   * visited; a walk that stopped early never scored the answer for 37% of ObliQA questions in the
   * prototype. Default `2 · limit`.
   */
  minDirectories?: number;
  /** A hard cap on directories visited. Default 1,000. */
  maxDirectories?: number;
  /**
   * A directory whose children have at most this many vectors is scored exactly; above it, its
   * children are ranked by a filtered HNSW search (the best `hybrid.candidates` get a similarity,
   * the rest are judged by BM25 alone). Default 8,192.
   */
  exactChildren?: number;
  /** Directories taken from the global directory search as seeds. Default `max(limit, 10)`. */
  seedDirectories?: number;
  /**
   * The parents of this many top leaves of a global search are seeded too, each with the leaf's
   * score as its priority, so an exact match in a poorly summarised directory is still reached.
   * 0 turns it off. Default `limit`.
   */
  seedLeaves?: number;
}

/**
 * Options of `find()`. Only `query` is required; every default is listed in {@link findDefaults}.
 *
 * @example
 * await find(sources, 'ERR_QUOTA_EXCEEDED', { targetUri: 'viking://resources/docs', limit: 5 });
 */
export interface FindOptions {
  /** Search only this subtree (or this file). Default: the roots of the context types in `filter`. */
  targetUri?: string;
  /** Results returned. Default 10. */
  limit?: number;
  /**
   * Keep a node only when its final score is above this. Scores are calibrated (see
   * `calibration`), so a threshold means the same for every query: with the bundled model,
   * `findDefaults.noGoodMatch` drops what is no good match. Default 0 (nothing dropped).
   */
  scoreThreshold?: number;
  /**
   * What the embedder's cosine similarity is for unrelated text and for a relevant passage: a
   * query's scores are scaled by how good its best hit is on that scale times the share of the
   * query's terms it contains, so scores compare across queries. `false`: scores
   * relative to the query's best hit, as fused. Default `{ unrelated: 0.3, related: 0.6 }`,
   * measured with the bundled model; measure your own for another embedder (docs/guide/retrieval.md).
   */
  calibration?: Calibration | false;
  filter?: FindFilter;
  /**
   * `'quick'`: one flat search over the scope. `'thinking'`: the hierarchical walk. Default
   * `'quick'`: on SciFact and ObliQA the walk matched the flat search's quality at several times its
   * latency (docs/guide/retrieval.md, "Why QUICK is the default"; docs/benchmarks.md, "Retrieval quality").
   */
  mode?: FindMode;
  /**
   * `'keywords'` for BM25 alone (no embedding: for exact names and codes, or with no model loaded),
   * `'vector'` for similarity alone, `'hybrid'` for both. Default `'hybrid'`. A shorthand for
   * `hybrid.vector` or `hybrid.lexical` off: giving a side of `hybrid` that contradicts it is
   * INVALID_ARGUMENT.
   */
  searchType?: SearchType;
  /** Record every step in `FindResult.trace`. Default false. */
  trace?: boolean;
  /**
   * The share of a node's score that is its own, in [0, 1]; the rest is its directory's (what the
   * directory's names and titles say, and its best content: see `placeWeight`). The walk also
   * decides which directories to open with it. Default 0.7.
   */
  alpha?: number;
  /**
   * Within a directory's share, the weight of what its path's names and titles say about the query
   * (the rest is the best fused score of a file below it), in [0, 1]. Default 0.5.
   */
  placeWeight?: number;
  /**
   * `'when-alone'`: a directory is returned only when none of its files ranks near it (within the
   * best `2 · limit`): its files say more than its summary. A skill's folder always competes: it is
   * the skill. `'always'`: directories compete with
   * their files. Default `'when-alone'`.
   */
  directories?: 'when-alone' | 'always';
  /** Stop the walk after this many rounds without a change in the top `limit`. Default `max(3, limit)`. */
  convergenceRounds?: number;
  hybrid?: HybridOptions;
  /** A weight in [0, 1], or the full options. Default off (0). */
  hotness?: number | HotnessOptions;
  walk?: WalkOptions;
  /** Related URIs per result, at most. Default 5. */
  maxRelations?: number;
  signal?: AbortSignal;
}

const number = v.optional(v.number());

/** find()'s options, key by key; search() adds its own (src/retrieve/search.ts). Ranges: resolveSettings. */
export const findOptionsEntries = {
  targetUri: v.optional(v.string()),
  limit: number,
  scoreThreshold: number,
  calibration: v.optional(
    v.union([
      v.literal(false),
      v.strictObject({ unrelated: v.pipe(v.number(), v.finite()), related: v.pipe(v.number(), v.finite()) }),
    ]),
  ),
  filter: v.optional(findFilterSchema),
  mode: v.optional(v.picklist(['quick', 'thinking'])),
  searchType: v.optional(v.picklist(['hybrid', 'keywords', 'vector'])),
  trace: v.optional(v.boolean()),
  alpha: number,
  placeWeight: number,
  directories: v.optional(v.picklist(['when-alone', 'always'])),
  convergenceRounds: number,
  hybrid: v.optional(
    v.strictObject({
      vector: v.optional(v.boolean()),
      lexical: v.optional(v.boolean()),
      lexicalWeight: number,
      identifierWeight: number,
      fusion: v.optional(v.picklist(['minmax', 'zscore', 'rrf'])),
      rrfK: number,
      candidates: number,
      normalise: v.optional(v.picklist(['by-kind', 'together'])),
      exact: v.optional(v.boolean()),
    }),
  ),
  hotness: v.optional(
    v.union([v.number(), v.strictObject({ weight: v.number(), halfLifeDays: number, now: number })]),
  ),
  walk: v.optional(
    v.strictObject({
      directoriesPerRound: number,
      stallRounds: number,
      minDirectories: number,
      maxDirectories: number,
      exactChildren: number,
      seedDirectories: number,
      seedLeaves: number,
    }),
  ),
  maxRelations: number,
  signal: v.optional(signalSchema),
};

/** @internal */
export const findOptionsSchema = v.strictObject(findOptionsEntries);

/** Every setting with its default filled in. */
export interface Settings {
  limit: number;
  scoreThreshold: number;
  calibration: Calibration | false;
  mode: FindMode;
  /** What `useVector` and `useLexical` say, by name: the trace shows it. */
  searchType: SearchType;
  trace: boolean;
  alpha: number;
  placeWeight: number;
  directoriesWhenAlone: boolean;
  convergenceRounds: number;
  useVector: boolean;
  useLexical: boolean;
  lexicalWeight: number;
  identifierWeight: number;
  method: FusionMethod;
  rrfK: number;
  candidates: number;
  byKind: boolean;
  exactVectors: boolean;
  hotnessWeight: number;
  halfLifeDays: number;
  now: number;
  directoriesPerRound: number;
  stallRounds: number;
  minDirectories: number;
  maxDirectories: number;
  exactChildren: number;
  seedDirectories: number;
  seedLeaves: number;
  maxRelations: number;
}

/**
 * The defaults, as chosen by measurement. Those that depend on `limit` are functions of it.
 *
 * @example
 * findDefaults.alpha; // 0.7
 */
export const findDefaults = Object.freeze({
  limit: 10,
  scoreThreshold: 0,
  mode: 'quick' as FindMode,
  searchType: 'hybrid' as SearchType,
  alpha: 0.7,
  placeWeight: 0.5,
  directories: 'when-alone' as 'when-alone' | 'always',
  convergenceRounds: (limit: number) => Math.max(3, limit),
  lexicalWeight: 0.8,
  identifierWeight: 0.9,
  fusion: 'minmax' as FusionMethod,
  rrfK: 60,
  candidates: 100,
  normalise: 'together' as 'by-kind' | 'together',
  hotnessWeight: 0,
  halfLifeDays: 7,
  directoriesPerRound: 1,
  stallRounds: 3,
  minDirectories: (limit: number) => 2 * limit,
  maxDirectories: 1000,
  exactChildren: 8192,
  seedDirectories: (limit: number) => Math.max(limit, 10),
  seedLeaves: (limit: number) => limit,
  maxRelations: 5,
  calibration: bundledCalibration,
  /**
   * The `scoreThreshold` under which a calibrated score means "no good match", chosen on the
   * tuning halves of five datasets (docs/benchmarks.md, "No good match"); context()'s default.
   */
  noGoodMatch: 0.25,
});

function invalid(message: string): never {
  throw new LongshipError('INVALID_ARGUMENT', message);
}

function count(name: string, value: number | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min)
    invalid(`${name} must be a whole number ≥ ${min}, not ${value}`);
  return value;
}

function unit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    invalid(`${name} must be a number from 0 to 1, not ${value}`);
  }
  return value;
}

function calibrationOf(calibration: FindOptions['calibration']): Calibration | false {
  if (calibration === undefined) return findDefaults.calibration;
  if (calibration !== false && !(calibration.related > calibration.unrelated)) {
    invalid(`calibration.related must be above calibration.unrelated, not ${calibration.related}`);
  }
  return calibration;
}

/** The sides that run, from `searchType` and `hybrid`'s switches, which must agree. */
function sidesOf(searchType: SearchType | undefined, hybrid: HybridOptions) {
  const useVector = hybrid.vector ?? searchType !== 'keywords';
  const useLexical = hybrid.lexical ?? searchType !== 'vector';
  if (!useVector && !useLexical) invalid('hybrid: at least one of vector and lexical must be on');
  const named: SearchType = !useVector ? 'keywords' : !useLexical ? 'vector' : 'hybrid';
  if (searchType !== undefined && searchType !== named) {
    invalid(
      `searchType '${searchType}' contradicts hybrid.vector ${useVector} and hybrid.lexical ${useLexical}`,
    );
  }
  return { useVector, useLexical, searchType: named };
}

/** Fills in defaults and checks every option; INVALID_ARGUMENT names the first bad one. */
export function resolveSettings(options: FindOptions): Settings {
  checkOptions(findOptionsSchema, options, 'find()');
  const d = findDefaults;
  const limit = count('limit', options.limit, d.limit, 1);
  const mode = options.mode ?? d.mode;
  if (mode !== 'quick' && mode !== 'thinking') invalid(`mode must be 'quick' or 'thinking', not ${mode}`);
  const threshold = options.scoreThreshold ?? d.scoreThreshold;
  if (typeof threshold !== 'number' || Number.isNaN(threshold)) {
    invalid(`scoreThreshold must be a number, not ${threshold}`);
  }
  const hybrid = options.hybrid ?? {};
  const { useVector, useLexical, searchType } = sidesOf(options.searchType, hybrid);
  const method = hybrid.fusion ?? d.fusion;
  if (method !== 'minmax' && method !== 'zscore' && method !== 'rrf') {
    invalid(`hybrid.fusion must be 'minmax', 'zscore' or 'rrf', not ${method}`);
  }
  const normalise = hybrid.normalise ?? d.normalise;
  if (normalise !== 'by-kind' && normalise !== 'together') {
    invalid(`hybrid.normalise must be 'by-kind' or 'together', not ${normalise}`);
  }
  const hot = typeof options.hotness === 'number' ? { weight: options.hotness } : options.hotness;
  const halfLifeDays = hot?.halfLifeDays ?? d.halfLifeDays;
  if (!(halfLifeDays > 0)) invalid(`hotness.halfLifeDays must be > 0, not ${halfLifeDays}`);
  const walk = options.walk ?? {};
  return {
    limit,
    scoreThreshold: threshold,
    calibration: calibrationOf(options.calibration),
    mode,
    searchType,
    trace: options.trace ?? false,
    alpha: unit('alpha', options.alpha, d.alpha),
    placeWeight: unit('placeWeight', options.placeWeight, d.placeWeight),
    directoriesWhenAlone: (options.directories ?? d.directories) === 'when-alone',
    convergenceRounds: count('convergenceRounds', options.convergenceRounds, d.convergenceRounds(limit), 1),
    useVector,
    useLexical,
    lexicalWeight: unit('hybrid.lexicalWeight', hybrid.lexicalWeight, d.lexicalWeight),
    identifierWeight: unit('hybrid.identifierWeight', hybrid.identifierWeight, d.identifierWeight),
    method,
    rrfK: count('hybrid.rrfK', hybrid.rrfK, d.rrfK),
    candidates: count('hybrid.candidates', hybrid.candidates, d.candidates, 1),
    byKind: normalise === 'by-kind',
    exactVectors: hybrid.exact ?? false,
    hotnessWeight: unit('hotness', hot?.weight, d.hotnessWeight),
    halfLifeDays,
    now: hot?.now ?? Date.now(),
    directoriesPerRound: count(
      'walk.directoriesPerRound',
      walk.directoriesPerRound,
      d.directoriesPerRound,
      1,
    ),
    stallRounds: count('walk.stallRounds', walk.stallRounds, d.stallRounds, 1),
    minDirectories: count('walk.minDirectories', walk.minDirectories, d.minDirectories(limit)),
    maxDirectories: count('walk.maxDirectories', walk.maxDirectories, d.maxDirectories, 1),
    exactChildren: count('walk.exactChildren', walk.exactChildren, d.exactChildren, 1),
    seedDirectories: count('walk.seedDirectories', walk.seedDirectories, d.seedDirectories(limit)),
    seedLeaves: count('walk.seedLeaves', walk.seedLeaves, d.seedLeaves(limit)),
    maxRelations: count('maxRelations', options.maxRelations, d.maxRelations),
  };
}

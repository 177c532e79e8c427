// From scored candidates to what find() returns, in find()'s order: each score takes its directory's
// share (propagate), the hotness blend and the top `limit` (rank), the calibration that makes scores
// mean the same across queries (confidenceOf, calibrated), and the result items (toMatched:
// OpenViking's `MatchedContext`, its fields in camelCase; src/tools/openviking-shape.ts gives them back
// their snake_case names where Longship speaks OpenViking's formats).
import { parentOf, type VikingUri } from '../context/uri.js';
import { analyze } from '../lexical/analyzer.js';
import type { ContextType, NodeRecord } from '../store/store.js';
import { placeIndex, placeScores } from './place.js';
import type { Scope } from './scope.js';
import type { RawScores } from './score/fusion.js';
import type { Calibration, Settings } from './settings.js';
import type { RetrievalSources } from './sources.js';
import { round4 } from './trace.js';

/** What the results read of the store: a result's text and its relations. */
export type ResultSources = { store: Pick<RetrievalSources['store'], 'node' | 'relations'> };

/** A node linked to a result (`link` / `relations`), with its abstract. */
export interface RelatedContext {
  uri: string;
  abstract: string;
  reason: string;
}

/** One result: OpenViking's `MatchedContext`, its fields in camelCase. */
export interface MatchedContext {
  uri: string;
  contextType: ContextType;
  /** A file (true) or a directory (false). */
  isLeaf: boolean;
  /** The node's L0. */
  abstract: string;
  /** Memories: `preferences`, `entities`, `events`, `profile`, … (or `meta.category`); '' otherwise. */
  category: string;
  /**
   * In [0, 1]: the fused score with its directory's share (docs/guide/retrieval.md, "Where a node sits"),
   * blended with hotness when asked, and calibrated: comparable across queries ("What a score means").
   */
  score: number;
  /** Why it matched, in words: its scores on each side and the directory it was reached through. */
  matchReason: string;
  /** Up to `maxRelations` related nodes. */
  relations: RelatedContext[];
  /**
   * For a part of a paged document (a PDF), the pages its text is on, to cite ("p. 47"); absent
   * for formats without pages (docs/guide/documents.md, "Pages").
   */
  pages?: PageRange;
}

/** The first and last page (1-based, inclusive) a node's text is on. */
export interface PageRange {
  first: number;
  last: number;
}

/**
 * The pages a node's meta records (`meta.pages`, `[first, last]`), or undefined.
 *
 * @example
 * pagesOf(node); // { first: 47, last: 48 }
 */
export function pagesOf(node: NodeRecord): PageRange | undefined {
  const pages = node.meta.pages;
  if (!Array.isArray(pages) || pages.length !== 2) return undefined;
  const [first, last] = pages as unknown[];
  return typeof first === 'number' && typeof last === 'number' ? { first, last } : undefined;
}

/**
 * "p. 47" or "pp. 47–48", how a result cites its pages.
 *
 * @example
 * citePages({ first: 47, last: 48 }); // 'pp. 47–48'
 */
export function citePages({ first, last }: PageRange): string {
  return first === last ? `p. ${first}` : `pp. ${first}–${last}`;
}

/** The list of a result (find()'s and search()'s) that holds each context type. */
export const listOf: Readonly<Record<ContextType, 'memories' | 'resources' | 'skills'>> = {
  memory: 'memories',
  resource: 'resources',
  skill: 'skills',
};

/** A node kept by a search, before the final cut. */
export interface Candidate {
  node: NodeRecord;
  raw: RawScores;
  fused: number;
  /** Fused, or propagated in the walk. */
  score: number;
  /** The directory it was scored under in the walk, with that directory's score. */
  via?: { uri: string; score: number };
  /** An event memory's time decay, already in `score` (docs/guide/memory-lifecycle.md, "Decay"). */
  decay?: number;
}

export interface Ranked extends Candidate {
  final: number;
  hotness?: number;
  /** The query's calibration factor (confidenceOf), when applied. */
  confidence?: number;
}

// Where the hierarchy enters a score (docs/guide/retrieval.md, "Where a node sits"): a node keeps `α` of
// its own fused score and takes the rest from its directory, whose score is what its place says
// (place.ts) blended with its best content. The best content is the best fused score of a file
// below it among the candidates, so a directory can lift its children but never sink the best of
// them below what a directory that holds nothing better would give: the file that is plainly the
// best match in a poorly named directory still carries that directory's share at its own score.

/** The directories a score draws on: each one's parent and its place score. */
export interface Places {
  /**
   * The parent of a directory in scope (null when it has none); undefined for a URI that is not a
   * directory in scope.
   */
  parentOf(uri: string): string | null | undefined;
  /** The directory's place score, in [0, 1]. */
  score(uri: string): number;
}

/**
 * The candidates rescored: `α · fused + (1 − α) · directory`. A node whose parent is outside the
 * scope (a root) keeps its fused score, as every node does at α 1.
 *
 * @example
 * const rescored = propagate(outcome.candidates, scope, 'FY2018 capex for 3M', settings);
 */
export function propagate(
  candidates: readonly Candidate[],
  scope: Scope,
  query: string,
  settings: Pick<Settings, 'alpha' | 'placeWeight'>,
): Candidate[] {
  // The flat search: nothing to take from directories, so no place index to build.
  if (settings.alpha === 1) return candidates.map((candidate) => ({ ...candidate, score: candidate.fused }));
  const index = placeIndex(scope);
  const place = placeScores(index, query);
  const places: Places = {
    parentOf: (uri) => index.directories.get(uri)?.parent,
    score: (uri) => place.get(uri) ?? 0,
  };
  return propagateWith(candidates, places, settings);
}

/** {@link propagate} with the places given: a sharded corpus gathers them from its shards. */
export function propagateWith(
  candidates: readonly Candidate[],
  places: Places,
  settings: Pick<Settings, 'alpha' | 'placeWeight'>,
): Candidate[] {
  const { alpha, placeWeight } = settings;
  if (alpha === 1) return candidates.map((candidate) => ({ ...candidate, score: candidate.fused }));
  const best = bestBelow(candidates, places);
  const rescored: Candidate[] = [];
  for (const candidate of candidates) {
    const parent = candidate.node.parent;
    let score = candidate.fused;
    let via: Candidate['via'];
    if (parent !== null && places.parentOf(parent) !== undefined) {
      const directory = placeWeight * places.score(parent) + (1 - placeWeight) * (best.get(parent) ?? 0);
      score = alpha * candidate.fused + (1 - alpha) * directory;
      via = { uri: parent, score: directory };
    }
    rescored.push({ ...candidate, score, ...(via ? { via } : {}) });
  }
  return rescored;
}

/** The best fused score of a file candidate below each directory. */
function bestBelow(candidates: readonly Candidate[], places: Places): Map<string, number> {
  const best = new Map<string, number>();
  for (const { node, fused } of candidates) {
    if (node.kind !== 'file') continue;
    let uri = node.parent;
    while (uri !== null) {
      const parent = places.parentOf(uri);
      if (parent === undefined || (best.get(uri) ?? -1) >= fused) break;
      best.set(uri, fused);
      uri = parent;
    }
  }
  return best;
}

/** Applies the hotness blend and keeps the best `limit`, best first (ties by URI). */
export function rank(candidates: Iterable<Candidate>, settings: Settings): Ranked[] {
  const ranked: Ranked[] = [];
  for (const candidate of candidates) {
    if (settings.hotnessWeight > 0) {
      const hotness = hotnessOf(candidate.node, settings.now, settings.halfLifeDays);
      ranked.push({
        ...candidate,
        hotness,
        final: blendHotness(candidate.score, hotness, settings.hotnessWeight),
      });
    } else {
      ranked.push({ ...candidate, final: candidate.score });
    }
  }
  ranked.sort(
    (a, b) => b.final - a.final || (a.node.uri < b.node.uri ? -1 : a.node.uri > b.node.uri ? 1 : 0),
  );
  if (!settings.directoriesWhenAlone) return ranked.slice(0, settings.limit);
  // A directory whose file ranks near it would spend a slot on a summary of what that file says.
  // A skill's folder is the skill itself (its SKILL.md is one of its files), so it always competes.
  const near = ranked.slice(0, 2 * settings.limit);
  const covered = new Set<string>();
  for (const { node } of near) {
    if (node.kind !== 'file' || node.contextType === 'skill') continue;
    let uri = node.parent as VikingUri | undefined | null;
    for (; uri && !covered.has(uri); uri = parentOf(uri)) covered.add(uri);
  }
  return ranked
    .filter((item) => item.node.kind === 'file' || !covered.has(item.node.uri))
    .slice(0, settings.limit);
}

// docs/guide/retrieval.md, "Hotness": a node used often and recently is "hot". The blend is off by default: no
// dataset here records usage, so no weight could be chosen by measurement.

const DAY_MS = 86_400_000;

/**
 * `(n / (n + 1)) · exp(−ln 2 · age_days / halfLifeDays)`: `n` is the node's use count, the age runs
 * from its last use (its last update if never used). In [0, 1); 0 for a node never used.
 *
 * @example
 * hotnessOf({ useCount: 3, updatedAt: now, lastUsedAt: now - 7 * 86_400_000 }, now); // 0.375
 */
export function hotnessOf(
  node: Pick<NodeRecord, 'useCount' | 'updatedAt' | 'lastUsedAt'>,
  now: number,
  halfLifeDays = 7,
): number {
  const n = Math.max(0, node.useCount);
  if (n === 0) return 0;
  const ageDays = Math.max(0, now - (node.lastUsedAt ?? node.updatedAt)) / DAY_MS;
  return (n / (n + 1)) * Math.exp((-Math.LN2 * ageDays) / halfLifeDays);
}

/** `(1 − weight) · score + weight · hotness`. */
export function blendHotness(score: number, hotness: number, weight: number): number {
  return (1 - weight) * score + weight * hotness;
}

// Scores that mean the same across queries (docs/guide/retrieval.md, "What a score means"). Fusion
// normalises each side against the query's own best matches, so the best hit of any query scores
// near 1, however poor it is. The calibration scales a query's scores by how good its best hit is
// in absolute terms: how much closer to the query than unrelated text its best chunk is (the cosine
// similarity mapped from what the embedder gives unrelated text, 0, to what it gives a relevant
// passage, 1), and the share of the query's terms the first result holds, as their geometric mean.
// Neither alone tells a
// corpus's own questions from others': a question about another corpus often finds a passage on a
// near topic (a high similarity) or one that repeats its common words (a high share), seldom both.
// The order of a query's results never changes; `noGoodMatch` can then say "no good match".

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * The least term share the confidence counts: a question that shares no word with its answer
 * ("how did Norsemen cross the sea?" of a page on longships) is still ranked, and scored, by its
 * similarity, at the score of a passage holding a fifth of the query's terms.
 */
const SHARE_FLOOR = 0.2;

/**
 * How good the best of `ranked` is, in [0, 1]: the geometric mean of the mapped similarity of the
 * best similarity among them and the share of the query's terms in the first result's text, counted
 * as at least {@link SHARE_FLOOR} (a similarity at 0 makes it 0; both high, high). Where nothing was compared
 * by vector (the vector side off), the term share alone, counted from one half: a hit that has half
 * of a long question's words is common.
 *
 * @example
 * const confidence = await confidenceOf(sources, 'what does the user like?', ranked, findDefaults.calibration);
 */
export async function confidenceOf(
  sources: ResultSources,
  query: string,
  ranked: readonly Ranked[],
  calibration: Calibration,
): Promise<number> {
  const first = ranked[0];
  if (!first) return 0;
  let similarity = Number.NEGATIVE_INFINITY;
  for (const item of ranked)
    if (item.raw.vector !== undefined) similarity = Math.max(similarity, item.raw.vector);
  const span = calibration.related - calibration.unrelated;
  const compared = similarity !== Number.NEGATIVE_INFINITY;
  const semantic = compared ? clamp01((similarity - calibration.unrelated) / span) : 0;
  const terms = new Set(analyze(query));
  if (terms.size === 0) return semantic;
  if (compared && semantic === 0) return 0;
  const node = await sources.store.node(first.node.uri);
  const title = typeof node?.meta.title === 'string' ? node.meta.title : '';
  const words = new Set(
    analyze(`${node?.name ?? ''} ${title} ${node?.l0 ?? ''} ${node?.l2 ?? node?.l1 ?? ''}`),
  );
  let found = 0;
  for (const term of terms) if (words.has(term)) found++;
  const share = found / terms.size;
  return compared ? Math.sqrt(semantic * Math.max(share, SHARE_FLOOR)) : clamp01((share - 0.5) / 0.5);
}

/**
 * The ranked items with their final scores scaled by `confidence`, those at or under a threshold
 * above 0 dropped: at the default 0, a query without a good match still gets its best tries,
 * scored 0 when they are no better than unrelated text. The order stays.
 */
export function calibrated(ranked: readonly Ranked[], confidence: number, threshold: number): Ranked[] {
  const scaled = ranked.map((item) => ({ ...item, confidence, final: item.final * confidence }));
  return threshold > 0 ? scaled.filter((item) => item.final > threshold) : scaled;
}

/** `preferences` for `viking://user/default/memories/preferences/x`, `profile` for `…/memories/profile`. */
export function categoryOf(node: NodeRecord): string {
  if (typeof node.meta.category === 'string') return node.meta.category;
  if (node.contextType !== 'memory') return '';
  return /\/memories\/([^/]+)/.exec(node.uri)?.[1] ?? '';
}

function reasonOf(item: Ranked): string {
  const parts = [`bm25 ${round4(item.raw.lexical)}`];
  if (item.raw.vector !== undefined) parts.push(`similarity ${round4(item.raw.vector)}`);
  let reason = `${parts.join(', ')} → fused ${round4(item.fused)}`;
  if (item.via) reason += `; under ${item.via.uri} (${round4(item.via.score)}) → ${round4(item.score)}`;
  if (item.decay !== undefined) reason += `; decay ${round4(item.decay)} → ${round4(item.score)}`;
  if (item.hotness !== undefined) {
    const blended = item.confidence === undefined ? item.final : item.final / item.confidence;
    reason += `; hotness ${round4(item.hotness)} → ${round4(blended)}`;
  }
  if (item.confidence !== undefined)
    reason += `; confidence ${round4(item.confidence)} → ${round4(item.final)}`;
  return reason;
}

async function relationsOf(sources: ResultSources, uri: string, max: number): Promise<RelatedContext[]> {
  if (max === 0) return [];
  // A link both ways is listed once, under its first reason.
  const others = new Map<string, string>();
  for (const record of await sources.store.relations(uri)) {
    const other = record.from === uri ? record.to : record.from;
    if (!others.has(other)) others.set(other, record.reason);
    if (others.size === max) break;
  }
  return Promise.all(
    [...others].map(async ([other, reason]) => ({
      uri: other,
      abstract: (await sources.store.node(other))?.l0 ?? '',
      reason,
    })),
  );
}

/** The result items, with relations read from the store. */
export function toMatched(
  sources: ResultSources,
  ranked: readonly Ranked[],
  settings: Settings,
): Promise<MatchedContext[]> {
  return Promise.all(
    ranked.map(async (item) => {
      const pages = pagesOf(item.node);
      return {
        uri: item.node.uri,
        contextType: item.node.contextType,
        isLeaf: item.node.kind === 'file',
        abstract: item.node.l0,
        category: categoryOf(item.node),
        score: item.final,
        matchReason: reasonOf(item),
        relations: await relationsOf(sources, item.node.uri, settings.maxRelations),
        ...(pages ? { pages } : {}),
      };
    }),
  );
}

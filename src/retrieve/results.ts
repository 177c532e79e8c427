// From scored candidates to what find() returns: the hotness blend, the top `limit`, relations,
// and the OpenViking result shape (snake_case fields, kept because its users know them).
import { parentOf, type VikingUri } from '../context/uri.js';
import type { ContextType, NodeRecord } from '../store/store.js';
import { blendHotness, hotnessOf } from './hotness.js';
import type { RawScores } from './score/fusion.js';
import type { Settings } from './settings.js';
import type { RetrievalSources } from './sources.js';
import { round4 } from './trace.js';

/** A node linked to a result (`link` / `relations`), with its abstract. */
export interface RelatedContext {
  uri: string;
  abstract: string;
  reason: string;
}

/** One result. Field names follow OpenViking's `MatchedContext`; they are the canonical ones. */
export interface MatchedContext {
  uri: string;
  context_type: ContextType;
  /** A file (true) or a directory (false). */
  is_leaf: boolean;
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
  match_reason: string;
  /** Up to `maxRelations` related nodes. */
  relations: RelatedContext[];
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
}

export interface Ranked extends Candidate {
  final: number;
  hotness?: number;
  /** The query's calibration factor (calibrate.ts), when applied. */
  confidence?: number;
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

/** `preferences` for `viking://user/memories/preferences/x`, `profile` for `…/memories/profile`. */
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
  if (item.hotness !== undefined) {
    const blended = item.confidence === undefined ? item.final : item.final / item.confidence;
    reason += `; hotness ${round4(item.hotness)} → ${round4(blended)}`;
  }
  if (item.confidence !== undefined)
    reason += `; confidence ${round4(item.confidence)} → ${round4(item.final)}`;
  return reason;
}

async function relationsOf(sources: RetrievalSources, uri: string, max: number): Promise<RelatedContext[]> {
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
  sources: RetrievalSources,
  ranked: readonly Ranked[],
  settings: Settings,
): Promise<MatchedContext[]> {
  return Promise.all(
    ranked.map(async (item) => ({
      uri: item.node.uri,
      context_type: item.node.contextType,
      is_leaf: item.node.kind === 'file',
      abstract: item.node.l0,
      category: categoryOf(item.node),
      score: item.final,
      match_reason: reasonOf(item),
      relations: await relationsOf(sources, item.node.uri, settings.maxRelations),
    })),
  );
}

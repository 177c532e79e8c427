/**
 * context() (docs/guide/context.md): the context for an agent's next prompt under a token budget. The
 * house's retrieval (search(), which is find() without an LLM) ranks the hits; each is shown at the
 * richest layer that fits (pack.ts), minus what this session was already given; the result is a
 * prompt-ready block with its parts, their URIs to cite, and what was left out and why.
 */
import { raceAbort, throwIfAborted } from '../abort.js';
import { LongshipError } from '../errors.js';
import { fnv1a64 } from '../ingest/hash.js';
import { analyze } from '../lexical/analyzer.js';
import type { LLM } from '../llm/llm.js';
import { checkOptions } from '../options.js';
import type { MatchedContext } from '../retrieve/results.js';
import type { ContextSearchOptions, SearchResult } from '../retrieve/search.js';
import type { FullStore } from '../store/full-store.js';
import type { ContextType, NodeRecord } from '../store/store.js';
import { type AssembledContext, type ContextOptions, contextOptionsSchema } from './context-options.js';
import type { DeliveredLedger } from './delivered.js';
import { digestBlock } from './digest.js';
import { type Candidate, type LeftOut, pack, type Quotas } from './pack.js';
import { byShowingOrder, type Layer } from './render.js';
import { abortableTokenizer, defaultTokenizer, defaultTokenizerName } from './tokenizer.js';

/** What context() runs on: the engine's search(), its store, where deliveries are kept, the LLM. */
export interface AssembleDeps {
  /** Where the hits' layers are read: a store, or a corpus's shards. */
  store: Pick<FullStore, 'node'>;
  search(query: string, options: ContextSearchOptions): Promise<SearchResult>;
  delivered: DeliveredLedger;
  llm?: LLM;
  /** The default `scoreThreshold`: `findDefaults.noGoodMatch` where scores are calibrated for the embedder. */
  noGoodMatch: number;
}

const richestFirst: readonly Layer[] = ['L2', 'L1', 'L0'];
export const defaultCandidates = 10;

/**
 * The context for `query` within `options.budget.tokens`. Fails with INVALID_ARGUMENT for a budget
 * that is not a whole number ≥ 1 (nothing is searched or recorded), an unknown option, or a digest
 * asked of a Longship without an LLM; ABORTED when `signal` fires, even while a tokenizer's
 * asynchronous count never answers.
 *
 * @example
 * const { text, parts } = await assembleContext(deps, 'retry policy', { budget: { tokens: 1000 } });
 */
export async function assembleContext(
  deps: AssembleDeps,
  query: string,
  options: ContextOptions,
): Promise<AssembledContext> {
  if (typeof query !== 'string') {
    throw new LongshipError('INVALID_ARGUMENT', `context() needs a query string, not ${typeof query}`);
  }
  if (options === undefined) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      'context() needs options with a budget: { budget: 2000 } or { budget: { tokens: 2000 } }',
    );
  }
  const checked = checkOptions(contextOptionsSchema, options, 'context()');
  if (checked.digest && !deps.llm) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      'context(): a digest needs an LLM (openLongship({ llm })); without one, use the block as it is',
    );
  }
  const { signal } = options;
  const budget = checked.budget.tokens;
  const chosen = options.tokenizer ?? (await raceAbort(defaultTokenizer(), [signal], 'context()'));
  const tokenizer = abortableTokenizer(chosen, signal);
  const session = options.session;
  const sessionId = typeof session === 'string' ? session : session?.id;
  const delivered =
    sessionId === undefined ? new Map() : await deps.delivered.readDelivered(deps.store, sessionId);
  throwIfAborted(signal, 'context()');

  const found = await deps.search(query, {
    limit: checked.candidates ?? defaultCandidates,
    maxRelations: 0,
    ...(checked.targetUri === undefined ? {} : { targetUri: checked.targetUri }),
    ...(options.filter ? { filter: options.filter } : {}),
    ...(checked.mode ? { mode: checked.mode } : {}),
    ...(typeof session === 'object' && typeof session.context === 'function'
      ? { session: session as Required<typeof session> }
      : {}),
    ...(signal ? { signal } : {}),
  });
  const threshold = checked.scoreThreshold ?? deps.noGoodMatch;
  const ranked = [...found.memories, ...found.resources, ...found.skills].sort(
    (a, b) => b.score - a.score || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0),
  );
  // At 0 nothing is dropped, as in find(): a hit scored 0 is still a best try.
  const weakest = (hit: MatchedContext) => threshold > 0 && hit.score <= threshold;
  const hits = ranked.filter((hit) => !weakest(hit));
  const weak: LeftOut[] = ranked
    .filter(weakest)
    .map((hit) => ({ ...identity(hit), reason: 'no-good-match' }));
  const nodes = await Promise.all(hits.map((hit) => deps.store.node(hit.uri)));
  throwIfAborted(signal, 'context()');

  const maxLayer = checked.maxLayer ?? 'L2';
  const { candidates, skipped, seen } = candidatesOf(hits, nodes, delivered, maxLayer);

  const quotas: Quotas = {
    memory: checked.quotas?.memories,
    resource: checked.quotas?.resources,
    skill: checked.quotas?.skills,
  };
  const packed = await pack(candidates, budget, quotas, tokenizer, new Set(analyze(query)));
  throwIfAborted(signal, 'context()');
  if (sessionId !== undefined && packed.parts.length > 0) {
    const l2 = new Map(hits.map((hit, i) => [hit.uri, nodes[i]?.l2 ?? '']));
    const entries = packed.parts.map((part) => ({
      uri: part.uri,
      hash: part.excerpt
        ? `${excerptTag} ${fnv1a64(l2.get(part.uri)!.trim())}`
        : deliveredHash(part.layer, part.text),
    }));
    await deps.delivered.recordDelivered(deps.store, sessionId, entries);
  }
  const byRank = new Map(hits.map((hit, i) => [hit.uri, i]));
  const result: AssembledContext = {
    text: packed.text,
    tokens: packed.tokens,
    budget: { tokens: budget },
    tokenizer: chosen.name ?? (options.tokenizer ? 'custom' : defaultTokenizerName),
    parts: [...packed.parts].sort(byShowingOrder),
    leftOut: [
      ...[...skipped, ...packed.leftOut.map((left) => deliveredBefore(left, seen))].sort(
        (a, b) => byRank.get(a.uri)! - byRank.get(b.uri)!,
      ),
      ...weak,
    ],
  };
  if (checked.digest && deps.llm && packed.parts.length > 0) {
    result.digest = await digestBlock(
      deps.llm,
      query,
      { text: packed.text, uris: packed.parts.map((part) => part.uri) },
      budget,
      tokenizer,
      { ...(typeof checked.digest === 'object' ? checked.digest : {}), ...(signal ? { signal } : {}) },
    );
  }
  return result;
}

/**
 * The hits as candidates, each with the layers it may still be shown at (those of `maxLayer` and
 * below, less what this session was given); those with none left are `skipped` as delivered.
 * `seen`: every hit an earlier turn was given, and as what.
 */
function candidatesOf(
  hits: readonly MatchedContext[],
  nodes: readonly (NodeRecord | undefined)[],
  delivered: ReadonlyMap<string, string>,
  maxLayer: Layer,
): { candidates: Candidate[]; skipped: LeftOut[]; seen: Map<string, string> } {
  const richest = richestFirst.indexOf(maxLayer);
  const candidates: Candidate[] = [];
  const skipped: LeftOut[] = [];
  const seen = new Map<string, string>();
  hits.forEach((hit, i) => {
    const node = nodes[i];
    // Gone since the search ranked it (removed by another caller): nothing to show.
    if (!node) return;
    const all = layersOf(node);
    const before = delivered.get(hit.uri);
    const unseen = before === undefined ? { layers: all, excerpts: true } : newerThan(all, before);
    const layers = unseen.layers.filter(({ layer }) => richestFirst.indexOf(layer) >= richest);
    // A node that changed since comes back whole; left out now, it is the budget's, not delivered.
    if (before !== undefined && unchangedSince(all, before)) seen.set(hit.uri, shownAs(before));
    if (layers.length === 0 && before !== undefined && all.length > 0) {
      skipped.push({ ...identity(hit), reason: 'delivered', detail: shownAs(before) });
      return;
    }
    const excerpts = unseen.excerpts && layers[0]?.layer === 'L2';
    if (layers.length > 0)
      candidates.push({ ...identity(hit), layers, excerpts, ...(hit.pages ? { pages: hit.pages } : {}) });
  });
  return { candidates, skipped, seen };
}

function identity(hit: MatchedContext): { uri: string; type: ContextType; score: number } {
  return { uri: hit.uri, type: hit.contextType, score: hit.score };
}

/** The node's non-empty layers, richest first: a directory has no L2. */
function layersOf(node: NodeRecord): Candidate['layers'] {
  const texts: Record<Layer, string | undefined> = {
    L2: node.kind === 'file' ? node.l2 : undefined,
    L1: node.l1,
    L0: node.l0,
  };
  return richestFirst
    .map((layer) => ({ layer, text: texts[layer]?.trim() ?? '' }))
    .filter(({ text }) => text !== '');
}

/** How the ledger marks an excerpt of an L2: `L2~`, with the hash of the whole L2 it came from. */
const excerptTag = 'L2~';

/**
 * What an earlier turn's `before` (`layer hash`) leaves to show: nothing new while that layer's
 * text is unchanged, except the richer layers (after an excerpt: the whole L2 only); everything
 * once it changed.
 */
function newerThan(layers: Candidate['layers'], before: string): Pick<Candidate, 'layers' | 'excerpts'> {
  if (!unchangedSince(layers, before)) return { layers, excerpts: true };
  const [tag = ''] = before.split(' ');
  const layer = (tag === excerptTag ? 'L2' : tag) as Layer;
  const then = layers.find((candidate) => candidate.layer === layer)!;
  const richer = layers.filter(
    (candidate) => richestFirst.indexOf(candidate.layer) < richestFirst.indexOf(layer),
  );
  if (tag === excerptTag) return { layers: [then], excerpts: false };
  return { layers: richer, excerpts: richer[0]?.layer === 'L2' };
}

/** Whether the layer an earlier turn's `before` (`layer hash`) gave still has the text it gave. */
function unchangedSince(layers: Candidate['layers'], before: string): boolean {
  const [tag = '', hash] = before.split(' ');
  const layer = (tag === excerptTag ? 'L2' : tag) as Layer;
  const then = layers.find((candidate) => candidate.layer === layer);
  return then !== undefined && deliveredHash(layer, then.text) === `${layer} ${hash}`;
}

/** `L2 excerpt` for an excerpt's tag, else the layer. */
function shownAs(before: string): string {
  const [tag = ''] = before.split(' ');
  return tag === excerptTag ? 'L2 excerpt' : tag;
}

/**
 * A hit left out for the budget that an earlier turn was given (what is left to show of it is its
 * richer layers, and none fits) is reported as delivered: that is why the agent is not missing it.
 */
function deliveredBefore(left: LeftOut, seen: ReadonlyMap<string, string>): LeftOut {
  const shown = seen.get(left.uri);
  if (left.reason !== 'budget' || shown === undefined) return left;
  return { uri: left.uri, type: left.type, score: left.score, reason: 'delivered', detail: shown };
}

/** What the ledger keeps for a part: its layer and a hash of its text, `L2 fnv1a64:…`. */
function deliveredHash(layer: Layer, text: string): string {
  return `${layer} ${fnv1a64(text.trim())}`;
}

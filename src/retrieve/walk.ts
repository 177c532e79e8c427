// THINKING mode: the hierarchical walk (docs/retrieval.md, "THINKING: the walk"). A global search
// over the scope's directories (and, beyond OpenViking, the parents of the best leaves) seeds a
// max-priority queue with the roots; each popped directory's children are scored exactly with the
// fused score, and `α · child + (1 − α) · parent` decides what is kept and which subdirectories are
// queued.
import { LongshipError } from '../errors.js';
import type { NodeRecord } from '../store/store.js';
import { PriorityQueue } from './priority-queue.js';
import type { Candidate } from './results.js';
import { type FindFilter, filterPredicate } from './scope.js';
import { type SearchContext, type SearchOutcome, traceScore } from './search-context.js';
import { topBy } from './top.js';
import { round4, type StopReason, type TraceScore, type Verdict } from './trace.js';

interface Entry {
  uri: string;
  node: NodeRecord;
  /** The directory's score, handed down to its children. */
  score: number;
  /** Its place in the queue: its score, or the score of a leaf hit below it when higher. */
  priority: number;
}

export async function walk(context: SearchContext, filter: FindFilter | undefined): Promise<SearchOutcome> {
  const { scope, scorer, settings, trace, signal } = context;
  const { alpha, scoreThreshold: threshold } = settings;
  const queue = new PriorityQueue<Entry>();
  const queued = new Map<string, number>();
  const visited = new Set<string>();
  const candidates = new Map<string, Candidate>();
  const byUri = new Map(scope.nodes.map((node) => [node.uri, node]));
  for (const root of scope.roots) byUri.set(root.uri, root);

  const push = (entry: Entry): boolean => {
    if (visited.has(entry.uri) || (queued.get(entry.uri) ?? Number.NEGATIVE_INFINITY) >= entry.priority) {
      return false;
    }
    queued.set(entry.uri, entry.priority);
    queue.push(entry);
    return true;
  };
  /** Keeps the best score per URI; says what became of this one. */
  const matches = filterPredicate(filter);
  const offer = (candidate: Candidate): Verdict => {
    if (candidate.score <= threshold) return 'below-threshold';
    if (!matches(candidate.node)) return 'filtered';
    const seen = candidates.get(candidate.node.uri);
    if (seen && seen.score >= candidate.score) return 'better-elsewhere';
    candidates.set(candidate.node.uri, candidate);
    return 'kept';
  };

  // Seeds: the best directories in scope, the roots (score 0 unless found), the best leaves' parents.
  const directories = scope.nodes.filter((node) => node.kind === 'dir');
  const seeded = new Map<string, number>();
  for (const hit of scorer.best(directories, settings.seedDirectories)) {
    seeded.set(hit.node.uri, hit.fused);
    offer({ ...hit, score: hit.fused });
    push({ uri: hit.node.uri, node: hit.node, score: hit.fused, priority: hit.fused });
    trace?.seeds.push({ uri: hit.node.uri, score: round4(hit.fused), from: 'directory' });
  }
  for (const root of scope.roots) {
    if (root.kind === 'file') {
      const [scored] = scorer.score([root]);
      if (scored) offer({ ...scored, score: scored.fused });
      continue;
    }
    const score = seeded.get(root.uri) ?? 0;
    push({ uri: root.uri, node: root, score, priority: score });
    trace?.seeds.push({ uri: root.uri, score: round4(score), from: 'root' });
  }
  if (settings.seedLeaves > 0) {
    const leaves = scope.nodes.filter((node) => node.kind === 'file');
    const parents = new Map<string, number>();
    for (const hit of scorer.best(leaves, settings.seedLeaves)) {
      const parent = hit.node.parent;
      if (parent !== null && byUri.get(parent)?.kind === 'dir' && !parents.has(parent)) {
        parents.set(parent, hit.fused);
      }
    }
    const parentNodes = [...parents.keys()].map((uri) => byUri.get(uri)!);
    for (const scored of scorer.score(parentNodes)) {
      const uri = scored.node.uri;
      // A root keeps its seed score (0 unless the directory search found it), as OpenViking's walk does.
      const root = scope.roots.some((r) => r.uri === uri);
      const score = seeded.get(uri) ?? (root ? 0 : scored.fused);
      const priority = Math.max(score, parents.get(uri)!);
      if (push({ uri, node: scored.node, score, priority })) {
        trace?.seeds.push({ uri, score: round4(priority), from: 'leaf' });
      }
    }
  }

  let rounds = 0;
  let unchanged = 0;
  let stalled = 0;
  let lastTop = '';
  let lastSize = candidates.size;
  let reason: StopReason = 'queue-empty';
  while (queue.size > 0) {
    if (signal?.aborted) throw new LongshipError('ABORTED', 'find() was aborted', { cause: signal.reason });
    const batch: Entry[] = [];
    while (batch.length < settings.directoriesPerRound && queue.size > 0) {
      const entry = queue.pop()!;
      if (visited.has(entry.uri)) continue;
      visited.add(entry.uri);
      batch.push(entry);
    }
    if (batch.length === 0) break;
    rounds++;
    for (const entry of batch) {
      const children = scope.children.get(entry.uri) ?? [];
      const traced: TraceScore[] = [];
      for (const scored of scorer.score(children)) {
        const score = alpha * scored.fused + (1 - alpha) * entry.score;
        const verdict = offer({ ...scored, score, via: { uri: entry.uri, score: entry.score } });
        let pushed = false;
        if (scored.node.kind === 'dir' && score > threshold) {
          pushed = push({ uri: scored.node.uri, node: scored.node, score, priority: score });
        }
        if (trace) {
          const line = traceScore(scored, score, verdict);
          if (scored.node.kind === 'dir') line.queued = pushed;
          traced.push(line);
        }
      }
      trace?.steps.push({
        round: rounds,
        uri: entry.uri,
        score: round4(entry.score),
        priority: round4(entry.priority),
        children: traced,
      });
    }

    // Stopping rules; neither convergence nor a stalled pool counts before minDirectories.
    const top = topUris(candidates, settings.limit);
    unchanged = top === lastTop ? unchanged + 1 : 0;
    stalled = candidates.size === lastSize ? stalled + 1 : 0;
    lastTop = top;
    lastSize = candidates.size;
    if (visited.size >= settings.maxDirectories) {
      reason = 'max-directories';
      break;
    }
    if (visited.size >= settings.minDirectories) {
      if (unchanged >= settings.convergenceRounds) {
        reason = 'converged';
        break;
      }
      if (stalled >= settings.stallRounds) {
        reason = 'pool-stalled';
        break;
      }
    }
  }
  return { candidates: [...candidates.values()], stop: { reason, rounds, directoriesVisited: visited.size } };
}

/** The URIs of the best `limit` candidates, as one string to compare between rounds. */
function topUris(candidates: ReadonlyMap<string, Candidate>, limit: number): string {
  const better = (a: Candidate, b: Candidate) =>
    a.score > b.score || (a.score === b.score && a.node.uri < b.node.uri);
  return topBy(candidates.values(), limit, better)
    .map((c) => c.node.uri)
    .join('\n');
}

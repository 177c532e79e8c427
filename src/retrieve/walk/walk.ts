// THINKING mode: the hierarchical walk (docs/guide/retrieval.md, "THINKING: the walk"). A global search
// over the scope's directories (and, beyond OpenViking, the parents of the best leaves) seeds a
// max-priority queue with the roots; each popped directory's children are scored exactly with the
// fused score, and `α · child + (1 − α) · parent` decides what is kept and which subdirectories are
// queued.
import { throwIfAborted } from '../../abort.js';
import type { NodeRecord } from '../../store/store.js';
import type { Candidate } from '../results.js';
import { type FindFilter, filterPredicate } from '../scope.js';
import { topBy } from '../score/top.js';
import { round4, type StopReason, type TraceScore, type Verdict } from '../trace.js';
import { PriorityQueue } from './priority-queue.js';
import { type SearchContext, type SearchOutcome, traceScore } from './search-context.js';

interface Entry {
  uri: string;
  node: NodeRecord;
  /** The directory's score, handed down to its children. */
  score: number;
  /** Its place in the queue: its score, or the score of a leaf hit below it when higher. */
  priority: number;
}

export async function walk(context: SearchContext, filter: FindFilter | undefined): Promise<SearchOutcome> {
  const state = new WalkState(context, filter);
  state.seed();
  const stop = state.run();
  return { candidates: [...state.candidates.values()], stop };
}

/** One walk: the queue of directories, those visited, and the best candidate per URI. */
class WalkState {
  readonly candidates = new Map<string, Candidate>();
  readonly #queue = new PriorityQueue<Entry>();
  readonly #queued = new Map<string, number>();
  readonly #visited = new Set<string>();
  readonly #matches: (node: NodeRecord) => boolean;

  constructor(
    private readonly context: SearchContext,
    filter: FindFilter | undefined,
  ) {
    this.#matches = filterPredicate(filter);
  }

  /** Queues a directory unless it was visited or is queued at this priority or higher. */
  #push(entry: Entry): boolean {
    const queued = this.#queued.get(entry.uri) ?? Number.NEGATIVE_INFINITY;
    if (this.#visited.has(entry.uri) || queued >= entry.priority) return false;
    this.#queued.set(entry.uri, entry.priority);
    this.#queue.push(entry);
    return true;
  }

  /** Keeps the best score per URI; says what became of this one. */
  #offer(candidate: Candidate): Verdict {
    if (candidate.score <= this.context.settings.scoreThreshold) return 'below-threshold';
    if (!this.#matches(candidate.node)) return 'filtered';
    const seen = this.candidates.get(candidate.node.uri);
    if (seen && seen.score >= candidate.score) return 'better-elsewhere';
    this.candidates.set(candidate.node.uri, candidate);
    return 'kept';
  }

  /** Seeds: the best directories in scope, the roots (score 0 unless found), the best leaves' parents. */
  seed(): void {
    const { scope, scorer, settings, trace } = this.context;
    const directories = scope.nodes.filter((node) => node.kind === 'dir');
    const seeded = new Map<string, number>();
    for (const hit of scorer.best(directories, settings.seedDirectories)) {
      seeded.set(hit.node.uri, hit.fused);
      this.#offer({ ...hit, score: hit.fused });
      this.#push({ uri: hit.node.uri, node: hit.node, score: hit.fused, priority: hit.fused });
      trace?.seeds.push({ uri: hit.node.uri, score: round4(hit.fused), from: 'directory' });
    }
    for (const root of scope.roots) {
      if (root.kind === 'file') {
        const [scored] = scorer.score([root]);
        if (scored) this.#offer({ ...scored, score: scored.fused });
        continue;
      }
      const score = seeded.get(root.uri) ?? 0;
      this.#push({ uri: root.uri, node: root, score, priority: score });
      trace?.seeds.push({ uri: root.uri, score: round4(score), from: 'root' });
    }
    if (settings.seedLeaves > 0) this.#seedLeafParents(seeded);
  }

  /** Beyond OpenViking: the parents of the best leaves, queued at the best of their leaves' scores. */
  #seedLeafParents(seeded: ReadonlyMap<string, number>): void {
    const { scope, scorer, settings, trace } = this.context;
    const byUri = new Map(scope.nodes.map((node) => [node.uri, node]));
    for (const root of scope.roots) byUri.set(root.uri, root);
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
      if (this.#push({ uri, node: scored.node, score, priority })) {
        trace?.seeds.push({ uri, score: round4(priority), from: 'leaf' });
      }
    }
  }

  /** Walks round by round until the queue is empty or a stopping rule holds. */
  run(): SearchOutcome['stop'] {
    const { settings, signal } = this.context;
    let rounds = 0;
    let unchanged = 0;
    let stalled = 0;
    let lastTop = '';
    let lastSize = this.candidates.size;
    let reason: StopReason = 'queue-empty';
    while (this.#queue.size > 0) {
      throwIfAborted(signal, 'find()');
      const batch = this.#nextBatch();
      if (batch.length === 0) break;
      rounds++;
      for (const entry of batch) this.#expand(entry, rounds);

      // Stopping rules; neither convergence nor a stalled pool counts before minDirectories.
      const top = topUris(this.candidates, settings.limit);
      unchanged = top === lastTop ? unchanged + 1 : 0;
      stalled = this.candidates.size === lastSize ? stalled + 1 : 0;
      lastTop = top;
      lastSize = this.candidates.size;
      if (this.#visited.size >= settings.maxDirectories) {
        reason = 'max-directories';
        break;
      }
      if (this.#visited.size >= settings.minDirectories) {
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
    return { reason, rounds, directoriesVisited: this.#visited.size };
  }

  /** Up to `directoriesPerRound` directories not visited yet, best first, now marked visited. */
  #nextBatch(): Entry[] {
    const batch: Entry[] = [];
    while (batch.length < this.context.settings.directoriesPerRound && this.#queue.size > 0) {
      const entry = this.#queue.pop()!;
      if (this.#visited.has(entry.uri)) continue;
      this.#visited.add(entry.uri);
      batch.push(entry);
    }
    return batch;
  }

  /** Scores a directory's children, offers them, and queues the subdirectories above the threshold. */
  #expand(entry: Entry, round: number): void {
    const { scope, scorer, settings, trace } = this.context;
    const { alpha, scoreThreshold: threshold } = settings;
    const children = scope.children.get(entry.uri) ?? [];
    const traced: TraceScore[] = [];
    for (const scored of scorer.score(children)) {
      const score = alpha * scored.fused + (1 - alpha) * entry.score;
      const verdict = this.#offer({ ...scored, score, via: { uri: entry.uri, score: entry.score } });
      let pushed = false;
      if (scored.node.kind === 'dir' && score > threshold) {
        pushed = this.#push({ uri: scored.node.uri, node: scored.node, score, priority: score });
      }
      if (trace) {
        const line = traceScore(scored, score, verdict);
        if (scored.node.kind === 'dir') line.queued = pushed;
        traced.push(line);
      }
    }
    trace?.steps.push({
      round,
      uri: entry.uri,
      score: round4(entry.score),
      priority: round4(entry.priority),
      children: traced,
    });
  }
}

/** The URIs of the best `limit` candidates, as one string to compare between rounds. */
function topUris(candidates: ReadonlyMap<string, Candidate>, limit: number): string {
  const better = (a: Candidate, b: Candidate) =>
    a.score > b.score || (a.score === b.score && a.node.uri < b.node.uri);
  return topBy(candidates.values(), limit, better)
    .map((c) => c.node.uri)
    .join('\n');
}

// Draws a whole find() trace as a tree, for whoever wants every number: the roots, each directory the walk popped (in order, with its
// score), the children it scored under it (kept or pruned, and why), the directories queued but
// never visited, and why the walk stopped. QUICK mode has no walk: its scored nodes are listed flat.
import type { FindTrace, TraceScore } from '../../src/retrieve/trace.js';
import { h, score3 } from './dom.js';

interface TreeItem {
  uri: string;
  kind: 'dir' | 'file';
  score?: TraceScore;
  /** The order (1-based) in which the walk popped this directory. */
  visited?: number;
  visitedScore?: number;
  seed?: FindTrace['seeds'][number];
  result?: number;
  children: TreeItem[];
}

const verdictText: Record<TraceScore['verdict'], string> = {
  kept: 'kept',
  'below-threshold': 'not kept: scored too low to be a result',
  filtered: 'filtered out',
  'better-elsewhere': 'scored higher elsewhere',
};

const stopText: Record<FindTrace['stop']['reason'], string> = {
  flat: 'flat search (QUICK mode)',
  empty: 'nothing to search',
  'queue-empty': 'queue empty',
  converged: 'converged: the top results stopped changing',
  'pool-stalled': 'the candidate pool stopped growing',
  'max-directories': 'reached the directory limit',
};

const parentUri = (uri: string) => uri.slice(0, uri.lastIndexOf('/'));
const nameOf = (uri: string, under?: string) =>
  under && uri.startsWith(`${under}/`) ? uri.slice(under.length + 1) : uri.replace('viking://', '');

function buildTree(trace: FindTrace): TreeItem[] {
  const items = new Map<string, TreeItem>();
  const item = (uri: string, kind: 'dir' | 'file'): TreeItem => {
    let found = items.get(uri);
    if (!found) {
      found = { uri, kind, children: [] };
      items.set(uri, found);
    }
    return found;
  };
  const roots = trace.roots.map((uri) => item(uri, 'dir'));
  trace.steps.forEach((step, i) => {
    const dir = item(step.uri, 'dir');
    dir.visited = i + 1;
    dir.visitedScore = step.score;
    for (const child of step.children) {
      const node = item(child.uri, child.kind);
      // A node scored twice keeps the score it was kept with, or its best.
      if (!node.score || (child.verdict === 'kept' && node.score.verdict !== 'kept')) node.score = child;
    }
  });
  for (const scored of trace.scored) item(scored.uri, scored.kind).score ??= scored;
  for (const seed of trace.seeds) {
    const node = items.get(seed.uri) ?? item(seed.uri, 'dir');
    node.seed ??= seed;
  }
  trace.results.forEach((result, i) => {
    const node = items.get(result.uri);
    if (node) node.result = i + 1;
  });
  // Attach every item under its nearest ancestor that is in the tree.
  for (const node of items.values()) {
    if (roots.includes(node)) continue;
    let parent = parentUri(node.uri);
    while (parent.length > 'viking://'.length && !items.has(parent)) parent = parentUri(parent);
    const owner = items.get(parent) ?? roots.find((root) => node.uri.startsWith(`${root.uri}/`));
    if (owner) owner.children.push(node);
    else roots.push(node);
  }
  return roots;
}

const rank = (item: TreeItem) => item.score?.propagated ?? item.visitedScore ?? item.seed?.score ?? 0;
/** Kept, visited, or the way to something that was: a pruned directory can hold a visited seed. */
const isKept = (item: TreeItem): boolean =>
  item.visited !== undefined ||
  item.result !== undefined ||
  item.score?.verdict === 'kept' ||
  !item.score ||
  item.children.some(isKept);

function row(item: TreeItem, under: string | undefined): HTMLElement {
  const s = item.score;
  const badges = [
    item.result !== undefined &&
      h('span', { class: 'badge is-result', title: 'returned as a result' }, `result #${item.result}`),
    item.visited !== undefined &&
      h(
        'span',
        { class: 'badge visited', title: 'popped from the queue and its children scored' },
        `visited #${item.visited}`,
      ),
    item.visited === undefined &&
      s?.queued &&
      h(
        'span',
        { class: 'badge queued', title: 'pushed onto the queue, never popped' },
        'queued, not visited',
      ),
    item.seed &&
      h(
        'span',
        { class: 'badge seed', title: `seed of the walk (${item.seed.from})` },
        `seed · ${item.seed.from}`,
      ),
    s && s.verdict !== 'kept' && h('span', { class: `badge verdict ${s.verdict}` }, verdictText[s.verdict]),
  ];
  const scores = s
    ? h(
        'span',
        {
          class: 'scores',
          title: `vector ${score3(s.vector)} · BM25 ${s.lexical.toFixed(2)} · fused ${score3(s.fused)} · propagated ${score3(s.propagated)}`,
        },
        h('b', {}, score3(s.propagated)),
        h('small', {}, ` meaning ${score3(s.vector)} · words ${s.lexical.toFixed(1)}`),
      )
    : item.visitedScore !== undefined
      ? h('span', { class: 'scores' }, h('b', {}, score3(item.visitedScore)))
      : h('span', { class: 'scores' });
  return h(
    'span',
    { class: `trace-row ${item.kind} ${isKept(item) ? '' : 'pruned'}`, 'data-uri': item.uri },
    h('span', { class: 'icon', 'aria-hidden': 'true' }),
    h('span', { class: 'name' }, nameOf(item.uri, under)),
    ...badges.filter((b) => b !== false && b !== undefined),
    scores,
  );
}

/** Kept children shown before the rest fold away: a directory of the corpus has up to 70. */
const shownKept = 6;

function folded(
  label: string,
  className: string,
  items: TreeItem[],
  under: string,
  depth: number,
): HTMLElement {
  return h(
    'li',
    {},
    h(
      'details',
      { class: className },
      h('summary', {}, label),
      h('ul', {}, ...items.map((child) => render(child, under, depth + 1))),
    ),
  );
}

function render(item: TreeItem, under: string | undefined, depth: number): HTMLElement {
  if (item.children.length === 0) return h('li', {}, row(item, under));
  const children = [...item.children].sort((a, b) => rank(b) - rank(a));
  const kept = children.filter(isKept);
  // Results, visited directories and directories with something below them always show.
  const shown = kept.filter(
    (child, i) =>
      i < shownKept || child.result !== undefined || child.visited !== undefined || child.children.length > 0,
  );
  const more = kept.filter((child) => !shown.includes(child));
  const pruned = children.filter((child) => !isKept(child));
  const list = h('ul', {}, ...shown.map((child) => render(child, item.uri, depth + 1)));
  if (more.length > 0) list.append(folded(`${more.length} more kept`, 'more-group', more, item.uri, depth));
  if (pruned.length > 0)
    list.append(folded(`${pruned.length} not kept`, 'pruned-group', pruned, item.uri, depth));
  return h('li', {}, h('details', { open: true }, h('summary', {}, row(item, under)), list));
}

/** Every node the search scored, as a tree under its roots, with how scores were blended. */
export function renderTree(trace: FindTrace): HTMLElement {
  const { stop } = trace;
  const summary = h(
    'p',
    { class: 'trace-summary' },
    h('b', {}, trace.mode === 'thinking' ? 'Hierarchical walk' : 'Flat search'),
    trace.mode === 'thinking'
      ? ` · stopped: ${stopText[stop.reason]} · ${stop.rounds} rounds · ${stop.directoriesVisited} folders opened · ${stop.candidates} candidates · ${trace.elapsedMs} ms in the engine`
      : ` · one pass over every file and folder · ${stop.candidates} candidates · ${trace.elapsedMs} ms in the engine`,
  );
  const words = trace.fusion.lexicalWeight;
  const fusion = h(
    'p',
    { class: 'trace-fusion' },
    `Scores: words (BM25) and meaning (vector similarity), each scaled by ${trace.fusion.method === 'minmax' ? 'the best and worst of this search' : `${trace.fusion.method} fusion`}, blended ${words} : ${Number((1 - words).toFixed(2))}`,
    trace.mode === 'thinking'
      ? `, propagated = α · own + (1 − α) · parent, α = ${trace.settings.alpha ?? '?'}`
      : '',
  );
  return h(
    'div',
    { class: 'trace-all' },
    summary,
    fusion,
    h('ul', { class: 'trace-tree' }, ...buildTree(trace).map((root) => render(root, undefined, 0))),
  );
}

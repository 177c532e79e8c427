// The trace as a person follows it: one line on what the search did, then for each result the
// folders it was reached through and its score taken apart in plain words, ending on the number
// the result list shows. Everything the search scored is one click away, folded (trace-tree.ts).
import type { MatchedContext } from '../../src/retrieve/results.js';
import type { FindResult } from '../../src/retrieve/retriever.js';
import type { FindTrace } from '../../src/retrieve/trace.js';
import { h, score3 } from './dom.js';
import { type ScoreParts, scoreParts } from './score-parts.js';
import { renderTree } from './trace-tree.js';
import './trace-view.css';

const stopWhy: Record<FindTrace['stop']['reason'], string> = {
  flat: 'it looks at everything at once',
  empty: 'there was nothing to search',
  'queue-empty': 'no folder was left worth opening',
  converged: 'the best results stopped changing',
  'pool-stalled': 'opening more folders found nothing new',
  'max-directories': 'it opened as many folders as it may',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function summaryOf(trace: FindTrace, shown: number): HTMLElement {
  const { stop } = trace;
  const scored = trace.mode === 'quick' ? trace.scored.length : stop.candidates;
  const text =
    trace.mode === 'thinking'
      ? `Folder by folder: opened ${plural(stop.directoriesVisited, 'folder')} in ${plural(stop.rounds, 'round')}, ` +
        `kept ${plural(stop.candidates, 'candidate')}, showed ${shown}; it stopped because ${stopWhy[stop.reason]}.`
      : `Quick search: scored ${plural(scored, 'file and folder', 'files and folders')} in one pass, ` +
        `kept ${plural(stop.candidates, 'candidate')}, showed ${shown}.`;
  return h(
    'p',
    {
      class: 'trace-plain',
      'data-rounds': stop.rounds,
      'data-folders': stop.directoriesVisited,
      'data-scored': scored,
      'data-candidates': stop.candidates,
    },
    text,
    h('small', {}, ` ${trace.elapsedMs} ms.`),
  );
}

const lastName = (uri: string) => uri.slice(uri.lastIndexOf('/') + 1);

/** The folders from the search's root down to the result, each marked if the walk opened it. */
function pathOf(uri: string, trace: FindTrace, parts: ScoreParts | undefined): HTMLElement {
  const root = trace.roots.find((r) => uri === r || uri.startsWith(`${r}/`)) ?? 'viking:/';
  const opened = new Map(trace.steps.map((step, i) => [step.uri, i + 1]));
  const crumbs: string[] = [root];
  for (const name of uri
    .slice(root.length + 1)
    .split('/')
    .filter(Boolean)) {
    crumbs.push(`${crumbs.at(-1)}/${name}`);
  }
  const items = crumbs.map((crumb, i) => {
    const order = opened.get(crumb);
    const isFolder = i < crumbs.length - 1;
    return h(
      'span',
      {
        class: `crumb ${isFolder ? 'folder' : 'item'} ${crumb === parts?.folder?.uri ? 'via' : ''}`,
        'data-uri': crumb,
        title: order === undefined ? undefined : `the search opened this folder ${ordinal(order)}`,
      },
      i === 0 ? crumb.replace('viking://', '') : lastName(crumb),
      order === undefined ? '' : h('sup', {}, `#${order}`),
    );
  });
  return h('span', { class: 'path' }, ...items.flatMap((item, i) => (i === 0 ? [item] : [' › ', item])));
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

const n2 = (x: number) => x.toFixed(2);

/** "matched words 0.41 · meaning 0.77 → 0.62, then its folder commands scores 0.55 → 0.602". */
function partsText(parts: ScoreParts): (string | HTMLElement)[] {
  const sides = [`matched words ${n2(parts.words.scaled ?? parts.words.raw)}`];
  if (parts.meaning) sides.push(`meaning ${n2(parts.meaning.scaled ?? parts.meaning.raw)}`);
  // Each step: what it adds, and the score after it; the last one is the list's score, in full.
  const steps: [string, number][] = [[sides.join(' · '), parts.blended]];
  if (parts.folder)
    steps.push([
      `its folder ${lastName(parts.folder.uri)} scores ${n2(parts.folder.score)}`,
      parts.folder.after,
    ]);
  if (parts.hotness) steps.push([`recent use ${n2(parts.hotness.value)}`, parts.hotness.after]);
  if (parts.confidence)
    steps.push([`how sure the search is, ${n2(parts.confidence.value)}`, parts.confidence.after]);
  return steps.flatMap(([text, after], i) => [
    i === 0 ? '' : ', then ',
    `${text} → `,
    i === steps.length - 1 ? h('b', { class: 'final' }, score3(parts.final)) : n2(after),
  ]);
}

function resultLine(item: MatchedContext, trace: FindTrace): HTMLElement {
  const parts = scoreParts(item.matchReason, item.score, item.isLeaf, trace.fusion);
  return h(
    'li',
    {
      class: 'trace-path',
      'data-uri': item.uri,
      // The trace's own record of the score, which the list's must equal.
      'data-trace-score': trace.results.find((r) => r.uri === item.uri)?.score,
    },
    pathOf(item.uri, trace, parts),
    h(
      'span',
      { class: 'parts', title: item.matchReason },
      ...(parts ? partsText(parts) : [h('b', { class: 'final' }, score3(item.score))]),
    ),
  );
}

const legend =
  'Matched words: how many of the question’s words it has, and how rare they are (1 = the best match of this search). ' +
  'Meaning: how close its sense is to the question’s, words aside (1 = the closest). ' +
  'A folder’s score is how well the folder as a whole matches: a file in a good folder gains a little.';

/** The trace of a find(), with the result items whose scores it explains. */
export function renderTrace(result: FindResult): HTMLElement {
  const trace = result.trace;
  if (!trace) return h('p', {}, 'No trace.');
  const items = [...result.resources, ...result.memories, ...result.skills].sort((a, b) => b.score - a.score);
  return h(
    'div',
    { class: 'trace', 'data-stop': trace.stop.reason, 'data-mode': trace.mode },
    summaryOf(trace, items.length),
    items.length === 0
      ? h('p', { class: 'hint' }, 'Nothing scored high enough to show.')
      : h('ol', { class: 'trace-paths' }, ...items.map((item) => resultLine(item, trace))),
    h('p', { class: 'trace-legend' }, legend),
    h(
      'details',
      { class: 'trace-full' },
      h('summary', {}, 'Everything the search scored'),
      renderTree(trace),
    ),
  );
}

/** Marks the selected result's line and, in the full tree, the rows on its path; none for undefined. */
export function markTracePath(container: HTMLElement, uri: string | undefined): void {
  for (const line of container.querySelectorAll<HTMLElement>('.trace-path')) {
    const on = line.dataset.uri === uri;
    line.classList.toggle('selected', on);
    if (on) line.setAttribute('aria-current', 'true');
    else line.removeAttribute('aria-current');
  }
  for (const row of container.querySelectorAll<HTMLElement>('.trace-row')) {
    const at = row.dataset.uri ?? '';
    row.classList.toggle('on-path', uri !== undefined && (uri === at || uri.startsWith(`${at}/`)));
  }
}

// The results of a find() as a search engine shows them: grouped as resources, memories and
// skills; within a group one entry per document, titled, with its best sections under it, each
// with its heading, its score and a snippet of its text around the query's words.
import type { MatchedContext } from '../../src/retrieve/results.js';
import type { FindResult } from '../../src/retrieve/retriever.js';
import type { Backend } from './backend.js';
import { h, score3 } from './dom.js';
import { snippet } from './snippet.js';

const groups = [
  ['resources', 'Resources'],
  ['memories', 'Memories'],
  ['skills', 'Skills'],
] as const;

/** Questions the npm documentation answers, for the landing page. */
export const suggestedQueries = [
  'How do I publish a scoped package?',
  'What does npm ci do that npm install does not?',
  'Where does npm keep its cache?',
  'How do I run a script before every install?',
];

/** A URI without its scheme and the type's root, for reading: `npm-docs/commands/npm-install.md`. */
export function shortUri(uri: string): string {
  return uri.replace(/^viking:\/\/(resources|agent\/skills|(user|agent)\/[^/]+\/(memories|sessions))\//, '');
}

const parentOf = (uri: string) => uri.slice(0, uri.lastIndexOf('/'));

/** A section's document is its parent directory when that is named like a file (`install.md`). */
export function documentOf(item: Pick<MatchedContext, 'uri' | 'isLeaf'>): string {
  const parent = parentOf(item.uri);
  return item.isLeaf && /\.\w+$/.test(parent) ? parent : item.uri;
}

interface Shown {
  item: MatchedContext;
  title: string;
  text: string;
}

async function titleOf(backend: Backend, uri: string): Promise<string> {
  const info = await backend.stat(uri).catch(() => undefined);
  const title = info?.meta.title;
  return typeof title === 'string' && title !== '' ? title : (uri.split('/').pop() ?? uri);
}

/** A section's title and its text to cut the snippet from: its L2, or a directory's L1. */
async function describe(backend: Backend, item: MatchedContext): Promise<Shown> {
  const [title, text] = await Promise.all([
    titleOf(backend, item.uri),
    (item.isLeaf ? backend.read(item.uri) : backend.overview(item.uri)).catch(() => item.abstract),
  ]);
  return { item, title, text: text || item.abstract };
}

export interface ResultsOptions {
  backend: Backend;
  query: string;
  selected: string | undefined;
  /** Under this score (calibrated) a result is a weak match; every result weak: "no good match". */
  weakBelow: number;
  open: (item: MatchedContext) => void;
  /** Runs a suggested query. */
  suggest: (query: string) => void;
}

function sectionButton(shown: Shown, document: string, options: ResultsOptions): HTMLElement {
  const { item } = shown;
  // A result that is its document itself: a page not split into sections, or a directory.
  const heading = item.uri !== document ? shown.title : item.isLeaf ? 'Whole page' : 'Overview';
  return h(
    'li',
    {},
    h(
      'button',
      {
        class: `result ${item.uri === options.selected ? 'selected' : ''}`,
        'data-uri': item.uri,
        title: item.matchReason,
        onclick: () => options.open(item),
      },
      h(
        'span',
        { class: 'result-head' },
        h('span', { class: 'heading' }, heading),
        h(
          'span',
          { class: 'score', title: `score ${score3(item.score)}` },
          h(
            'span',
            { class: 'track', 'aria-hidden': 'true' },
            h('span', { class: 'bar', style: `width: ${Math.round(item.score * 100)}%` }),
          ),
          h('span', { class: 'value' }, score3(item.score)),
        ),
      ),
      h('span', { class: 'abstract' }, snippet(shown.text, options.query)),
    ),
  );
}

async function renderGroup(items: MatchedContext[], options: ResultsOptions): Promise<HTMLElement> {
  const shown = await Promise.all(items.map((item) => describe(options.backend, item)));
  // Documents in the order of their best section (results come best first).
  const documents = new Map<string, Shown[]>();
  for (const entry of shown) {
    const key = documentOf(entry.item);
    documents.set(key, [...(documents.get(key) ?? []), entry]);
  }
  const titles = await Promise.all([...documents.keys()].map((uri) => titleOf(options.backend, uri)));
  return h(
    'ol',
    { class: 'documents' },
    ...[...documents].map(([uri, sections], i) =>
      h(
        'li',
        { class: 'document', 'data-doc': uri },
        h(
          'div',
          { class: 'doc-head' },
          h('span', { class: 'doc-title' }, titles[i]!),
          h('span', { class: 'doc-path' }, shortUri(uri)),
        ),
        h('ol', { class: 'sections' }, ...sections.map((entry) => sectionButton(entry, uri, options))),
      ),
    ),
  );
}

function suggestions(options: Pick<ResultsOptions, 'suggest'>): HTMLElement {
  return h(
    'div',
    { class: 'suggestions' },
    h('p', { class: 'hint' }, 'Try one of these:'),
    h(
      'ul',
      {},
      ...suggestedQueries.map((query) =>
        h('li', {}, h('button', { class: 'suggestion', onclick: () => options.suggest(query) }, query)),
      ),
    ),
  );
}

/** Before any search: what the page does, and questions to start with. */
export function renderLanding(suggest: (query: string) => void, withCorpus: boolean): HTMLElement {
  return h(
    'div',
    { class: 'landing' },
    h(
      'p',
      { class: 'hint' },
      'Ask a question above. Each result shows its document, the best sections in it and the words that matched; open one to read it.',
    ),
    withCorpus && suggestions({ suggest }),
  );
}

export async function renderResults(result: FindResult, options: ResultsOptions): Promise<HTMLElement> {
  const all = groups.flatMap(([key]) => result[key]);
  if (all.every((item) => item.score < options.weakBelow)) {
    return h(
      'div',
      { class: 'no-match', 'data-group': 'none' },
      h('p', { class: 'no-match-title' }, `No good match for “${options.query}”.`),
      h(
        'p',
        { class: 'hint' },
        all.length === 0
          ? 'Nothing here is close enough to the question. Try other words, or add a folder of your own.'
          : 'The closest results are only weakly related. Try other words, or add a folder of your own.',
      ),
      suggestions(options),
    );
  }
  const sections = await Promise.all(
    groups.map(async ([key, title]) => {
      const items = result[key];
      return h(
        'section',
        { class: `group ${items.length === 0 ? 'empty' : ''}`, 'data-group': key },
        h('h2', {}, title, h('span', { class: 'count' }, items.length)),
        items.length === 0
          ? h('p', { class: 'none' }, `No ${title.toLowerCase()} matched.`)
          : await renderGroup(items, options),
      );
    }),
  );
  return h('div', { class: 'groups' }, ...sections);
}

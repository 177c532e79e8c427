// The results of a find(), grouped as resources, memories and skills, each with its L0 abstract.
import type { MatchedContext } from '../../src/retrieve/results.js';
import type { FindResult } from '../../src/retrieve/retriever.js';
import { h, score3 } from './dom.js';

const groups = [
  ['resources', 'Resources'],
  ['memories', 'Memories'],
  ['skills', 'Skills'],
] as const;

/** A URI without its scheme and the type's root, for reading: `npm-docs/commands/npm-install.md`. */
export function shortUri(uri: string): string {
  return uri.replace(/^viking:\/\/(resources|agent\/skills|user\/memories|agent\/memories)\//, '');
}

export function renderResults(
  result: FindResult,
  selected: string | undefined,
  open: (item: MatchedContext) => void,
): HTMLElement {
  const sections = groups.map(([key, title]) => {
    const items = result[key];
    return h(
      'section',
      { class: `group ${items.length === 0 ? 'empty' : ''}`, 'data-group': key },
      h('h2', {}, title, h('span', { class: 'count' }, items.length)),
      items.length === 0
        ? h('p', { class: 'none' }, `No ${title.toLowerCase()} matched.`)
        : h(
            'ol',
            {},
            ...items.map((item) =>
              h(
                'li',
                {},
                h(
                  'button',
                  {
                    class: `result ${item.uri === selected ? 'selected' : ''}`,
                    'data-uri': item.uri,
                    title: item.matchReason,
                    onclick: () => open(item),
                  },
                  h(
                    'span',
                    { class: 'result-head' },
                    h('span', { class: `kind ${item.isLeaf ? 'file' : 'dir'}`, 'aria-hidden': 'true' }),
                    h('span', { class: 'uri' }, shortUri(item.uri)),
                    h(
                      'span',
                      { class: 'score', title: `score ${score3(item.score)}` },
                      h(
                        'span',
                        { class: 'track' },
                        h('span', { class: 'bar', style: `width: ${Math.round(item.score * 100)}%` }),
                      ),
                      h('span', { class: 'value' }, score3(item.score)),
                    ),
                  ),
                  h('span', { class: 'abstract' }, item.abstract || '(no abstract)'),
                ),
              ),
            ),
          ),
    );
  });
  return h('div', { class: 'groups' }, ...sections);
}

// A search engine's snippet: the part of a node's text that holds most of the query's words, cut
// at word boundaries, with those words marked. Built as DOM nodes: the text is the user's documents.
import { h } from './dom.js';

/** Words shorter than this (a, of, to) say little about where the answer is. */
const minTermLength = 3;

/** The query's words, lower case, without the short ones; `npm` stays. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= minTermLength))];
}

/** Markdown's marks (#, *, `, links' targets) taken out, so the snippet reads as prose. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|[-*+>]|\d+\.)\s+/gm, '')
    .replace(/[`*_]{1,3}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The window of `length` characters holding the most distinct terms, the earliest on a tie. */
function bestWindow(text: string, terms: string[], length: number): number {
  if (text.length <= length || terms.length === 0) return 0;
  const lower = text.toLowerCase();
  const hits: { at: number; term: number }[] = [];
  terms.forEach((term, i) => {
    for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) hits.push({ at, term: i });
  });
  hits.sort((a, b) => a.at - b.at);
  let best = 0;
  let bestCount = 0;
  for (const hit of hits) {
    const seen = new Set(hits.filter((o) => o.at >= hit.at && o.at < hit.at + length).map((o) => o.term));
    if (seen.size > bestCount) {
      bestCount = seen.size;
      // A little context before the first word.
      best = Math.max(0, hit.at - 40);
    }
  }
  return best;
}

/**
 * Up to `length` characters of `text` around the query's words, with `…` where it was cut and each
 * occurrence of a term in a `<mark>`.
 */
export function snippet(text: string, query: string, length = 220): HTMLElement {
  const plain = plainText(text);
  const terms = queryTerms(query);
  let start = bestWindow(plain, terms, length);
  if (start > 0) start = plain.indexOf(' ', start) + 1 || start;
  let end = Math.min(plain.length, start + length);
  if (end < plain.length) end = plain.lastIndexOf(' ', end) > start ? plain.lastIndexOf(' ', end) : end;
  const cut = `${start > 0 ? '… ' : ''}${plain.slice(start, end)}${end < plain.length ? ' …' : ''}`;
  const element = h('span', { class: 'snippet' });
  if (terms.length === 0) {
    element.textContent = cut;
    return element;
  }
  const pattern = new RegExp(`(${terms.map(escapeRegExp).join('|')})`, 'giu');
  cut.split(pattern).forEach((part, i) => {
    // split() with one group puts the matches at the odd places.
    element.append(i % 2 === 1 ? h('mark', {}, part) : part);
  });
  return element;
}

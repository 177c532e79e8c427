// A node's Markdown as DOM, safely: markdown-it with raw HTML off (a `<script>` or `<img onerror>`
// in a document stays text) and its link check (no `javascript:`, `vbscript:`, `file:` or `data:`
// links); then only web and in-page links stay links, and nothing is fetched (no images).
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
// An image would be a request the page makes for a document's sake; its text is kept instead.
md.disable('image');

/** Links a reader may follow: to the web (in a new tab) or within the text. */
const safeHref = /^(https?:\/\/|mailto:|#)/i;

export function renderMarkdown(text: string): DocumentFragment {
  // DOMParser builds an inert document: nothing in it runs or loads.
  const parsed = new DOMParser().parseFromString(md.render(text), 'text/html');
  for (const link of Array.from(parsed.querySelectorAll('a'))) {
    const href = link.getAttribute('href') ?? '';
    if (!safeHref.test(href.trim())) {
      // A relative link points into the documents' own site, which the demo does not serve.
      const span = parsed.createElement('span');
      span.className = 'link-text';
      span.append(...Array.from(link.childNodes));
      link.replaceWith(span);
    } else if (!href.startsWith('#')) {
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
    }
  }
  const fragment = document.createDocumentFragment();
  fragment.append(...Array.from(parsed.body.childNodes).map((node) => document.adoptNode(node)));
  return fragment;
}

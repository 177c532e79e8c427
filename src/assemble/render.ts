/**
 * The prompt-ready block of context() (docs/guide/context.md, "The block"): one element per part, named
 * after its context type, with its `viking://` URI to cite (and its pages, for a part of a PDF) and the
 * layer it is shown at, inside one
 * `<context>` element. The text inside is left as it is (Markdown reads as Markdown), except that
 * a tag of the envelope in a document is neutralised, so a document cannot close its own element
 * and forge a neighbour with another URI.
 */
import { citePages, type PageRange } from '../retrieve/results.js';
import type { ContextType } from '../store/store.js';

export type Layer = 'L0' | 'L1' | 'L2';

/** What a part renders from. */
export interface RenderedPart {
  uri: string;
  type: ContextType;
  layer: Layer;
  score: number;
  text: string;
  /** The text is the passages of its L2 that bear on the query, not the whole of it. */
  excerpt?: true;
  /** For a part of a paged document (a PDF), the pages its text is on: cited as `pages="pp. 47–48"`. */
  pages?: PageRange;
}

const open = '<context>';
const close = '</context>';
const envelopeTag = /<(\/?)(context|memory|resource|skill)(?=[\s/>]|$)/gi;
const typeOrder: Record<ContextType, number> = { memory: 0, resource: 1, skill: 2 };

function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** One part's element. Its text is trimmed: whitespace at either end is tokens that say nothing. */
export function renderPart(part: Omit<RenderedPart, 'score'>): string {
  const body = part.text.trim().replace(envelopeTag, '&lt;$1$2');
  const excerpt = part.excerpt ? ' excerpt="true"' : '';
  const pages = part.pages ? ` pages="${citePages(part.pages)}"` : '';
  return `<${part.type} uri="${attribute(part.uri)}" layer="${part.layer}"${pages}${excerpt}>\n${body}\n</${part.type}>`;
}

/** What the block costs besides its parts: the `<context>` element's two tags and their newlines. */
export const frameText = `${open}\n${close}`;

/**
 * The order parts are shown in: memories, resources, skills; in each, best first, ties by URI. The
 * same parts always render the same block, whatever order they were chosen in.
 */
export function byShowingOrder(a: RenderedPart, b: RenderedPart): number {
  return (
    typeOrder[a.type] - typeOrder[b.type] || b.score - a.score || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0)
  );
}

/** The whole block, `''` when there are no parts. */
export function renderBlock(parts: readonly RenderedPart[]): string {
  if (parts.length === 0) return '';
  return [open, ...[...parts].sort(byShowingOrder).map(renderPart), close].join('\n');
}

/**
 * Headings of a PDF (docs/guide/documents.md): the entries of its outline (bookmarks), each matched
 * to the line on its page that it names, at the level of its nesting; a PDF without an outline gets
 * its headings from font sizes, a line set clearly larger than the body text being a heading, the
 * largest size level 1.
 */
import type { PageElement, PdfLine } from './pdf-layout.js';

/** An outline entry resolved to its page (0-based) and the height it points at, if it says. */
export interface OutlineEntry {
  title: string;
  level: number;
  pageIndex: number;
  top: number | null;
}

/** What pdf.js's `getOutline()` gives, narrowed to what is read here. */
export interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/** The parts of a pdf.js document (`PDFDocumentProxy`) that resolve an outline. */
export interface OutlineSource {
  getOutline(): Promise<OutlineNode[] | null>;
  getDestination(id: string): Promise<unknown[] | null>;
  getPageIndex(ref: { num: number; gen: number }): Promise<number>;
}

/** Outlines past this many entries are cut: an index of every paragraph is no table of contents. */
const MAX_ENTRIES = 5000;
/** A heading is set at least this much larger than the body text (a ratio, and points). */
const HEADING_RATIO = 1.15;
const HEADING_POINTS = 1;
const MAX_HEADING_LENGTH = 200;

function isRef(value: unknown): value is { num: number; gen: number } {
  return typeof value === 'object' && value !== null && 'num' in value && 'gen' in value;
}

/** The page and height an explicit destination (`[page, /XYZ, left, top, zoom]` and kin) points at. */
async function resolve(
  source: OutlineSource,
  dest: OutlineNode['dest'],
): Promise<{ pageIndex: number; top: number | null } | undefined> {
  const explicit = typeof dest === 'string' ? await source.getDestination(dest) : dest;
  if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
  const [page, mode] = explicit;
  const pageIndex = isRef(page)
    ? await source.getPageIndex(page)
    : Number.isInteger(page)
      ? (page as number)
      : -1;
  if (pageIndex < 0) return undefined;
  const name = (mode as { name?: unknown } | undefined)?.name;
  const at =
    name === 'XYZ'
      ? explicit[3]
      : name === 'FitH' || name === 'FitBH'
        ? explicit[2]
        : name === 'FitR'
          ? explicit[5]
          : null;
  return { pageIndex, top: typeof at === 'number' ? at : null };
}

/**
 * The outline's entries in document order, each with its level (its nesting, 1 at the top, at most
 * 6); entries whose destination cannot be resolved are left out, their children kept.
 *
 * @example
 * const entries = await outlineEntries(pdf); // [{ title: '1 Introduction', level: 1, pageIndex: 0, top: 717 }, …]
 */
export async function outlineEntries(source: OutlineSource): Promise<OutlineEntry[]> {
  const entries: OutlineEntry[] = [];
  const visit = async (nodes: readonly OutlineNode[], level: number): Promise<void> => {
    for (const node of nodes) {
      if (entries.length >= MAX_ENTRIES) return;
      const title = node.title.replace(/\s+/g, ' ').trim();
      const target = await resolve(source, node.dest).catch(() => undefined);
      if (target && title !== '') entries.push({ title, level: Math.min(level, 6), ...target });
      await visit(node.items ?? [], level + 1);
    }
  };
  await visit((await source.getOutline()) ?? [], 1);
  return entries;
}

/** Letters and digits only, lower case: how a title and a line are compared. */
function normal(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** `normal` without leading section numbers ("2.1 Scope" and "Scope" match). */
function unnumbered(text: string): string {
  return normal(text.replace(/^\s*(?:\d+[.)]?)+\s+/, ''));
}

/**
 * Where `title` is on a page: the line that says it, or the lines that say it together (a heading
 * wrapped over two lines); the index of the first and how many.
 */
function matchesAt(elements: readonly PageElement[], i: number, title: string): number {
  const wanted = normal(title);
  const bare = unnumbered(title);
  let said = '';
  for (let k = i; k < elements.length; k++) {
    const element = elements[k]!;
    if (element.kind !== 'line' || element.heading !== undefined) return 0;
    said += normal(element.text);
    if (said === wanted || (k === i && bare !== '' && unnumbered(element.text) === bare)) return k - i + 1;
    if (said === '' || !wanted.startsWith(said)) return 0;
  }
  return 0;
}

/** Marks the matched lines as one heading: the first holds the text, the rest are removed. */
function markHeading(elements: PageElement[], at: number, count: number, level: number): void {
  const lines = elements.slice(at, at + count) as PdfLine[];
  lines[0]!.text = lines.map((line) => line.text).join(' ');
  lines[0]!.heading = level;
  elements.splice(at + 1, count - 1);
}

/**
 * Turns the lines the outline names into headings. An entry matches the line on its page that says
 * its title (nearest the height it points at); one that matches nothing is inserted as a heading
 * where it points, so the outline's structure is kept.
 */
export function applyOutline(pages: PageElement[][], entries: readonly OutlineEntry[]): void {
  for (const entry of entries) {
    const elements = pages[entry.pageIndex];
    if (!elements) continue;
    let best: { at: number; count: number; distance: number } | undefined;
    for (let i = 0; i < elements.length; i++) {
      const count = matchesAt(elements, i, entry.title);
      if (count === 0) continue;
      const line = elements[i] as PdfLine;
      const distance = entry.top === null ? i : Math.abs(entry.top - (line.y + line.size));
      if (!best || distance < best.distance) best = { at: i, count, distance };
    }
    if (best) {
      markHeading(elements, best.at, best.count, entry.level);
      continue;
    }
    const top = entry.top ?? Number.POSITIVE_INFINITY;
    let at = elements.findIndex((e) => e.y < top && !(e.kind === 'line' && e.inserted));
    if (at < 0) at = elements.length;
    const inserted: PdfLine = {
      kind: 'line',
      text: entry.title,
      x: 0,
      right: 0,
      y: top,
      size: 0,
      heading: entry.level,
      inserted: true,
    };
    elements.splice(at, 0, inserted);
  }
}

/**
 * Marks as headings the lines set clearly larger than the body text (the size most characters are
 * in): the largest such size is level 1, the next level 2, and so on to 6. Consecutive lines of one
 * size form one heading; a "heading" longer than a heading can be is left as text.
 */
export function applyFontSizes(pages: PageElement[][]): void {
  const weights = new Map<number, number>();
  for (const line of pages.flat()) {
    if (line.kind === 'line') weights.set(line.size, (weights.get(line.size) ?? 0) + line.text.length);
  }
  const body = [...weights].sort((p, q) => q[1] - p[1])[0]?.[0];
  if (body === undefined) return;
  const isHeading = (e: PageElement): e is PdfLine =>
    e.kind === 'line' &&
    e.size >= body * HEADING_RATIO &&
    e.size - body >= HEADING_POINTS &&
    /\p{L}{2}/u.test(e.text);
  const sizes = [
    ...new Set(
      pages
        .flat()
        .filter(isHeading)
        .map((line) => line.size),
    ),
  ].sort((a, b) => b - a);
  for (const elements of pages) {
    for (let i = 0; i < elements.length; i++) {
      const line = elements[i]!;
      if (!isHeading(line)) continue;
      let count = 1;
      while (i + count < elements.length) {
        const next = elements[i + count]!;
        const previous = elements[i + count - 1] as PdfLine;
        const drop = previous.y - next.y;
        if (!isHeading(next) || next.size !== line.size || drop <= 0 || drop > 1.6 * line.size) break;
        count++;
      }
      const text = (elements.slice(i, i + count) as PdfLine[]).map((l) => l.text).join(' ');
      if (text.length <= MAX_HEADING_LENGTH)
        markHeading(elements, i, count, Math.min(6, sizes.indexOf(line.size) + 1));
      else i += count - 1;
    }
  }
}

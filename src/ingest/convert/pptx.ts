/**
 * PowerPoint (.pptx) to Markdown (docs/guide/documents.md): one `## Slide N: title` section per
 * slide, in the deck's order (the presentation's slide list, not the parts' file names), its text
 * in shape order, tables as pipe tables, and the speaker notes under a `Notes:` line. Pictures,
 * charts and SmartArt are left out. Slides are sections, not pages: a .pptx has no page count.
 */
import type { ConvertedDocument, Converter, ConvertOptions } from './converted.js';
import { markdownTable, plainParagraph } from './markdown-table.js';
import {
  checkPageCount,
  childElement,
  childElements,
  createCheckpoint,
  descendants,
  isXmlPart,
  type OfficeParts,
  officeConverter,
  officeError,
  openOfficeZip,
  relationshipId,
  relationships,
  xmlPart,
} from './ooxml.js';

/** The deck's main part, as the package's root relationships name it. */
function presentationPath(parts: OfficeParts, options: ConvertOptions): string {
  const root = [...relationships(parts, '', options).values()].find((rel) => rel.type === 'officeDocument');
  return root?.target ?? 'ppt/presentation.xml';
}

/** The slide parts in the order the deck shows them. */
function slidePaths(parts: OfficeParts, options: ConvertOptions): string[] {
  const path = presentationPath(parts, options);
  const presentation = xmlPart(parts, path, options);
  const rels = relationships(parts, path, options);
  const list = childElement(presentation, 'sldIdLst');
  return (list ? childElements(list, 'sldId') : []).map((slide) => {
    const rel = rels.get(relationshipId(slide) ?? '');
    if (!rel || !parts.has(rel.target)) {
      throw officeError(
        'CORRUPT_INPUT',
        options,
        `a slide of the deck is missing (${rel?.target ?? 'no target'})`,
      );
    }
    return rel.target;
  });
}

/** A paragraph's text: its runs and fields, `<a:br>` as a line break. */
function paragraphText(paragraph: Element): string {
  let text = '';
  for (const child of childElements(paragraph)) {
    if (child.localName === 'br') text += '\n';
    else if (child.localName === 'r' || child.localName === 'fld')
      text += childElement(child, 't')?.textContent ?? '';
  }
  return text;
}

/** A text body's paragraphs, each with its level and whether it shows a bullet (and which). */
function paragraphs(body: Element, bulleted: boolean) {
  return childElements(body, 'p').map((paragraph) => {
    const properties = childElement(paragraph, 'pPr');
    let bullet: '-' | '1.' | undefined = bulleted ? '-' : undefined;
    if (properties && childElement(properties, 'buNone')) bullet = undefined;
    else if (properties && childElement(properties, 'buAutoNum')) bullet = '1.';
    else if (properties && childElement(properties, 'buChar')) bullet = '-';
    const level = Math.min(8, Number(properties?.getAttribute('lvl')) || 0);
    return { text: paragraphText(paragraph), level, bullet };
  });
}

/** A text body as Markdown blocks: runs of bulleted paragraphs as one list, the others as paragraphs. */
function textBlocks(body: Element, bulleted: boolean): string[] {
  const blocks: string[] = [];
  let list: string[] = [];
  const endList = () => {
    if (list.length > 0) blocks.push(list.join('\n'));
    list = [];
  };
  for (const { text, level, bullet } of paragraphs(body, bulleted)) {
    const line = plainParagraph(text);
    if (line === '') continue;
    if (bullet) list.push(`${'  '.repeat(level)}${bullet} ${line.replace(/\n/g, ' ')}`);
    else {
      endList();
      blocks.push(line);
    }
  }
  endList();
  return blocks;
}

/** An XML Schema boolean: `1` or `true`. */
const isTrue = (value: string | null) => value === '1' || value === 'true';

/** A table (`a:tbl`) as rows; a merged cell's text in its first position, the header's spans repeated. */
function tableRows(table: Element): string[][] {
  return childElements(table, 'tr').map((row, r) => {
    const cells: string[] = [];
    for (const cell of childElements(row, 'tc')) {
      const across = isTrue(cell.getAttribute('hMerge'));
      const continued = across || isTrue(cell.getAttribute('vMerge'));
      const body = childElement(cell, 'txBody');
      const text = body ? childElements(body, 'p').map(paragraphText).join('\n') : '';
      if (!continued) cells.push(text);
      else cells.push(r === 0 && across ? (cells.at(-1) ?? '') : '');
    }
    return cells;
  });
}

/** Placeholders that repeat on every slide (date, footer, slide number) say nothing of the slide. */
const chrome = new Set(['dt', 'ftr', 'sldNum', 'hdr', 'sldImg']);

interface SlideText {
  title?: string;
  blocks: string[];
}

/** Walks a shape tree in order: text shapes, groups, tables; the first title placeholder titles the slide. */
function readShapes(tree: Element, slide: SlideText, only?: ReadonlySet<string>): void {
  for (const shape of childElements(tree)) {
    if (shape.localName === 'grpSp') readShapes(shape, slide, only);
    else if (shape.localName === 'AlternateContent') {
      const choice = childElement(shape, 'Choice') ?? childElement(shape, 'Fallback');
      if (choice) readShapes(choice, slide, only);
    } else if (shape.localName === 'graphicFrame' && !only) {
      for (const table of descendants(shape, 'tbl')) {
        const rows = tableRows(table);
        if (rows.some((row) => row.some((cell) => cell.trim() !== '')))
          slide.blocks.push(markdownTable(rows));
      }
    } else if (shape.localName === 'sp') {
      const placeholder = descendants(shape, 'ph')[0];
      // A placeholder without a type is a content placeholder ("obj"); xmldom answers '' for it.
      const type = placeholder ? placeholder.getAttribute('type') || 'obj' : undefined;
      const body = childElement(shape, 'txBody');
      if (!body || (type && chrome.has(type)) || (only && !only.has(type ?? ''))) continue;
      if ((type === 'title' || type === 'ctrTitle') && slide.title === undefined) {
        slide.title = paragraphs(body, false)
          .map((p) => p.text)
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim();
      } else {
        // A slide's body and content placeholders show bullets unless told not to; notes do not.
        slide.blocks.push(...textBlocks(body, !only && (type === 'body' || type === 'obj')));
      }
    }
  }
}

/** The text of a part's shape tree (`p:cSld/p:spTree`). */
function partText(
  parts: OfficeParts,
  path: string,
  options: ConvertOptions,
  only?: ReadonlySet<string>,
): SlideText {
  const slide: SlideText = { blocks: [] };
  const tree = descendants(xmlPart(parts, path, options), 'spTree')[0];
  if (tree) readShapes(tree, slide, only);
  return slide;
}

/**
 * One slide's section; `hasText` says whether it holds anything beyond its number. Notes already
 * read for another slide are not read again (PowerPoint gives each slide its own).
 */
function slideMarkdown(
  parts: OfficeParts,
  path: string,
  number: number,
  options: ConvertOptions,
  notesRead: Set<string>,
) {
  const slide = partText(parts, path, options);
  const notesPath = [...relationships(parts, path, options).values()].find(
    (rel) => rel.type === 'notesSlide',
  );
  const fresh = notesPath && parts.has(notesPath.target) && !notesRead.has(notesPath.target);
  if (fresh) notesRead.add(notesPath.target);
  const notes = fresh ? partText(parts, notesPath.target, options, new Set(['body'])).blocks : [];
  const heading = slide.title ? `## Slide ${number}: ${slide.title}` : `## Slide ${number}`;
  const blocks = [heading, ...slide.blocks, ...(notes.length > 0 ? ['Notes:', ...notes] : [])];
  return { markdown: blocks.join('\n\n'), hasText: Boolean(slide.title) || blocks.length > 1 };
}

/**
 * Reads a PowerPoint file (.pptx) as Markdown; more slides than `maxPages` is `INPUT_TOO_LARGE`.
 * See {@link Converter} for the errors.
 *
 * @example
 * const { markdown } = await convertPptx(bytes, { name: 'deck.pptx', maxPages: 2000 });
 */
export const convertPptx: Converter = officeConverter(
  'pptx',
  async (bytes, options): Promise<ConvertedDocument> => {
    const parts = openOfficeZip(bytes, options, 'pptx', isXmlPart);
    // A slide listed twice, or notes shared by slides, are read once: a part read once per listing
    // keeps the work and the text within the parts' inflated size, where 2,000 listings of one
    // large slide would cost minutes and gigabytes.
    const paths = [...new Set(slidePaths(parts, options))];
    checkPageCount(paths.length, options, 'slides');
    const step = createCheckpoint(options);
    const slides: { markdown: string; hasText: boolean }[] = [];
    const notesRead = new Set<string>();
    for (const [i, path] of paths.entries()) {
      await step();
      slides.push(slideMarkdown(parts, path, i + 1, options, notesRead));
    }
    if (!slides.some((slide) => slide.hasText)) {
      throw officeError('UNSUPPORTED_INPUT', options, 'the PowerPoint deck has no text');
    }
    return {
      markdown: slides.map((slide) => slide.markdown).join('\n\n'),
      pageCount: undefined,
      scannedPages: [],
    };
  },
);

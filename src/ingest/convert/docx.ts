/**
 * Word (.docx) to Markdown (docs/guide/documents.md): mammoth turns the document into HTML with
 * headings and captions marked, and this module turns that HTML into Markdown with htmlparser2:
 * `#` headings, paragraphs, lists, and tables as pipe tables with their caption on the line above
 * (a caption Word put below a table moves up). Images are dropped. A .docx has no pages.
 */
import { DOMParser } from '@xmldom/xmldom';
import { strToU8, zipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import mammoth from 'mammoth';
import { raceAbort, throwIfAborted } from '../../abort.js';
import type { ConvertedDocument, Converter, ConvertOptions } from './converted.js';
import { markdownTable, plainParagraph } from './markdown-table.js';
import { decodePart, officeConverter, officeError, openOfficeZip } from './ooxml.js';
import { rootElementText } from './xml-root.js';

/**
 * Word's headings are mammoth's defaults; its Title is a first-level heading too, and its Caption
 * style (named `caption` in Word's own styles.xml, `Caption` by some writers) a marked paragraph.
 */
const styleMap = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='caption'] => p.caption:fresh",
  "p[style-name='Caption'] => p.caption:fresh",
  'p.Caption => p.caption:fresh',
];

/** Images are dropped: an `<img>` without a source, never read out of the zip. */
const noImage = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

interface HtmlElement {
  name: string;
  attributes: Record<string, string>;
  children: HtmlNode[];
}
type HtmlNode = HtmlElement | string;

/** mammoth's HTML as a tree (it is well-formed, and small next to the document's XML). */
function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { name: 'body', attributes: {}, children: [] };
  const open = [root];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element: HtmlElement = { name, attributes, children: [] };
        open.at(-1)!.children.push(element);
        open.push(element);
      },
      ontext(text) {
        open.at(-1)!.children.push(text);
      },
      onclosetag() {
        if (open.length > 1) open.pop();
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return root;
}

const blockNames = new Set('p h1 h2 h3 h4 h5 h6 li ul ol table tr td th'.split(' '));

/**
 * The visible text under `node`: `<br>` and block boundaries as line breaks; images and the `↑`
 * links mammoth puts after each footnote left out.
 */
function textOf(node: HtmlNode): string {
  if (typeof node === 'string') return node.replace(/[\n\r]+/g, ' ');
  if (node.name === 'br') return '\n';
  if (node.name === 'img') return '';
  if (node.name === 'a' && /^#(?:footnote|endnote|comment)-ref-/.test(node.attributes.href ?? '')) return '';
  const text = node.children.map(textOf).join('');
  return blockNames.has(node.name) ? `\n${text}\n` : text;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'text'; text: string; caption: boolean }
  | { kind: 'list'; markdown: string }
  | { kind: 'table'; rows: string[][]; caption?: string }
  /** A paragraph that held only images: it still stands between a table and a caption. */
  | { kind: 'gap' };

/** A list as Markdown, nested lists indented under their item. */
function listMarkdown(list: HtmlElement, indent = ''): string {
  const bullet = list.name === 'ol' ? '1.' : '-';
  const lines: string[] = [];
  for (const item of list.children) {
    if (typeof item === 'string' || item.name !== 'li') continue;
    const nested = item.children.filter(
      (child): child is HtmlElement =>
        typeof child !== 'string' && (child.name === 'ul' || child.name === 'ol'),
    );
    const own = item.children.filter((child) => !nested.includes(child as HtmlElement));
    const text = plainParagraph(own.map(textOf).join('').replace(/\s+/g, ' '));
    if (text !== '') lines.push(`${indent}${bullet} ${text}`);
    for (const child of nested) lines.push(listMarkdown(child, `${indent}${' '.repeat(bullet.length + 1)}`));
  }
  return lines.filter((line) => line !== '').join('\n');
}

/** Spans past Word's 63 columns are damage; clamping them keeps a bad file from filling memory. */
const maxSpan = 64;

/**
 * A table's rows as a grid: a merged cell's text in its first position, the positions it also
 * covers empty, except across the header row, where each column keeps the heading it sits under.
 */
function tableRows(table: HtmlElement): string[][] {
  const rows: HtmlElement[] = [];
  const collect = (node: HtmlElement) => {
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      if (child.name === 'tr') rows.push(child);
      else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') collect(child);
    }
  };
  collect(table);
  const grid: string[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let column = 0;
    for (const cell of row.children) {
      if (typeof cell === 'string' || (cell.name !== 'td' && cell.name !== 'th')) continue;
      while (grid[r]![column] !== undefined) column++;
      const text = textOf(cell).trim();
      const colspan = Math.min(maxSpan, Math.max(1, Number(cell.attributes.colspan) || 1));
      const rowspan = Math.min(rows.length - r, Math.max(1, Number(cell.attributes.rowspan) || 1));
      for (let dr = 0; dr < rowspan; dr++) {
        for (let dc = 0; dc < colspan; dc++) {
          grid[r + dr]![column + dc] = dr === 0 && (dc === 0 || r === 0) ? text : '';
        }
      }
      column += colspan;
    }
  });
  return grid.map((row) => Array.from(row, (cell) => cell ?? ''));
}

function hasImage(node: HtmlNode): boolean {
  return typeof node !== 'string' && (node.name === 'img' || node.children.some(hasImage));
}

/** The blocks of mammoth's HTML, in order. */
function blocksOf(parent: HtmlElement, blocks: Block[] = []): Block[] {
  for (const node of parent.children) {
    if (typeof node === 'string') {
      if (node.trim() !== '') blocks.push({ kind: 'text', text: node, caption: false });
      continue;
    }
    const heading = /^h([1-6])$/.exec(node.name);
    if (heading) {
      blocks.push({
        kind: 'heading',
        level: Number(heading[1]),
        text: textOf(node).replace(/\s+/g, ' ').trim(),
      });
    } else if (node.name === 'p') {
      const text = textOf(node);
      const caption = (node.attributes.class ?? '').split(' ').includes('caption');
      if (text.trim() !== '') blocks.push({ kind: 'text', text, caption });
      else if (hasImage(node)) blocks.push({ kind: 'gap' });
    } else if (node.name === 'ul' || node.name === 'ol') {
      blocks.push({ kind: 'list', markdown: listMarkdown(node) });
    } else if (node.name === 'table') {
      blocks.push({ kind: 'table', rows: tableRows(node) });
    } else {
      blocksOf(node, blocks);
    }
  }
  return blocks;
}

/** A table's title though not styled as a caption: "Table 3: …", "Tab. 2 …". */
const tableTitle = /^\s*(?:table|tab\.)\s*[\dIVXLC]+\b/i;

function isCaption(block: Block | undefined): block is Extract<Block, { kind: 'text' }> {
  return (
    block?.kind === 'text' && (block.caption || (tableTitle.test(block.text) && block.text.length < 300))
  );
}

/**
 * Gives each table the caption next to it, above or below. The side the document's captions are
 * on (Word lets a writer choose) wins, and a caption between two tables goes to that side's table.
 */
function attachCaptions(blocks: Block[]): Block[] {
  let above = 0;
  let below = 0;
  blocks.forEach((block, i) => {
    if (!isCaption(block)) return;
    const before = blocks[i - 1]?.kind === 'table';
    const after = blocks[i + 1]?.kind === 'table';
    if (after && !before) above++;
    if (before && !after) below++;
  });
  const taken = new Set<number>();
  const free = (at: number) => isCaption(blocks[at]) && !taken.has(at);
  /** Whether the caption at `at` has a table on its far side from table `i` too (then it is that one's). */
  const shared = (at: number, i: number) => blocks[2 * at - i]?.kind === 'table';
  blocks.forEach((block, i) => {
    if (block.kind !== 'table') return;
    const order = below > above ? [i + 1, i - 1] : [i - 1, i + 1];
    const at = order.find((k, n) => free(k) && (n === 0 || !shared(k, i)));
    if (at === undefined) return;
    block.caption = (blocks[at] as Extract<Block, { kind: 'text' }>).text;
    taken.add(at);
  });
  return blocks.filter((_, i) => !taken.has(i));
}

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return block.text === '' ? '' : `${'#'.repeat(block.level)} ${block.text}`;
    case 'text':
      return plainParagraph(block.text);
    case 'list':
      return block.markdown;
    case 'table':
      return block.rows.length === 0 ? '' : markdownTable(block.rows, block.caption);
    case 'gap':
      return '';
  }
}

/**
 * mammoth reads the zip with JSZip, which inflates without a bound; it is handed the document's
 * XML parts, already inflated within {@link openOfficeZip}'s bound, in a zip that only stores them,
 * each cut to its root element (xml-root.ts: mammoth parses with xmldom too).
 */
function boundedZip(bytes: Uint8Array, options: ConvertOptions): Uint8Array {
  const parts = openOfficeZip(bytes, options, 'docx', (path) => /\.(?:xml|rels)$/i.test(path));
  const roots = [...parts].map(([path, part]) => [path, strToU8(rootElementText(decodePart(part)))]);
  return zipSync(Object.fromEntries(roots), { level: 0 });
}

/**
 * mammoth hands back its result as a Promise subclass that it makes by assigning `__proto__`, an
 * assignment Deno ignores: there the subclass has no `resolve`, and every conversion throws. Where
 * the assignment does nothing, mammoth is told to hand back the plain promise it wraps instead.
 */
async function fitMammoth(): Promise<void> {
  const parent = {};
  const probe = {};
  Reflect.set(probe, '__proto__', parent);
  if (Object.getPrototypeOf(probe) === parent) return;
  // A deep import (mammoth has no `exports` map): the module object mammoth's own code calls.
  const promises = (await import('mammoth/lib/promises.js' as string)) as {
    default: { toExternalPromise: (promise: Promise<unknown>) => Promise<unknown> };
  };
  promises.default.toExternalPromise = (promise) => Promise.resolve(promise);
}

/**
 * mammoth's XML reader notes xmldom's first warning or error and throws it once the parse is done;
 * but on a damaged part that parse can take minutes (once the root closes early, xmldom scans the
 * top level again for each node it adds there). The reader mammoth calls, a deep import like
 * {@link fitMammoth}'s, is given one that throws at the first problem: the same failure, at once.
 */
async function failFastXml(): Promise<void> {
  const reader = (await import('mammoth/lib/xml/xmldom.js' as string)) as {
    default: { parseFromString: (xml: string) => Document };
  };
  const fail = (level: string) => (message: string) => {
    throw new Error(`${level}: ${message}`);
  };
  reader.default.parseFromString = (xml) =>
    new DOMParser({
      errorHandler: { warning: fail('warning'), error: fail('error'), fatalError: fail('fatalError') },
    }).parseFromString(xml, 'text/xml') as unknown as Document;
}

/**
 * Reads a Word file (.docx) as Markdown; see {@link Converter} for the errors.
 *
 * @example
 * const { markdown } = await convertDocx(bytes, { name: 'report.docx', maxPages: 2000 });
 */
export const convertDocx: Converter = officeConverter(
  'docx',
  async (bytes, options): Promise<ConvertedDocument> => {
    const stored = boundedZip(bytes, options);
    await fitMammoth();
    await failFastXml();
    const buffer = stored.buffer.slice(
      stored.byteOffset,
      stored.byteOffset + stored.byteLength,
    ) as ArrayBuffer;
    // Node's build of mammoth reads `buffer`, its browser build `arrayBuffer`.
    const input = { arrayBuffer: buffer, buffer: stored } as unknown as { arrayBuffer: ArrayBuffer };
    const converting = mammoth.convertToHtml(input, { styleMap, convertImage: noImage });
    const html = (await raceAbort(converting, [options.signal], `reading ${options.name}`)).value;
    throwIfAborted(options.signal, `reading ${options.name}`);
    const markdown = attachCaptions(blocksOf(parseHtml(html)))
      .map(blockMarkdown)
      .filter((text) => text !== '')
      .join('\n\n');
    if (markdown.replace(/^#+ /gm, '').trim() === '') {
      throw officeError('UNSUPPORTED_INPUT', options, 'the Word document has no text');
    }
    return { markdown, pageCount: undefined, scannedPages: [] };
  },
);

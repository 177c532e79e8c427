/**
 * HTML to sections without a DOM (workers have none): htmlparser2's streaming parser feeds a
 * small state machine that keeps visible text, turns `h1`–`h6` into sections, and writes the body
 * as Markdown-like text (headings as `#` lines, list items as `- `, `pre` as fenced code) so that
 * stored content reads well and later stages treat it like Markdown.
 */
import { Parser } from 'htmlparser2';
import { type DocumentTree, type FlatSection, nestSections } from './document.js';

/** Never visible, or navigation chrome that would drown the page's own words in menus. */
const SKIPPED = new Set(`script style noscript template svg math canvas iframe object nav head`.split(/\s+/));
const BLOCKS = new Set(
  `p div section article main header footer aside blockquote figure figcaption table thead tbody tr ul
ol li dl dt dd form fieldset details summary address hr br pre caption body html`.split(/\s+/),
);
const HEADING = /^h([1-6])$/;

type Item =
  | { kind: 'heading'; level: number; text: string; main: boolean }
  | { kind: 'block'; text: string; main: boolean };

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Walks the parser events once; everything it keeps ends up in `items` in document order. */
function collect(html: string): { title: string; items: Item[] } {
  const items: Item[] = [];
  const open: { name: string; skip: boolean; main: boolean }[] = [];
  let title = '';
  let inTitle = false;
  let heading: { level: number; text: string } | undefined;
  let inline = '';
  let pre: string | undefined;
  const top = () => open[open.length - 1];
  const flush = () => {
    const text = collapse(inline);
    inline = '';
    if (text !== '' && text !== '-') items.push({ kind: 'block', text, main: top()?.main ?? false });
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const parent = top();
        const hidden = 'hidden' in attributes || attributes['aria-hidden'] === 'true';
        const skip = (parent?.skip ?? false) || SKIPPED.has(name) || hidden;
        const main =
          (parent?.main ?? false) || name === 'main' || name === 'article' || attributes.role === 'main';
        // An svg's <title> is a tooltip, not the page's.
        if (name === 'title' && !open.some((e) => e.name === 'svg' || e.name === 'math')) inTitle = true;
        open.push({ name, skip, main });
        if (skip) return;
        const level = HEADING.exec(name)?.[1];
        if (level) {
          flush();
          heading = { level: Number(level), text: '' };
        } else if (name === 'pre') {
          flush();
          pre = '';
        } else if (BLOCKS.has(name)) {
          flush();
          if (name === 'li') inline = '- ';
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        if (top()?.skip ?? false) return;
        if (heading) heading.text += text;
        else if (pre !== undefined) pre += text;
        else inline += text;
      },
      onclosetag(name) {
        const element = open.pop();
        if (name === 'title') inTitle = false;
        if (!element || element.skip) return;
        if (heading && HEADING.test(name)) {
          items.push({
            kind: 'heading',
            level: heading.level,
            text: collapse(heading.text),
            main: element.main,
          });
          heading = undefined;
        } else if (name === 'pre' && pre !== undefined) {
          const code = pre.replace(/^\n/, '').replace(/\s+$/, '');
          if (code !== '') items.push({ kind: 'block', text: `\`\`\`\n${code}\n\`\`\``, main: element.main });
          pre = undefined;
        } else if (BLOCKS.has(name)) {
          flush();
        } else if (name === 'td' || name === 'th') {
          inline += ' ';
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return { title: collapse(title), items };
}

/**
 * Parses HTML into sections by its `h1`–`h6` headings; scripts, styles, `nav` and hidden elements
 * are dropped, and when the page marks its content (`main`, `article`, `role="main"`) only that is
 * kept. The title is `<title>`, else the first `h1`, else `''`.
 *
 * @example
 * parseHtml('<title>T</title><h1>A</h1><p>x &amp; y</p>').sections[0]!.text; // '# A\n\nx & y\n'
 */
export function parseHtml(content: string): DocumentTree {
  const collected = collect(content);
  const items = collected.items.some((item) => item.main)
    ? collected.items.filter((item) => item.main)
    : collected.items;
  const lead: string[] = [];
  const flat: (FlatSection & { body: string[] })[] = [];
  for (const item of items) {
    if (item.kind === 'heading') flat.push({ heading: item.text, level: item.level, text: '', body: [] });
    else (flat[flat.length - 1]?.body ?? lead).push(item.text);
  }
  for (const section of flat) {
    const head = `${'#'.repeat(section.level)} ${section.heading}`.trimEnd();
    section.text = `${[head, ...section.body].join('\n\n')}\n`;
  }
  const title = collected.title || (flat.find((s) => s.level === 1)?.heading ?? '');
  const sections = nestSections(flat.map(({ heading, level, text }) => ({ heading, level, text })));
  return { title, format: 'html', lead: lead.length > 0 ? `${lead.join('\n\n')}\n` : '', sections };
}

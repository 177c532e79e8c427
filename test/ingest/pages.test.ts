import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE_BREAK } from '../../src/ingest/convert/converted.js';
import { withPages } from '../../src/ingest/parse/pages.js';
import { parseMarkdown } from '../../src/ingest/parse/parse-markdown.js';
import { splitDocument } from '../../src/ingest/parse/split.js';

/** A paged document: each page a heading now and then and paragraphs that say which page they are on. */
function pagedDocument(pages: readonly { heading: boolean; paragraphs: number }[]): string {
  return pages
    .map(({ heading, paragraphs }, p) => {
      const lines = heading ? [`## Part starting on page ${p + 1}`] : [];
      for (let k = 0; k < paragraphs; k++)
        lines.push(`Paragraph ${k} of page-${p + 1} ${'words of filler text '.repeat(12)}`);
      return lines.join('\n\n');
    })
    .join(PAGE_BREAK);
}

describe('withPages', () => {
  it('gives every part the pages its paragraphs are on, and keeps no form feed', () => {
    const page = fc.record({ heading: fc.boolean(), paragraphs: fc.integer({ min: 0, max: 12 }) });
    fc.assert(
      fc.property(fc.array(page, { minLength: 1, maxLength: 25 }), (pages) => {
        const nodes = withPages(
          splitDocument(parseMarkdown(pagedDocument(pages)), { maxTokens: 600, mergeBelow: 150 }),
        );
        const files = nodes.filter((n) => n.kind === 'file');
        let previousLast = 1;
        for (const file of files) {
          expect(file.content).not.toContain('\f');
          const [first, last] = file.pages!;
          expect(first).toBeLessThanOrEqual(last);
          expect(first).toBeGreaterThanOrEqual(previousLast);
          previousLast = last;
          for (const [, on] of file.content!.matchAll(/page-(\d+)/g)) {
            expect(Number(on)).toBeGreaterThanOrEqual(first);
            expect(Number(on)).toBeLessThanOrEqual(last);
          }
        }
        const root = nodes[0]!;
        expect(root.pages![0]).toBe(files[0]!.pages![0]);
        expect(root.pages![1]).toBe(files.at(-1)!.pages![1]);
      }),
      { numRuns: 200 },
    );
  });

  it('starts a part that begins with a page break on the next page', () => {
    const nodes = withPages([
      { relativePath: [], kind: 'dir', title: 'r', headings: [] },
      { relativePath: ['01-a'], kind: 'file', title: 'a', headings: [], content: 'One.\n\n\f\n\n' },
      { relativePath: ['02-b'], kind: 'file', title: 'b', headings: [], content: '\f\n\n## B\n\nThree.\n' },
    ]);
    expect(nodes.map((n) => n.pages)).toEqual([
      [1, 3],
      [1, 1],
      [3, 3],
    ]);
    expect(nodes[1]!.content).toBe('One.\n');
    expect(nodes[2]!.content).toBe('## B\n\nThree.\n');
  });

  it('does not give a part the empty (scanned) page after its text', () => {
    const nodes = withPages([
      { relativePath: [], kind: 'dir', title: 'r', headings: [] },
      { relativePath: ['01-a'], kind: 'file', title: 'a', headings: [], content: 'Costs.\n\n\f\n\n\f\n\n' },
      { relativePath: ['02-b'], kind: 'file', title: 'b', headings: [], content: '# Revenue\n' },
    ]);
    expect(nodes.map((n) => n.pages)).toEqual([
      [1, 3],
      [1, 1],
      [3, 3],
    ]);
  });

  it('leaves a short document one file spanning all its pages', () => {
    const [only] = withPages(splitDocument(parseMarkdown(`a${PAGE_BREAK}b${PAGE_BREAK}c`)));
    expect(only!.pages).toEqual([1, 3]);
    expect(only!.content).toBe('a\n\nb\n\nc');
  });
});

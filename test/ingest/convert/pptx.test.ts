import { beforeAll, describe, expect, it } from 'vitest';
import { convertPptx } from '../../../src/ingest/convert/pptx.js';
import {
  extraPptxSlide,
  makePptx,
  PPTX_BULLETS,
  PPTX_NOTES,
  PPTX_SOURCE_NOTE,
  PPTX_TABLE,
  PPTX_TITLES,
} from '../../fixtures/documents/make-office.js';
import { rejectsWith } from '../fixtures.js';
import { editParts } from './edit-parts.js';
import { headingsOf, officeErrorSuite, tableAfter } from './office-support.js';

const options = { name: 'deck.pptx', maxPages: 100 };

/** Each slide's section: its heading line and what follows up to the next slide. */
function slideSections(markdown: string): string[] {
  return markdown.split(/\n\n(?=## Slide \d)/);
}

describe('convertPptx', () => {
  let markdown: string;
  beforeAll(async () => {
    const converted = await convertPptx(makePptx(), options);
    markdown = converted.markdown;
    expect(converted.pageCount).toBeUndefined();
    expect(converted.scannedPages).toEqual([]);
  });

  it('writes one "## Slide N: title" section per slide, in the deck’s order, not the parts’', () => {
    expect(headingsOf(markdown)).toEqual(
      PPTX_TITLES.map((title, i) => ({ level: 2, text: `Slide ${i + 1}: ${title}` })),
    );
  });

  it('writes the subtitle as a paragraph and the body’s bullets as a nested list', () => {
    const [first, second] = slideSections(markdown);
    expect(first).toBe('## Slide 1: Quarterly Review\n\nNorthwind Logistics');
    expect(second).toContain(`\n\n${PPTX_BULLETS.join('\n')}\n\n`);
  });

  it('writes the speaker notes under a Notes line, without the notes page’s slide number', () => {
    const sections = slideSections(markdown);
    expect(sections[1]!.endsWith(`\n\nNotes:\n\n${PPTX_NOTES}`)).toBe(true);
    expect(sections[0]).not.toContain('Notes:');
    expect(sections[2]).not.toContain('Notes:');
  });

  it('writes a table as a pipe table with its numbers in their cells, in shape order', () => {
    const third = slideSections(markdown)[2]!;
    const header = `| ${PPTX_TABLE.header.join(' | ')} |`;
    expect(tableAfter(third, header)).toEqual([PPTX_TABLE.header, ...PPTX_TABLE.rows]);
    expect(third.indexOf(header)).toBeLessThan(third.indexOf(PPTX_SOURCE_NOTE));
    expect(third.startsWith(`## ${PPTX_TABLE.section}\n\n`)).toBe(true);
  });

  it('reads a larger deck slide by slide, merged table cells and all', async () => {
    const { markdown: text } = await convertPptx(makePptx({ slides: 40 }), options);
    const sections = slideSections(text);
    expect(sections).toHaveLength(43);
    const { title, rows, cell } = extraPptxSlide(40);
    expect(
      sections[42]!.startsWith(
        `## Slide 43: ${title}\n\n- Depot 40 opened on time\n  - Staffed by 50 drivers`,
      ),
    ).toBe(true);
    // Merged cells: the header's text over each column it spans, the cells merged into others empty.
    expect(tableAfter(sections[42]!, '| Item | Weeks | Weeks |')).toEqual(rows);
    expect(rows[2]).toEqual([cell.row, '440', cell.value]);
  });

  it('reads shapes inside groups, and a nesting past any real deck’s is CORRUPT_INPUT, not a stack overflow', async () => {
    const { markdown: grouped } = await convertPptx(makePptx({ groupDepth: 3 }), options);
    expect(grouped).toBe(markdown);
    const error = await rejectsWith(
      () => convertPptx(makePptx({ groupDepth: 100_000 }), options),
      'CORRUPT_INPUT',
    );
    expect(error.message).toMatch(/^deck\.pptx: not a readable PowerPoint file: /);
    expect(error.cause).toBeInstanceOf(RangeError);
  });

  it('reads a slide the deck lists twice once', async () => {
    const twice = editParts(makePptx(), {
      'ppt/presentation.xml': (xml) =>
        xml!.replace('</p:sldIdLst>', '<p:sldId id="259" r:id="rId11"/></p:sldIdLst>'),
    });
    expect((await convertPptx(twice, options)).markdown).toBe(markdown);
  });

  it('reads notes that two slides share once, under the first', async () => {
    // The deck's third slide (slide1.xml) points at the second's notes too.
    const notes = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide';
    const shared = editParts(makePptx(), {
      'ppt/slides/_rels/slide1.xml.rels': () =>
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="${notes}" Target="../notesSlides/notesSlide1.xml"/></Relationships>`,
    });
    expect((await convertPptx(shared, options)).markdown).toBe(markdown);
  });

  it('reads slide parts with 100,000 stray nodes after their root, or in a root never closed, as the slides', async () => {
    // xmldom scanned the top level again for each (it takes a root without its end tag for an
    // empty one): minutes for a part of 1.3 MB.
    const stray = '<p:sp/><!-- stray -->'.repeat(50_000);
    const damaged = editParts(makePptx(), {
      'ppt/slides/slide2.xml': (xml) => xml! + stray,
      'ppt/slides/slide3.xml': (xml) => xml!.replace('</p:sld>', stray),
    });
    // The deck's first and last slides read as they are; the second is what xmldom makes of it.
    const [first, second, third] = slideSections((await convertPptx(damaged, options)).markdown);
    expect([first, third]).toEqual([slideSections(markdown)[0], slideSections(markdown)[2]]);
    expect(second).toMatch(/^## Slide 2/);
  });

  it('more slides than maxPages is INPUT_TOO_LARGE', async () => {
    const error = await rejectsWith(
      () => convertPptx(makePptx(), { ...options, maxPages: 2 }),
      'INPUT_TOO_LARGE',
    );
    expect(error.message).toBe('deck.pptx: 3 slides, over the limit of 2');
  });
});

officeErrorSuite(convertPptx, 'pptx', () => makePptx(), 'ppt/presentation.xml');

// The documents the document fuzz run mutates (docs/internals/model-test.md): a handful of each
// kind made by the fixture builders, among them the encrypted, scanned and legacy ones and a zip
// bomb, and each Office file once more with its parts stored rather than deflated, so that a byte
// mutation lands in the XML itself instead of only breaking the deflate stream.

import { unzipSync, zipSync } from 'fflate';
import {
  makeDocx,
  makeEncryptedOffice,
  makeLegacyOffice,
  makePptx,
  makeXlsx,
  makeZipBomb,
} from '../fixtures/documents/make-office.js';
import {
  makeEncryptedPdf,
  makeImageOnlyPdf,
  makeReportPdf,
  makeTextPdf,
  makeTwoColumnPdf,
} from '../fixtures/documents/make-pdf.js';

/** A document to mutate; its name's extension routes it to its converter. */
export interface DocumentFixture {
  name: string;
  bytes: Uint8Array;
}

/** The same zip with every part stored (method 0), readable bytes for a mutation to hit. */
function stored(bytes: Uint8Array): Uint8Array {
  return zipSync(unzipSync(bytes), { level: 0 });
}

/** Builds the fixtures (about half a second). */
export async function documentFixtures(): Promise<DocumentFixture[]> {
  const docx = await makeDocx();
  const pptx = makePptx({ slides: 2, groupDepth: 2 });
  const xlsx = makeXlsx({ rows: 12, diagonal: 3 });
  return [
    { name: 'report.pdf', bytes: await makeReportPdf() },
    { name: 'report-6.pdf', bytes: await makeReportPdf({ pages: 6 }) },
    { name: 'columns.pdf', bytes: await makeTwoColumnPdf() },
    { name: 'notes.pdf', bytes: await makeTextPdf([['A short page of text.'], ['And a second one.']]) },
    { name: 'scanned.pdf', bytes: await makeImageOnlyPdf() },
    { name: 'encrypted.pdf', bytes: await makeEncryptedPdf() },
    { name: 'report.docx', bytes: docx },
    { name: 'report-sections.docx', bytes: await makeDocx({ sections: 2 }) },
    { name: 'stored.docx', bytes: stored(docx) },
    { name: 'deck.pptx', bytes: makePptx() },
    { name: 'deck-slides.pptx', bytes: pptx },
    { name: 'stored.pptx', bytes: stored(pptx) },
    { name: 'book.xlsx', bytes: makeXlsx() },
    { name: 'book-rows.xlsx', bytes: xlsx },
    { name: 'stored.xlsx', bytes: stored(xlsx) },
    { name: 'encrypted.docx', bytes: makeEncryptedOffice() },
    { name: 'encrypted.xlsx', bytes: makeEncryptedOffice() },
    { name: 'legacy.doc', bytes: makeLegacyOffice('doc') },
    { name: 'legacy.ppt', bytes: makeLegacyOffice('ppt') },
    { name: 'bomb.docx', bytes: makeZipBomb('word/document.xml', 12) },
  ];
}

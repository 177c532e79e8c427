// A damaged PDF on which pdf.js drops a failed fetch without awaiting it (issue 35; the
// `pdfStrayRejections` switch, docs/internals/model-test.md). It is read in a child process, as the
// document fuzz run reads its inputs, because a rejection no one handles would end the process it is
// in: pdf.js's worker side runs on a thread of its own, which it ends instead.

import { afterAll, expect, it } from 'vitest';
import { makeStrayKidPdf } from '../../fixtures/documents/make-pdf.js';
import { FuzzChild } from '../../fuzz/fuzz-child.js';
import type { DocumentAnswer, DocumentInput } from '../../fuzz/fuzz-input.js';

const child = new FuzzChild<DocumentInput, DocumentAnswer>({ script: 'test/fuzz/document-child.ts' });
afterAll(() => child.stop());

it('reads a PDF whose page tree lists a damaged page past its count to a typed error, and the process lives on', async () => {
  const input = { id: 1, name: 'stray-kid.pdf', bytes: await makeStrayKidPdf() };
  const answer = await child.run(input, 30_000);
  // With pdfStrayRejections on (the default), the child dies of any rejection no one handles.
  expect(answer, 'the child process died').not.toBe('died');
  expect(answer).not.toBe('hang');
  const { direct, public: added, strayRejections } = answer as DocumentAnswer;
  // pdf.js's rejection ends the thread its worker side runs on, and the PDF with it (pdf-thread.test.ts).
  expect(direct).toEqual({ typed: 'CORRUPT_INPUT' });
  expect(added).toEqual({ typed: 'CORRUPT_INPUT' });
  expect(strayRejections).toBe(0);
}, 60_000);

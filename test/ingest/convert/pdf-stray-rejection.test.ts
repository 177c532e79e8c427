// A damaged PDF on which pdf.js drops a failed fetch without awaiting it (issue 35; the
// `pdfStrayRejections` switch, docs/internals/model-test.md). It is read in a child process, as the
// document fuzz run reads its inputs, because a rejection no one handles ends the process it is in.

import { afterAll, expect, it } from 'vitest';
import { makeStrayKidPdf } from '../../fixtures/documents/make-pdf.js';
import { FuzzChild } from '../../fuzz/fuzz-child.js';
import type { DocumentAnswer, DocumentInput } from '../../fuzz/fuzz-input.js';
import { envSwitches } from '../../model/switches.js';

const child = new FuzzChild<DocumentInput, DocumentAnswer>({ script: 'test/fuzz/document-child.ts' });
afterAll(() => child.stop());

it('reads a PDF whose page tree lists a damaged page past its count, and the process lives on', async () => {
  const input = { id: 1, name: 'stray-kid.pdf', bytes: await makeStrayKidPdf() };
  const answer = await child.run(input, 30_000);
  // With pdfStrayRejections on, the child dies of the first rejection no one handles.
  expect(answer, 'the child process died').not.toBe('died');
  expect(answer).not.toBe('hang');
  const { direct, public: added, strayRejections } = answer as DocumentAnswer;
  // pdf.js reads the first page twice, as /Kids lists it, and never the damaged one.
  expect(direct).toEqual({ ok: true });
  expect(added).toEqual({ ok: true });
  // Off, the child counts pdf.js's stray rejection, one a read (directly and through addResource()):
  // when a fix leaves none, this fails, and the switch goes on by default.
  expect(strayRejections).toBe(envSwitches().pdfStrayRejections ? 0 : 2);
}, 60_000);

// A module Worker for test/targets/chromium-pdf.test.ts: each message is a PDF's bytes; the answer
// is the converted document or the error's code and message.

import { LongshipError } from '../../src/errors.js';
import { convertPdf } from '../../src/ingest/convert/pdf.js';

// The DOM typings describe a Window; a worker's global scope has these two members.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<Uint8Array>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  try {
    scope.postMessage({ converted: await convertPdf(event.data, { name: 'report.pdf', maxPages: 100 }) });
  } catch (error) {
    scope.postMessage({
      error: error instanceof LongshipError ? `${error.code}: ${error.message}` : String(error),
    });
  }
};

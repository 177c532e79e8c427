// Bundled by test/edge/pdf.test.ts with esbuild and run in workerd by Miniflare: converts the PDF
// it is posted and answers with the ConvertedDocument, or the error's code and message.

import { LongshipError } from '../../src/errors.js';
import { convertPdf } from '../../src/ingest/convert/pdf.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const bytes = new Uint8Array(await request.arrayBuffer());
    try {
      return Response.json({ converted: await convertPdf(bytes, { name: 'report.pdf', maxPages: 100 }) });
    } catch (error) {
      const code = error instanceof LongshipError ? error.code : 'not a LongshipError';
      return Response.json({
        error: `${code}: ${(error as Error).message}; cause: ${(error as Error).cause}`,
      });
    }
  },
};

// Run by test/edge/pdf.test.ts with `deno run --sloppy-imports --allow-read <pdf file>`: converts
// the PDF and prints one JSON line, the ConvertedDocument and the runtime.
import { convertPdf } from '../../src/ingest/convert/pdf.js';

// Just what this script uses of Deno's global, for tsc (which runs without Deno's types).
declare const Deno: {
  args: string[];
  readFile(path: string): Promise<Uint8Array>;
  version: { deno: string };
};

const converted = await convertPdf(await Deno.readFile(Deno.args[0]!), { name: 'report.pdf', maxPages: 100 });
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, converted }));

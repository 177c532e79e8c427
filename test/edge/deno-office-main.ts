// Run by test/edge/deno-office.test.ts with `deno run --sloppy-imports --allow-read=<folder>`: converts
// the Word, PowerPoint and Excel files in the folder it is given and prints one JSON line.
import { convertDocx } from '../../src/ingest/convert/docx.js';
import { convertPptx } from '../../src/ingest/convert/pptx.js';
import { convertXlsx } from '../../src/ingest/convert/xlsx.js';

// Just what this script uses of Deno's global, for tsc (which runs without Deno's types).
declare const Deno: { readFile(path: string): Promise<Uint8Array<ArrayBuffer>>; args: string[] };

const folder = Deno.args[0]!;
const converters = { 'report.docx': convertDocx, 'deck.pptx': convertPptx, 'book.xlsx': convertXlsx };
const markdown: Record<string, string> = {};
for (const [name, convert] of Object.entries(converters)) {
  markdown[name] = (
    await convert(await Deno.readFile(`${folder}/${name}`), { name, maxPages: 100 })
  ).markdown;
}
console.log(JSON.stringify(markdown));

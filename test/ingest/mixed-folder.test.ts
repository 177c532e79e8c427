// Issue 35's mixed folder in Node, with the bundled model: PDFs, Word, PowerPoint, Excel, Markdown,
// text and HTML go in in one call; each broken file is skipped with its typed error; a question about
// a number in any table finds that table's part in the top three, a PDF's citing its page.
// test/targets/chromium-documents.test.ts runs the same through the worker in Chromium.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import {
  type MixedFolder,
  makeMixedFolder,
  mixedFolderProblems,
  type TableAnswer,
} from '../fixtures/documents/mixed-folder.js';

let folder: MixedFolder;
let longship: Longship;

beforeAll(async () => {
  folder = await makeMixedFolder();
  longship = await openLongship({ store: await openMemoryStore() });
});

afterAll(() => longship?.close());

it('adds the mixed folder, skipping each broken file with its code, and finds every table by a number in it', async () => {
  const result = await longship.addResource(folder.entries, { name: 'drop' });
  expect(result.uris).toHaveLength(folder.entries.length - folder.broken.length);
  const answers: TableAnswer[] = [];
  for (const { question } of folder.tables) {
    const { resources } = await longship.find(question, { limit: 3 });
    const top = [];
    for (const r of resources) {
      const text = r.isLeaf ? await longship.read(r.uri) : '';
      top.push({ uri: r.uri, text, ...(r.pages ? { pages: r.pages } : {}) });
    }
    answers.push({ question, top });
  }
  const outcome = {
    skipped: result.skipped.map(({ path, error }) => ({ path, code: error.code })),
    ...(result.scannedPages ? { scannedPages: result.scannedPages } : {}),
  };
  expect(mixedFolderProblems(folder, 'drop', outcome, answers)).toEqual([]);
}, 240_000);

// `npm run readme:sync`: copies each example file into the README block marked with its path
// (tools/readme/examples.ts), so that the quick starts are the code the consumer tests run.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exampleBlocks, fillExamples } from './examples.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readmePath = `${root}README.md`;
const readme = readFileSync(readmePath, 'utf8');
const filled = fillExamples(readme, (path) => readFileSync(`${root}${path}`, 'utf8'));
const paths = exampleBlocks(filled).map((block) => block.path);
if (filled === readme) {
  console.log(`README.md: ${paths.length} examples, all as in their files`);
} else {
  writeFileSync(readmePath, filled);
  console.log(`README.md: ${paths.length} examples written from ${paths.join(', ')}`);
}

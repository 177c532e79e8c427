// What the demo's pack is made from, and the hash that names it: the corpus's pages, the bundled
// model (its id and its weights), the package's version, the records' schema and the engine's own
// sources (a change to how documents are split or indexed changes the records and the snapshots). A
// pack whose hash differs from this is stale.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACK_FORMAT } from '../../demo/src/pack-format.js';
import { bundledModel } from '../../src/embed/bundled-model.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/store.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The pages the demo's corpus.ts reads (its import.meta.glob), relative to this folder. */
export const corpusContent = join(root, 'demo/corpus/npm-docs/content');
const modelWeights = join(root, 'model/use-lite/onnx/model_quantized.onnx');

/** Every page as `{ path, content }`, by path: what the demo's loadCorpus() gives addResource. */
export function corpusEntries(): { path: string; content: string }[] {
  const files = readdirSync(corpusContent, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => path.split('\\').join('/'))
    .sort();
  return files.map((path) => ({ path, content: readFileSync(join(corpusContent, path), 'utf8') }));
}

/** The engine's sources and the pack's own code, relative to the repository, in a fixed order. */
function sourceFiles(): string[] {
  const under = (folder: string) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts'))
      .map((path) => `${folder}/${path.split('\\').join('/')}`);
  return [...under('src'), 'demo/src/pack-format.ts', 'demo/src/pack-import.ts', 'tools/demo/pack.ts'].sort();
}

export function packVersion(): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The hash a pack made now would carry. */
export function packHash(): string {
  const hash = createHash('sha256');
  const part = (text: string | Buffer) => {
    hash.update(String(text.length));
    hash.update(':');
    hash.update(text);
  };
  part(`format ${PACK_FORMAT} schema ${STORE_SCHEMA_VERSION} version ${packVersion()}`);
  part(`model ${bundledModel.id} ${bundledModel.dimensions}`);
  part(readFileSync(modelWeights));
  for (const { path, content } of corpusEntries()) {
    part(relative('.', path));
    part(content);
  }
  for (const path of sourceFiles()) {
    part(path);
    part(readFileSync(join(root, path)));
  }
  return hash.digest('hex').slice(0, 16);
}

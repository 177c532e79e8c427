// The sample corpus bundled with the demo: the npm CLI's documentation (demo/corpus/npm-docs/,
// Artistic-2.0, see its README). Vite turns each page into a lazily loaded module.
import type { FolderEntry } from '../../src/ingest/input.js';

const pages = import.meta.glob<string>('../corpus/npm-docs/content/**/*.md', {
  query: '?raw',
  import: 'default',
});

const prefix = '../corpus/npm-docs/content/';

/** The folder name the corpus is indexed under: `viking://resources/npm-docs`. */
export const corpusName = 'npm-docs';

/** Bump when the vendored pages change, so a stored older copy is indexed again. */
export const corpusVersion = 'npm-11.19.1';

export const corpusSize = Object.keys(pages).length;

/** Every page as a folder entry (`commands/npm-install.md`, …). */
export async function loadCorpus(): Promise<FolderEntry[]> {
  return Promise.all(
    Object.entries(pages).map(async ([path, load]) => ({
      path: path.slice(prefix.length),
      content: await load(),
    })),
  );
}

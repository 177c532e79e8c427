// The folder of a user's own Markdown that the benchmark indexes in the page: the sample corpus's
// 91 pages, then pages of Longship's own guide (docs/guide/, by name) up to the count asked for.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface MarkdownFile {
  /** Path in the folder: `npm-docs/commands/npm-install.md`, `longship-guide/cli.md`. */
  path: string;
  content: string;
}

/** The first `count` files: the corpus's pages in path order, then the guide's. */
export function markdownFolder(root: string, count: number): MarkdownFile[] {
  const sources = [
    { prefix: 'npm-docs', dir: join(root, 'demo/corpus/npm-docs/content') },
    { prefix: 'longship-guide', dir: join(root, 'docs/guide') },
  ];
  const files: MarkdownFile[] = [];
  for (const { prefix, dir } of sources) {
    const paths = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.md'))
      .sort();
    for (const path of paths) {
      if (files.length === count) return files;
      files.push({ path: `${prefix}/${path}`, content: readFileSync(join(dir, path), 'utf8') });
    }
  }
  if (files.length < count) throw new Error(`only ${files.length} Markdown files to index, not ${count}`);
  return files;
}

// The viking:// filesystem over a Store: every operation reads what it needs, then writes one
// commit, so a crash leaves either all of an operation or none of it. Writes go through whatever
// store it is given; the engine hands it the derived indexes' store, which catches them up. The
// reads are in tree-reads.ts, the writes in tree-writes.ts.

import { SerialQueue } from '../serial-queue.js';
import type { ContextTree, ContextTreeOptions } from './tree.js';
import { existing, infoOf } from './tree-lookup.js';
import { lsPage, treePage } from './tree-pages.js';
import { glob, grep, ls, nestedTree, overview, read, relations } from './tree-reads.js';
import { ensureRoots } from './tree-roots.js';
import { link, mkdir, mv, rm, type TreeWriter, unlink, write } from './tree-writes.js';
import { parseUri } from './uri.js';

/**
 * The filesystem over `store`, with the roots created if missing.
 *
 * @example
 * const tree = await createContextTree({ store: indexes.store, embedder });
 * await tree.write('viking://resources/notes/a.md', '# A\nFirst note.', { parents: true });
 * await tree.ls('viking://resources/notes'); // [{ uri: 'viking://resources/notes/a.md', kind: 'file', … }]
 */
export async function createContextTree(options: ContextTreeOptions): Promise<ContextTree> {
  const { store } = options;
  const mutations = new SerialQueue();
  const writer: TreeWriter = {
    store,
    embedder: options.embedder,
    summarizer: options.summarizer,
    now: options.now ?? Date.now,
    chunkTokens: options.chunkTokens ?? 90,
    exclusive: (run) => mutations.run(run),
  };
  await ensureRoots(store, writer.now);
  // A plain object of own functions: the engine spreads it into its own API.
  return {
    mkdir: (uri, o) => mkdir(writer, uri, o),
    write: (uri, content, o) => write(writer, uri, content, o),
    ls: (uri) => ls(store, uri),
    tree: (uri, o) => nestedTree(store, uri, o),
    lsPage: (uri, o) => lsPage(store, uri, o),
    treePage: (uri, o) => treePage(store, uri, o),
    stat: async (uri) => infoOf(await existing(store, parseUri(uri))),
    read: (uri) => read(store, uri),
    abstract: async (uri) => (await existing(store, parseUri(uri))).l0,
    overview: (uri) => overview(store, uri),
    rm: (uri, o) => rm(writer, uri, o),
    mv: (from, to) => mv(writer, from, to),
    grep: (pattern, o) => grep(store, pattern, o),
    glob: (pattern, o) => glob(store, pattern, o),
    link: (from, to, reason) => link(writer, from, to, reason),
    relations: (uri) => relations(store, uri),
    unlink: (from, to) => unlink(writer, from, to),
  };
}

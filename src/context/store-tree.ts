// The viking:// filesystem over a Store: every operation reads what it needs, then writes one
// commit, so a crash leaves either all of an operation or none of it. Writes go through whatever
// store it is given; the engine hands it the derived indexes' store, which catches them up. The
// reads are in tree-reads.ts, the writes in tree-writes.ts.

import { SerialQueue } from '../serial-queue.js';
import { defaultNamespace, expandHome } from './namespace.js';
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
  return treeOf(await openTreeWriter(options));
}

/**
 * What the tree's operations write with, over `store`, with the namespace's roots created if
 * missing. One per store: its queue keeps mutations one at a time, whatever namespace they come from.
 */
export async function openTreeWriter(options: ContextTreeOptions): Promise<TreeWriter> {
  const mutations = new SerialQueue();
  const writer: TreeWriter = {
    store: options.store,
    embedder: options.embedder,
    summarizer: options.summarizer,
    now: options.now ?? Date.now,
    chunkTokens: options.chunkTokens ?? 90,
    exclusive: (run) => mutations.run(run),
    namespace: options.namespace ?? defaultNamespace,
  };
  await ensureRoots(writer.store, writer.now, writer.namespace);
  return writer;
}

/**
 * The operations of `writer`'s tree, with `viking://~` as its namespace's home: what a view of the
 * engine for another namespace makes again (docs/guide/namespaces.md).
 */
export function treeOf(writer: TreeWriter): ContextTree {
  const { store } = writer;
  const at = (uri: string) => expandHome(uri, writer.namespace);
  const within = <T extends { uri?: string }>(o: T | undefined): T | undefined =>
    o?.uri === undefined ? o : { ...o, uri: at(o.uri) };
  // A plain object of own functions: the engine spreads it into its own API.
  // Async all: a bad URI (an id-less old form) rejects, as every other bad input does.
  return {
    mkdir: async (uri, o) => mkdir(writer, at(uri), o),
    write: async (uri, content, o) => write(writer, at(uri), content, o),
    ls: async (uri) => ls(store, at(uri)),
    tree: async (uri, o) => nestedTree(store, at(uri), o),
    lsPage: async (uri, o) => lsPage(store, at(uri), o),
    treePage: async (uri, o) => treePage(store, at(uri), o),
    stat: async (uri) => infoOf(await existing(store, parseUri(at(uri)))),
    read: async (uri) => read(store, at(uri)),
    abstract: async (uri) => (await existing(store, parseUri(at(uri)))).l0,
    overview: async (uri) => overview(store, at(uri)),
    rm: async (uri, o) => rm(writer, at(uri), o),
    mv: async (from, to) => mv(writer, at(from), at(to)),
    grep: async (pattern, o) => grep(store, pattern, within(o)),
    glob: async (pattern, o) => glob(store, typeof pattern === 'string' ? at(pattern) : pattern, within(o)),
    link: async (from, to, reason) => link(writer, at(from), at(to), reason),
    relations: async (uri) => relations(store, at(uri)),
    unlink: async (from, to) => unlink(writer, at(from), at(to)),
  };
}

// The viking:// filesystem: what an agent (or a person) does with resources, memories and
// skills. The implementation over a Store is store-tree.ts.

import * as v from 'valibot';
import type { Embedder } from '../embed/embedder.js';
import { metaSchema, signalSchema, wholeNumber } from '../options.js';
import type { FullStore } from '../store/full-store.js';
import type { ContextType, NodeKind, SummaryKind } from '../store/store.js';
import type { Namespace } from './namespace.js';
import type { Summarizer } from './summarize.js';
import type { VikingUri } from './uri.js';

/** What `ls`, `stat` and `tree` say about a node. */
export interface NodeInfo {
  uri: VikingUri;
  name: string;
  kind: NodeKind;
  contextType: ContextType;
  /** L0: the one-line abstract. */
  abstract: string;
  summaryKind: SummaryKind;
  /** Characters of content (L2); 0 for a directory. */
  size: number;
  meta: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

/** A node of {@link ContextTree.tree}; directories within the depth carry their children. */
export interface TreeNode extends NodeInfo {
  children?: TreeNode[];
}

export interface GrepMatch {
  uri: VikingUri;
  /** 1-based. */
  line: number;
  text: string;
}

export interface Relation {
  from: VikingUri;
  to: VikingUri;
  reason: string;
  createdAt: number;
}

export interface MkdirOptions {
  /** L0 (OpenViking's `description`), trimmed; without one, or with a blank one, the directory's name. */
  abstract?: string;
  /** L1. */
  overview?: string;
  meta?: Record<string, unknown>;
  /** Create missing parents, and succeed if the directory exists (`mkdir -p`). Default false. */
  parents?: boolean;
  signal?: AbortSignal;
}

/** @internal */
export const mkdirOptionsSchema = v.strictObject({
  abstract: v.optional(v.string()),
  overview: v.optional(v.string()),
  meta: v.optional(metaSchema),
  parents: v.optional(v.boolean()),
  signal: v.optional(signalSchema),
});

export interface WriteOptions {
  /** L0; default from the summarizer (or the first sentence). */
  abstract?: string;
  /** L1; default from the summarizer (or the opening of the content). */
  overview?: string;
  /** Replaces the node's meta; an overwritten file keeps its old meta without it. */
  meta?: Record<string, unknown>;
  /** Create missing parent directories. Default false. */
  parents?: boolean;
  /** Largest content accepted, in UTF-8 bytes; more is `INPUT_TOO_LARGE`. Default 10 MB, as for addResource. */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** @internal */
export const writeOptionsSchema = v.strictObject({
  ...mkdirOptionsSchema.entries,
  maxBytes: v.optional(wholeNumber(1)),
});

export interface GrepOptions {
  /** Where to search (a directory or a file); default everything. */
  uri?: string;
  /** For a string pattern; a RegExp keeps its own flags. */
  ignoreCase?: boolean;
  /** Most matches returned, in URI then line order. Default 1,000. */
  limit?: number;
}

/** @internal */
export const grepOptionsSchema = v.strictObject({
  uri: v.optional(v.string()),
  ignoreCase: v.optional(v.boolean()),
  limit: v.optional(wholeNumber(1)),
});

export interface TreeOptions {
  /** Levels below `uri` (default 3; 1 is `ls`). */
  depth?: number;
}

/** @internal */
export const treeOptionsSchema = v.strictObject({ depth: v.optional(wholeNumber(1)) });

/** Which page of {@link ContextTree.lsPage} or {@link ContextTree.treePage}. */
export interface PageOptions {
  /** Most nodes on the page. Default 1,000, OpenViking's `node_limit`. */
  limit?: number;
  /** The previous page's `cursor`; without it, the first page. */
  cursor?: string;
}

export interface TreePageOptions extends TreeOptions, PageOptions {}

/** @internal */
export const pageOptionsSchema = v.strictObject({
  limit: v.optional(wholeNumber(1)),
  cursor: v.optional(v.string()),
});

/** @internal */
export const treePageOptionsSchema = v.strictObject({
  ...treeOptionsSchema.entries,
  ...pageOptionsSchema.entries,
});

/** A page of a listing (docs/guide/retrieval.md, "Listing in pages"). */
export interface NodePage<T> {
  nodes: T[];
  /** Whether nodes follow this page (OpenViking's `has_more`). */
  hasMore: boolean;
  /** Where the next page starts: there exactly when `hasMore`. */
  cursor?: string;
}

export interface RmOptions {
  /** Remove a directory with everything below it. Default false. */
  recursive?: boolean;
}

/** @internal */
export const rmOptionsSchema = v.strictObject({ recursive: v.optional(v.boolean()) });

export interface GlobOptions {
  /** What a relative pattern is relative to. Default `viking://`. */
  uri?: string;
}

/** @internal */
export const globOptionsSchema = v.strictObject({ uri: v.optional(v.string()) });

/**
 * The filesystem operations. URIs are given as strings and normalised (`parseUri`, `longship/uri`); what
 * is not found fails with `NOT_FOUND`, and the other typed codes are named on each method.
 */
export interface ContextTree {
  /** Fails with `ALREADY_EXISTS`, `NOT_FOUND` (parent), `NOT_A_DIRECTORY` (parent is a file). */
  mkdir(uri: string, options?: MkdirOptions): Promise<NodeInfo>;
  /** Creates or replaces a file: L0/L1, its chunks embedded, its posting. `IS_A_DIRECTORY` on a directory. */
  write(uri: string, content: string, options?: WriteOptions): Promise<NodeInfo>;
  /** A directory's children by URI; `viking://` lists the top directories. `NOT_A_DIRECTORY` on a file. */
  ls(uri: string): Promise<NodeInfo[]>;
  /** The nodes below `uri`, nested, `depth` levels down (default 3; 1 is `ls`). */
  tree(uri: string, options?: TreeOptions): Promise<TreeNode[]>;
  /**
   * `ls` a page at a time, in the same order; a cursor from another listing, or one that is not a
   * cursor, is `INVALID_ARGUMENT`.
   *
   * @example
   * let page = await longship.lsPage('viking://resources', { limit: 100 });
   * while (page.cursor) page = await longship.lsPage('viking://resources', { limit: 100, cursor: page.cursor });
   */
  lsPage(uri: string, options?: PageOptions): Promise<NodePage<NodeInfo>>;
  /**
   * `tree` a page at a time: `limit` counts nodes at every level, depth first. A directory's
   * `children` holds those on the same page; the rest of them open the next page, at its top level.
   */
  treePage(uri: string, options?: TreePageOptions): Promise<NodePage<TreeNode>>;
  stat(uri: string): Promise<NodeInfo>;
  /**
   * L2: a file's content; a split document's directory (or a section directory of one) gives its
   * whole text, its files joined in document order. `IS_A_DIRECTORY` on any other directory.
   */
  read(uri: string): Promise<string>;
  /** L0. */
  abstract(uri: string): Promise<string>;
  /** L1, or L0 when the node has none. */
  overview(uri: string): Promise<string>;
  /** Removes a node (with its vectors, posting and relations); a directory with children needs `recursive`. */
  rm(uri: string, options?: RmOptions): Promise<number>;
  /** Moves a node and everything below it; keys, vectors and relations follow. `ALREADY_EXISTS` if `to` exists. */
  mv(from: string, to: string): Promise<NodeInfo>;
  /** Lines of file content (L2) that contain `pattern` (a substring) or match it (a RegExp). */
  grep(pattern: string | RegExp, options?: GrepOptions): Promise<GrepMatch[]>;
  /** URIs matching a glob (`*`, `?`, `**`), relative to `uri` (default `viking://`) unless absolute. */
  glob(pattern: string, options?: GlobOptions): Promise<VikingUri[]>;
  /** Records that `from` relates to `to`; linking again replaces the reason. */
  link(from: string, to: string, reason: string): Promise<void>;
  /** Relations from or to `uri`. */
  relations(uri: string): Promise<Relation[]>;
  /** Resolves with whether there was such a relation. */
  unlink(from: string, to: string): Promise<boolean>;
}

export interface ContextTreeOptions {
  /** Where nodes live; pass the derived indexes' store so that they follow every write. */
  store: FullStore;
  embedder: Embedder;
  /** Writes L0/L1 of files; without one, L0 is the first sentence and L1 the opening. */
  summarizer?: Summarizer;
  /**
   * Most estimated tokens in a chunk of content; each chunk gets a vector. Default 90: the bundled
   * model reads 128, and the estimate undercounts its tokenizer by about a quarter.
   */
  chunkTokens?: number;
  /** Milliseconds since the epoch; for tests. */
  now?: () => number;
  /** Whose space `viking://~` is and whose roots are made; default user and agent `default`. */
  namespace?: Namespace;
}

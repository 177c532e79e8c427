/**
 * The storage-free ingestion pipeline: checked documents in, the nodes to write out, each with its
 * URI, content (L2), summaries (L0/L1, computed bottom-up) and content hash. Whoever wires it to the
 * store, embedder and queue writes `nodes` parents first, deletes `removed`, and re-embeds only
 * nodes whose `change` is not `'unchanged'`.
 */

import { throwIfAborted } from '../abort.js';
import { roots } from '../context/namespace.js';
import { clampText, type Summarizer } from '../context/summarize.js';
import { join, type VikingUri } from '../context/uri.js';
import type { NodeContent } from './commit/write-batch.js';
import { contentHash } from './hash.js';
import type { InputDocument } from './input.js';
import { type DocumentTree, headingsOf } from './parse/document.js';
import { withPages } from './parse/pages.js';
import { parseDocument } from './parse/parse.js';
import { type SplitOptions, splitDocument } from './parse/split.js';
import { safeName, slugify, uniqueName } from './slug.js';
import { identityLine, readIdentity } from './summary/document-identity.js';
import { extractiveSummarizer } from './summary/extractive-summarizer.js';

/** What the store holds for a node from an earlier ingestion, enough to reuse its summaries. */
export interface PreviousNode {
  contentHash: string;
  l0: string;
  l1: string;
  summaryKind: Summarizer['kind'];
}

/** A node as planned: what is written for it, where it sits below the target, and what changed. */
export interface ResourceNode extends NodeContent {
  /** Segments below the target. */
  relativePath: string[];
  headings: string[];
  /** Against `previous` at the same URI; `'added'` when there was none. */
  change: 'added' | 'changed' | 'unchanged';
  /** A previous node elsewhere with the same content hash (a renumbered section): its vectors still fit. */
  sameContentAs?: string;
}

export interface PlanOptions extends SplitOptions {
  /** Where the resource goes; default `viking://resources`. */
  target?: VikingUri;
  /** Default {@link extractiveSummarizer}. */
  summarizer?: Summarizer;
  /** The nodes already stored under the planned paths, by URI; unchanged ones keep their summaries. */
  previous?: ReadonlyMap<string, PreviousNode>;
  signal?: AbortSignal;
}

export interface ResourcePlan {
  /** Parents before children, in document order. */
  nodes: ResourceNode[];
  /** URIs in `previous` that the new plan does not have: delete them. */
  removed: string[];
}

type Draft = Omit<ResourceNode, 'uri' | 'l0' | 'l1' | 'summaryKind' | 'contentHash' | 'change'> & {
  /** A document's own node: what it is about, then the description its front matter gives. */
  description?: string;
};

/**
 * A document's own node: what its front says it is about (readIdentity), which its summaries start
 * from and its place is read from (meta.identity), and the description its front matter gives.
 */
function aboutOf(
  document: InputDocument,
  tree: DocumentTree,
  planned: { kind: 'dir' | 'file' },
): Pick<Draft, 'description' | 'identity'> {
  const identity = identityLine(
    readIdentity({ title: tree.title, headings: tree.sections.flatMap(headingsOf), text: document.content }),
  );
  // A file's summaries are not what it is searched by (its content is), so they can say it; a
  // directory's are, and the identity there outranked the document's own sections (docs/guide/retrieval.md,
  // "What a document is about"): a directory carries it to retrieval through its place.
  const about = identity && planned.kind === 'file' ? `${identity}.` : '';
  const description = [about, tree.description ?? ''].filter(Boolean).join(' ');
  return { ...(description ? { description } : {}), ...(identity ? { identity } : {}) };
}

/** Folder directories first (so a document cannot take a directory's name), then each document split. */
function draft(documents: readonly InputDocument[], options: SplitOptions): Draft[] {
  const dirs = new Map<string, string[]>([['', []]]);
  const taken = new Map<string, Set<string>>([['', new Set()]]);
  const drafts: Draft[] = [];
  const dirOf = (raw: string[]): string[] => {
    const key = raw.join('/');
    const known = dirs.get(key);
    if (known) return known;
    const parent = dirOf(raw.slice(0, -1));
    const path = [...parent, uniqueName(safeName(raw[raw.length - 1]!), taken.get(parent.join('/'))!)];
    dirs.set(key, path);
    taken.set(path.join('/'), new Set());
    drafts.push({ relativePath: path, kind: 'dir', title: raw[raw.length - 1]!, headings: [] });
    return path;
  };
  for (const document of documents) dirOf(document.path.split('/').filter(Boolean).slice(0, -1));
  for (const document of documents) {
    const raw = document.path.split('/').filter(Boolean);
    const parent = dirOf(raw.slice(0, -1));
    const tree = parseDocument(document);
    const fileName = raw[raw.length - 1];
    // The document keeps its file name whether it stays a file or becomes a directory, so its URI
    // survives growing past maxTokens.
    const name = fileName ? safeName(fileName) : slugify(tree.title, 'untitled');
    const base = [...parent, uniqueName(name, taken.get(parent.join('/'))!, true)];
    const planned = splitDocument(tree, options);
    for (const node of document.paged ? withPages(planned) : planned) {
      const file = node.kind === 'file' ? { format: tree.format } : {};
      // What the document is about is the whole document's: its own node's summaries start from it.
      const own = node.relativePath.length === 0 ? aboutOf(document, tree, node) : {};
      drafts.push({
        ...node,
        ...file,
        ...own,
        relativePath: [...base, ...node.relativePath],
        source: document.path,
      });
    }
  }
  return drafts;
}

/**
 * Plans the nodes for `documents` (from `readInput`) under `options.target`: parses, splits,
 * hashes, and summarises bottom-up, reusing the summaries of nodes whose hash is unchanged in
 * `options.previous`. Summaries come from `options.summarizer`; an L0 longer than 256 characters
 * is cut at a word whoever wrote it.
 *
 * @example
 * const { documents } = await readInput(markdown, { name: 'guide.md' });
 * const { nodes } = await planResource(documents, { target: parseUri('viking://resources/docs') });
 * nodes[0]!.uri; // 'viking://resources/docs/guide.md'
 */
export async function planResource(
  documents: readonly InputDocument[],
  options: PlanOptions = {},
): Promise<ResourcePlan> {
  const target = options.target ?? roots.resource[0]!;
  const summarizer = options.summarizer ?? extractiveSummarizer;
  const previous = options.previous ?? new Map<string, PreviousNode>();
  const byHash = new Map<string, string>();
  for (const [uri, node] of previous) if (!byHash.has(node.contentHash)) byHash.set(node.contentHash, uri);
  const drafts = draft(documents, options);
  // Files hash on their own, so all at once: crypto.subtle answers each digest a round trip later,
  // and awaited one after another those round trips queued (256 notes in Node: ~15 ms of ~175).
  const fileHashes = new Map(
    await Promise.all(
      drafts
        .filter((d) => d.kind === 'file')
        // A part's pages are part of what it is: the same text moved to another page is a change.
        .map(
          async (d) => [d, await contentHash((d.content ?? '') + (d.pages ? `\f${d.pages}` : ''))] as const,
        ),
    ),
  );
  const children = new Map<string, ResourceNode[]>();
  const done: ResourceNode[] = [];
  // Reverse order visits children before their parents, as bottom-up summaries need.
  for (const d of [...drafts].reverse()) {
    throwIfAborted(options.signal, 'planning the resource');
    const key = d.relativePath.join('/');
    const below = (children.get(key) ?? []).reverse();
    const hash =
      fileHashes.get(d) ??
      (await contentHash(
        [d.title, ...below.map((c) => `${c.relativePath.at(-1)}\t${c.kind}\t${c.contentHash}`)].join('\n'),
      ));
    const uri = join(target, key);
    const old = previous.get(uri);
    const reuse = old && old.contentHash === hash && old.summaryKind === summarizer.kind;
    const summary = reuse
      ? { l0: old.l0, l1: old.l1 }
      : await summarizer.summarize(
          {
            ...(d.kind === 'file'
              ? { title: d.title, headings: d.headings, text: d.content ?? '', format: d.format ?? 'text' }
              : {
                  title: d.title,
                  headings: d.headings,
                  text: '',
                  children: below.map((c) => ({ title: c.title, l0: c.l0 })),
                }),
            ...(d.description ? { description: d.description } : {}),
          },
          options.signal,
        );
    const node: ResourceNode = {
      ...d,
      uri,
      l0: clampText(summary.l0),
      l1: summary.l1,
      summaryKind: summarizer.kind,
      contentHash: hash,
      change: old === undefined ? 'added' : old.contentHash === hash ? 'unchanged' : 'changed',
    };
    const elsewhere = byHash.get(hash);
    if (node.change !== 'unchanged' && elsewhere !== undefined && elsewhere !== uri)
      node.sameContentAs = elsewhere;
    const parentKey = d.relativePath.slice(0, -1).join('/');
    const siblings = children.get(parentKey);
    if (siblings) siblings.push(node);
    else children.set(parentKey, [node]);
    done.push(node);
  }
  const nodes = done.reverse();
  const planned = new Set<string>(nodes.map((n) => n.uri));
  return { nodes, removed: [...previous.keys()].filter((uri) => !planned.has(uri)) };
}

// The viking:// filesystem over a Store: every operation reads what it needs, then writes one
// commit, so a crash leaves either all of an operation or none of it. Writes go through whatever
// store it is given; the engine hands it the derived indexes' store, which catches them up.

import { chunkText } from '../embed/chunk.js';
import { LongshipError } from '../errors.js';
import { checkStringSize, checkText, defaultMaxBytes } from '../ingest/decode.js';
import { checkOptions } from '../options.js';
import { SerialQueue } from '../serial-queue.js';
import type { NodeRecord, RelationRecord, SummaryKind, VectorRecord, WriteBatch } from '../store/store.js';
import { splitGlob } from './glob.js';
import { firstSentence, opening } from './plain-summary.js';
import {
  type ContextTree,
  type ContextTreeOptions,
  type GrepMatch,
  globOptionsSchema,
  grepOptionsSchema,
  type MkdirOptions,
  mkdirOptionsSchema,
  type NodeInfo,
  rmOptionsSchema,
  type TreeNode,
  treeOptionsSchema,
  type WriteOptions,
  writeOptionsSchema,
} from './tree.js';
import { ensureRoots, PROTECTED, TOP, TOP_LEVEL } from './tree-roots.js';
import {
  basename,
  contextTypeOf,
  isWithin,
  join,
  parentOf,
  parseUri,
  relativeTo,
  type VikingUri,
} from './uri.js';

function fail(
  code:
    | 'NOT_FOUND'
    | 'ALREADY_EXISTS'
    | 'NOT_A_DIRECTORY'
    | 'IS_A_DIRECTORY'
    | 'DIRECTORY_NOT_EMPTY'
    | 'INVALID_ARGUMENT',
  message: string,
): never {
  throw new LongshipError(code, message);
}

const depthOf = (uri: string) => uri.split('/').length;

function infoOf(node: NodeRecord): NodeInfo {
  return {
    uri: node.uri as VikingUri,
    name: node.name,
    kind: node.kind,
    contextType: node.contextType,
    abstract: node.l0,
    summaryKind: node.summaryKind,
    size: node.l2?.length ?? 0,
    meta: node.meta,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
  };
}

/**
 * The filesystem over `store`, with the roots created if missing.
 *
 * @example
 * const tree = await createContextTree({ store: indexes.store, embedder });
 * await tree.write('viking://resources/notes/a.md', '# A\nFirst note.', { parents: true });
 * await tree.ls('viking://resources/notes'); // [{ uri: 'viking://resources/notes/a.md', kind: 'file', … }]
 */
export async function createContextTree(options: ContextTreeOptions): Promise<ContextTree> {
  const { store, embedder, summarizer } = options;
  const now = options.now ?? Date.now;
  const chunkTokens = options.chunkTokens ?? 90;
  /** Mutations run one at a time: each checks what it found before it commits. */
  const mutations = new SerialQueue();
  const exclusive = <T>(run: () => Promise<T>): Promise<T> => mutations.run(run);

  const existing = async (uri: VikingUri): Promise<NodeRecord> =>
    (await store.node(uri)) ?? fail('NOT_FOUND', `no node at ${uri}`);

  /** Where a node may be written: inside a context root (a root itself exists, which the caller finds). */
  const writable = (input: string): VikingUri => {
    const uri = parseUri(input);
    if (uri === TOP) fail('ALREADY_EXISTS', 'viking:// always exists');
    if (!PROTECTED.has(uri) && !contextTypeOf(uri)) {
      fail(
        'INVALID_ARGUMENT',
        `${uri} is outside the roots (viking://resources, viking://user/memories, viking://agent/memories, viking://agent/skills)`,
      );
    }
    return uri;
  };

  const notRoot = (input: string): VikingUri => {
    const uri = parseUri(input);
    if (PROTECTED.has(uri) || uri === TOP)
      fail('INVALID_ARGUMENT', `${uri} is a root: it cannot be removed or moved`);
    return uri;
  };

  /** Every node at or below `uri`, by URI; everything for the top. */
  const subtree = async (uri: VikingUri): Promise<NodeRecord[]> => {
    if (uri === TOP) return (await Promise.all(TOP_LEVEL.map((top) => subtree(top)))).flat();
    const node = await existing(uri);
    return [node, ...(await store.descendants(uri))];
  };

  const directoryRecord = (uri: VikingUri, key: number, o: MkdirOptions, time: number): NodeRecord => ({
    uri,
    parent: parentOf(uri) ?? null,
    name: basename(uri),
    kind: 'dir',
    contextType: contextTypeOf(uri)!,
    key,
    l0: o.abstract ?? basename(uri),
    ...(o.overview !== undefined ? { l1: o.overview } : {}),
    summaryKind: o.abstract !== undefined ? 'llm' : 'extractive',
    meta: o.meta ?? {},
    createdAt: time,
    updatedAt: time,
    useCount: 0,
  });

  /**
   * The directories to create so that `uri`'s parent exists (parents first), or a typed failure.
   * Stops at the first one that exists, which must be a directory.
   */
  const missingParents = async (uri: VikingUri, create: boolean): Promise<VikingUri[]> => {
    const missing: VikingUri[] = [];
    for (let parent = parentOf(uri); parent && parent !== TOP; parent = parentOf(parent)) {
      const node = await store.node(parent);
      if (node) {
        if (node.kind !== 'dir') fail('NOT_A_DIRECTORY', `${parent} is a file, not a directory`);
        return missing.reverse();
      }
      if (!create) fail('NOT_FOUND', `the parent ${parent} does not exist (pass parents: true to create it)`);
      missing.push(parent);
    }
    return missing.reverse();
  };

  /**
   * Directories with their postings and one vector each, embedded from the URI, L0 and L1
   * (docs/retrieval.md, "Layers and what is embedded").
   */
  const directoriesBatch = async (uris: VikingUri[], o: MkdirOptions, last: VikingUri | undefined) => {
    const time = now();
    const records = uris.map((uri) => directoryRecord(uri, 0, uri === last ? o : {}, time));
    const texts = records.map((r) => [r.l0, r.l1].filter(Boolean).join('\n'));
    const vectors = await embedder.embed(
      records.map((r, i) => `directory: ${r.uri}\n${texts[i]}`),
      { signal: o.signal },
    );
    const first = await store.allocateKeys(records.length * 2);
    const batch: Required<Pick<WriteBatch, 'putNodes' | 'putVectors' | 'putPostings'>> = {
      putNodes: [],
      putVectors: [],
      putPostings: [],
    };
    records.forEach((record, i) => {
      const key = first + 2 * i;
      batch.putNodes.push({ ...record, key });
      batch.putVectors.push({ key: key + 1, nodeKey: key, chunk: 0, vector: vectors[i]! });
      batch.putPostings.push({ key, title: record.name, body: texts[i]! });
    });
    return batch;
  };

  const summaries = async (uri: VikingUri, content: string, o: WriteOptions) => {
    if (o.abstract !== undefined && o.overview !== undefined) {
      return { l0: o.abstract, l1: o.overview, kind: 'llm' as const };
    }
    const made = summarizer
      ? await summarizer.summarize({ title: basename(uri), headings: [], text: content }, o.signal)
      : { l0: firstSentence(content) || basename(uri), l1: opening(content) };
    const kind: SummaryKind = o.abstract !== undefined ? 'llm' : (summarizer?.kind ?? 'extractive');
    return { l0: o.abstract ?? made.l0, l1: o.overview ?? made.l1, kind };
  };

  await ensureRoots(store, now);

  const tree: ContextTree = {
    mkdir: async (input, options) => {
      const o = checkOptions(mkdirOptionsSchema, options, 'mkdir()');
      const uri = writable(input);
      return exclusive(async () => {
        const found = await store.node(uri);
        if (found) {
          if (o.parents && found.kind === 'dir') return infoOf(found);
          fail('ALREADY_EXISTS', `${uri} already exists`);
        }
        const create = [...(await missingParents(uri, o.parents ?? false)), uri];
        const batch = await directoriesBatch(create, o, uri);
        await store.commit(batch, o.signal);
        return infoOf(batch.putNodes.at(-1)!);
      });
    },

    write: async (input, content, options) => {
      const o = checkOptions(writeOptionsSchema, options, 'write()');
      const uri = writable(input);
      if (typeof content !== 'string') fail('INVALID_ARGUMENT', `write(${uri}) takes a string`);
      // The same limits as addResource(): a write is an ingestion without a parser.
      checkStringSize(uri, content, o.maxBytes ?? defaultMaxBytes);
      checkText(uri, content);
      // The slow part (summaries, embedding) runs before the lock; the checks run again inside it.
      const { l0, l1, kind } = await summaries(uri, content, o);
      const chunks = chunkText(content, { maxTokens: chunkTokens });
      const vectors = await embedder.embed(chunks.length > 0 ? chunks : [l0], { signal: o.signal });
      return exclusive(async () => {
        const old = await store.node(uri);
        if (old?.kind === 'dir') fail('IS_A_DIRECTORY', `${uri} is a directory`);
        const parents = await missingParents(uri, o.parents ?? false);
        const batch: WriteBatch = parents.length > 0 ? await directoriesBatch(parents, {}, undefined) : {};
        const first = await store.allocateKeys(vectors.length + (old ? 0 : 1));
        const key = old?.key ?? first + vectors.length;
        const time = now();
        const record: NodeRecord = {
          uri,
          parent: parentOf(uri)!,
          name: basename(uri),
          kind: 'file',
          contextType: contextTypeOf(uri)!,
          key,
          l0,
          l1,
          l2: content,
          summaryKind: kind,
          meta: o.meta ?? old?.meta ?? {},
          createdAt: old?.createdAt ?? time,
          updatedAt: time,
          useCount: old?.useCount ?? 0,
          ...(old?.lastUsedAt !== undefined ? { lastUsedAt: old.lastUsedAt } : {}),
        };
        await store.commit(
          {
            putNodes: [...(batch.putNodes ?? []), record],
            putVectors: [
              ...(batch.putVectors ?? []),
              ...vectors.map((vector, chunk) => ({ key: first + chunk, nodeKey: key, chunk, vector })),
            ],
            putPostings: [...(batch.putPostings ?? []), { key, title: record.name, body: content }],
            ...(old ? { deleteVectorsOfNodes: [key] } : {}),
          },
          o.signal,
        );
        return infoOf(record);
      });
    },

    ls: async (input) => {
      const uri = parseUri(input);
      if (uri === TOP) return (await Promise.all(TOP_LEVEL.map(existing))).map(infoOf);
      const node = await existing(uri);
      if (node.kind !== 'dir') fail('NOT_A_DIRECTORY', `${uri} is a file`);
      return (await store.children(uri)).map(infoOf);
    },

    tree: async (input, options) => {
      const { depth = 3 } = checkOptions(treeOptionsSchema, options, 'tree()');
      const uri = parseUri(input);
      if (!(depth >= 1)) fail('INVALID_ARGUMENT', `depth must be at least 1, not ${depth}`);
      const nodes = await subtree(uri);
      if (uri !== TOP && nodes[0]!.kind !== 'dir') fail('NOT_A_DIRECTORY', `${uri} is a file`);
      const base = uri === TOP ? depthOf('viking://x') - 1 : depthOf(uri);
      const byParent = new Map<string, TreeNode[]>();
      const top: TreeNode[] = [];
      for (const node of nodes) {
        const level = depthOf(node.uri) - base;
        if (level < 1 || level > depth) continue;
        const entry: TreeNode = infoOf(node);
        if (node.kind === 'dir' && level < depth) {
          entry.children = [];
          byParent.set(node.uri, entry.children);
        }
        if (level === 1) top.push(entry);
        else byParent.get(node.parent!)?.push(entry);
      }
      return top;
    },

    stat: async (input) => infoOf(await existing(parseUri(input))),

    read: async (input) => {
      const node = await existing(parseUri(input));
      if (node.kind === 'dir') fail('IS_A_DIRECTORY', `${node.uri} is a directory: it has no content`);
      return node.l2 ?? '';
    },

    abstract: async (input) => (await existing(parseUri(input))).l0,

    overview: async (input) => {
      const node = await existing(parseUri(input));
      return node.l1 ?? node.l0;
    },

    rm: async (input, options) => {
      const { recursive = false } = checkOptions(rmOptionsSchema, options, 'rm()');
      const uri = notRoot(input);
      return exclusive(async () => {
        const nodes = await subtree(uri);
        if (nodes.length > 1 && !recursive) {
          fail('DIRECTORY_NOT_EMPTY', `${uri} has ${nodes.length - 1} nodes below it (pass recursive: true)`);
        }
        // Children before parents, as a shell removes them; the store removes their vectors,
        // postings and relations with them.
        const order = nodes.map((n) => n.uri).sort((a, b) => depthOf(b) - depthOf(a));
        await store.commit({ deleteNodes: order });
        return nodes.length;
      });
    },

    mv: async (fromInput, toInput) => {
      const from = notRoot(fromInput);
      const to = writable(toInput);
      if (isWithin(to, from)) fail('INVALID_ARGUMENT', `cannot move ${from} into itself (${to})`);
      return exclusive(async () => {
        const nodes = await subtree(from);
        if (await store.node(to)) fail('ALREADY_EXISTS', `${to} already exists`);
        await missingParents(to, false);
        const moved = (uri: string): VikingUri => {
          const rest = relativeTo(uri as VikingUri, from);
          return rest === undefined ? (uri as VikingUri) : rest === '' ? to : join(to, rest);
        };
        const time = now();
        const batch: Required<Pick<WriteBatch, 'putNodes' | 'putVectors' | 'putPostings' | 'putRelations'>> =
          {
            putNodes: [],
            putVectors: [],
            putPostings: [],
            putRelations: [],
          };
        const relations = new Map<string, RelationRecord>();
        for (const node of nodes) {
          const uri = moved(node.uri);
          const isTop = node.uri === from;
          batch.putNodes.push({
            ...node,
            uri,
            parent: isTop ? parentOf(to)! : moved(node.parent!),
            name: basename(uri),
            contextType: contextTypeOf(uri)!,
            ...(isTop ? { updatedAt: time } : {}),
          });
          const vectors: VectorRecord[] = await store.vectorsOfNode(node.key);
          batch.putVectors.push(...vectors);
          const posting = await store.posting(node.key);
          if (posting) {
            batch.putPostings.push(
              posting.title === node.name ? { ...posting, title: basename(uri) } : posting,
            );
          }
          for (const r of await store.relations(node.uri)) relations.set(`${r.from}\u0000${r.to}`, r);
        }
        for (const r of relations.values())
          batch.putRelations.push({ ...r, from: moved(r.from), to: moved(r.to) });
        // One commit: the old URIs go (with what hangs on them) and come back under the new ones,
        // with the same keys, so the indexes replay a remove and an add of the same vectors.
        const order = nodes.map((n) => n.uri).sort((a, b) => depthOf(b) - depthOf(a));
        await store.commit({ deleteNodes: order, ...batch });
        return infoOf(batch.putNodes[0]!);
      });
    },

    grep: async (pattern, options) => {
      const {
        uri: input = TOP,
        ignoreCase = false,
        limit = 1000,
      } = checkOptions(grepOptionsSchema, options, 'grep()');
      const matches = lineMatcher(pattern, ignoreCase);
      const found: GrepMatch[] = [];
      for (const node of await subtree(parseUri(input))) {
        if (node.kind !== 'file' || !node.l2) continue;
        const lines = node.l2.split(/\r?\n/);
        for (let i = 0; i < lines.length; i++) {
          if (!matches(lines[i]!)) continue;
          found.push({ uri: node.uri as VikingUri, line: i + 1, text: lines[i]! });
          if (found.length >= limit) return found;
        }
      }
      return found;
    },

    glob: async (pattern, options) => {
      const { uri: input = TOP } = checkOptions(globOptionsSchema, options, 'glob()');
      const absolute = /^viking:\/\//i.test(pattern);
      const scope = absolute ? TOP : parseUri(input);
      const { base, rest } = splitGlob(absolute ? pattern.slice('viking://'.length) : pattern);
      const root = base.length > 0 ? join(scope, base.join('/')) : scope;
      if (!rest) return (await store.node(root)) ? [root] : [];
      if (root !== TOP && !(await store.node(root))) return [];
      const nodes = root === TOP ? await subtree(TOP) : await store.descendants(root);
      return nodes
        .map((node) => node.uri as VikingUri)
        .filter((uri) => rest.test(relativeTo(uri, root)!))
        .sort();
    },

    link: async (fromInput, toInput, reason) => {
      const from = parseUri(fromInput);
      const to = parseUri(toInput);
      if (from === to) fail('INVALID_ARGUMENT', `a node cannot relate to itself (${from})`);
      if (typeof reason !== 'string') fail('INVALID_ARGUMENT', 'link needs a reason (a string)');
      return exclusive(async () => {
        await existing(from);
        await existing(to);
        await store.commit({ putRelations: [{ from, to, reason, createdAt: now() }] });
      });
    },

    relations: async (input) => {
      const uri = parseUri(input);
      await existing(uri);
      return (await store.relations(uri)).map((r) => ({
        ...r,
        from: r.from as VikingUri,
        to: r.to as VikingUri,
      }));
    },

    unlink: async (fromInput, toInput) => {
      const from = parseUri(fromInput);
      const to = parseUri(toInput);
      return exclusive(async () => {
        const there = (await store.relations(from)).some((r) => r.from === from && r.to === to);
        if (there) await store.commit({ deleteRelations: [{ from, to }] });
        return there;
      });
    },
  };
  return tree;
}

function lineMatcher(pattern: string | RegExp, ignoreCase: boolean): (line: string) => boolean {
  if (pattern instanceof RegExp) {
    // Without g and y, test() keeps no state between lines.
    const regexp = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
    return (line) => regexp.test(line);
  }
  if (typeof pattern !== 'string' || pattern === '')
    fail('INVALID_ARGUMENT', 'grep needs a non-empty pattern');
  if (!ignoreCase) return (line) => line.includes(pattern);
  const lower = pattern.toLowerCase();
  return (line) => line.toLowerCase().includes(lower);
}

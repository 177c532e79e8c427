// Committing a session writes its messages as one archive, in one store commit: a directory per
// archive under the session's directory, a file per message. Files are embedded and indexed like
// any other, so an archive is found by find() and search() in the memory context type without any
// LLM (docs/retrieval.md, "Sessions and memory").

import { clampText } from '../context/summarize.js';
import { basename, join, parentOf, parseUri, type VikingUri } from '../context/uri.js';
import { chunkText } from '../embed/chunk.js';
import type { Embedder } from '../embed/embedder.js';
import { LongshipError } from '../errors.js';
import type { NodeRecord, Store, VectorRecord, WriteBatch } from '../store/store.js';
import { type Message, messageText } from './message.js';

/** Where sessions are archived: agent memories, so that memory queries reach them. */
export const sessionsRoot = 'viking://agent/memories/sessions' as VikingUri;

/** `pending`: an LLM should extract memories from it; `done`: it did; `none`: there was no LLM. */
export type ExtractionState = 'pending' | 'done' | 'failed' | 'none';

export interface ArchiveMeta {
  session: string;
  archive: number;
  messages: number;
  extraction: ExtractionState;
  /** The last extraction's error, `CODE: message`. */
  extractionError?: string;
  /** URIs of the memories extracted from it. */
  memories?: string[];
  /** The LLM's summary of the conversation. */
  summary?: string;
  /** URIs the agent reported as used during the session. */
  used?: string[];
  [key: string]: unknown;
}

export interface ArchiveInput {
  store: Store;
  embedder: Embedder;
  sessionUri: VikingUri;
  sessionId: string;
  messages: readonly Message[];
  used: readonly string[];
  extraction: ExtractionState;
  chunkTokens: number;
  now: number;
  signal?: AbortSignal;
}

const pad = (n: number) => String(n).padStart(4, '0');

/**
 * The number the next archive of a session gets: one more than the highest there, counting the
 * names of other nodes too, so that an archive never lands on a node someone else put there.
 */
export async function nextArchiveNumber(store: Store, sessionUri: VikingUri): Promise<number> {
  let highest = 0;
  for (const child of await store.children(sessionUri)) {
    const n = Number(child.meta.archive);
    if (child.kind === 'dir' && Number.isInteger(n)) highest = Math.max(highest, n);
    if (/^\d{1,9}$/.test(child.name)) highest = Math.max(highest, Number(child.name));
  }
  return highest + 1;
}

/** The session directory's URI; INVALID_URI for an id that is not one path segment. */
export function sessionUriOf(id: string): VikingUri {
  const uri = parseUri(`${sessionsRoot}/${id}`);
  if (parentOf(uri) !== sessionsRoot) {
    throw new LongshipError('INVALID_ARGUMENT', 'a session id must be one path segment (no "/")');
  }
  return uri;
}

/**
 * Writes the messages as archive `number` of the session, with the missing parent directories, in
 * one commit. Resolves with the archive's URI.
 */
export async function writeArchive(input: ArchiveInput, number: number): Promise<VikingUri> {
  const { store, embedder, sessionUri, messages, now } = input;
  const archiveUri = join(sessionUri, pad(number));
  const texts = messages.map(messageText);
  const first = messages.find((m) => m.role === 'user') ?? messages[0];
  const l0 = clampText(
    `Conversation ${input.sessionId}, part ${number} (${messages.length} messages): ${first ? messageText(first) : ''}`,
  );
  const l1 = clampText(texts.join('\n'), 1500);
  const meta: ArchiveMeta = {
    session: input.sessionId,
    archive: number,
    messages: messages.length,
    extraction: input.extraction,
    from: messages[0]?.at ?? now,
    to: messages.at(-1)?.at ?? now,
    ...(input.used.length > 0 ? { used: [...input.used] } : {}),
  };
  const parents = await missingParents(input, archiveUri);
  // What each node is embedded from: a message's text in chunks; a directory's header and summaries.
  const dirText = (uri: VikingUri, summary: string, overview = '') =>
    chunkText([`directory: ${uri}`, summary, overview].filter(Boolean).join('\n'), {
      maxTokens: input.chunkTokens,
    })[0] ?? summary;
  const embedTexts: string[][] = [
    ...parents.map((p) => [dirText(p.uri, p.l0)]),
    [dirText(archiveUri, l0, l1)],
    ...texts.map((text) => {
      const chunks = chunkText(text, { maxTokens: input.chunkTokens });
      return chunks.length > 0 ? chunks : [text || '(empty message)'];
    }),
  ];
  const flat = embedTexts.flat();
  const vectors = await embedder.embed(flat, input.signal ? { signal: input.signal } : {});
  const nodeCount = embedTexts.length;
  let key = await store.allocateKeys(nodeCount + flat.length);
  const nodes: NodeRecord[] = [];
  const putVectors: VectorRecord[] = [];
  let v = 0;
  const add = (
    record: Omit<
      NodeRecord,
      'key' | 'parent' | 'name' | 'contextType' | 'createdAt' | 'updatedAt' | 'useCount'
    >,
    chunks: number,
  ) => {
    const nodeKey = key++;
    nodes.push({
      ...record,
      key: nodeKey,
      parent: parentOf(record.uri as VikingUri) ?? null,
      name: basename(record.uri as VikingUri),
      contextType: 'memory',
      createdAt: now,
      updatedAt: now,
      useCount: 0,
    });
    for (let chunk = 0; chunk < chunks; chunk++)
      putVectors.push({ key: key++, nodeKey, chunk, vector: vectors[v++]! });
  };
  for (const parent of parents) {
    add({ uri: parent.uri, kind: 'dir', l0: parent.l0, summaryKind: 'extractive', meta: parent.meta }, 1);
  }
  add({ uri: archiveUri, kind: 'dir', l0, l1, summaryKind: 'extractive', meta }, 1);
  messages.forEach((message, i) => {
    const { parts, ...rest } = message;
    const structured = parts.filter((part) => part.type !== 'text');
    add(
      {
        uri: join(archiveUri, `${pad(i + 1)}-${message.role}`),
        kind: 'file',
        l0: clampText(texts[i]!),
        l2: texts[i]!,
        summaryKind: 'extractive',
        meta: {
          ...rest,
          session: input.sessionId,
          archive: number,
          index: i + 1,
          ...(structured.length ? { parts: structured } : {}),
        },
      },
      embedTexts[nodeCount - messages.length + i]!.length,
    );
  });
  const batch: WriteBatch = {
    putNodes: nodes,
    putVectors,
    putPostings: nodes.map((node) => ({
      key: node.key,
      title: node.name,
      body: node.kind === 'file' ? (node.l2 ?? '') : [node.l0, node.l1].filter(Boolean).join('\n\n'),
    })),
  };
  await store.commit(batch, input.signal);
  return archiveUri;
}

/**
 * The directories above a new archive that do not exist yet (the sessions root, the session's), or
 * a typed failure where a file stands in the way or the archive exists already.
 */
async function missingParents(
  { store, sessionUri, sessionId }: ArchiveInput,
  archiveUri: VikingUri,
): Promise<{ uri: VikingUri; l0: string; meta: Record<string, unknown> }[]> {
  const [rootNode, sessionNode, taken] = await store.nodes([sessionsRoot, sessionUri, archiveUri]);
  // A user's file where a directory goes would end up with children, which no file may have.
  for (const node of [rootNode, sessionNode]) {
    if (node?.kind === 'file') {
      throw new LongshipError('NOT_A_DIRECTORY', `cannot archive the session: ${node.uri} is a file`);
    }
  }
  if (taken) throw new LongshipError('ALREADY_EXISTS', `cannot archive the session: ${archiveUri} exists`);
  const parents: { uri: VikingUri; l0: string; meta: Record<string, unknown> }[] = [];
  if (!rootNode) {
    parents.push({
      uri: sessionsRoot,
      l0: 'Archived conversations with the user, one directory per session.',
      meta: {},
    });
  }
  if (!sessionNode) {
    parents.push({
      uri: sessionUri,
      l0: `Conversation ${sessionId}.`,
      meta: { session: sessionId },
    });
  }
  return parents;
}

/** The messages of an archive, in order, as role and text. */
export async function readArchive(
  store: Store,
  archiveUri: string,
): Promise<{ role: string; text: string }[]> {
  const children = await store.children(archiveUri);
  return children
    .filter((child) => child.kind === 'file')
    .sort((a, b) => Number(a.meta.index) - Number(b.meta.index))
    .map((child) => ({ role: String(child.meta.role ?? 'user'), text: child.l2 ?? child.l0 }));
}

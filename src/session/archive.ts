// Committing a session writes its messages as one archive, in one store commit: a directory per
// archive under the session's directory, a file per message. Files are embedded and indexed like
// any other, so an archive is found by find() and search() in the memory context type without any
// LLM (docs/guide/retrieval.md, "Sessions and memory").

import { type Namespace, userSpace } from '../context/namespace.js';
import { clampText } from '../context/summarize.js';
import { basename, join, parentOf, parseUri, type VikingUri } from '../context/uri.js';
import { chunkText } from '../embed/chunk.js';
import type { Embedder } from '../embed/embedder.js';
import { LongshipError } from '../errors.js';
import type { FullStore } from '../store/full-store.js';
import type { NodeRecord, VectorRecord, WriteBatch } from '../store/store.js';
import { type Message, messageRoles, messageText } from './message.js';

/**
 * Where a user's sessions are archived, `viking://user/{user}/sessions` (docs/guide/namespaces.md):
 * typed memory, so that memory queries reach them.
 */
export function sessionsRootOf(namespace: Namespace): VikingUri {
  return join(userSpace(namespace), 'sessions');
}

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
  store: FullStore;
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
export async function nextArchiveNumber(store: FullStore, sessionUri: VikingUri): Promise<number> {
  let highest = 0;
  for (const child of await store.children(sessionUri)) {
    const n = Number(child.meta.archive);
    if (child.kind === 'dir' && Number.isInteger(n)) highest = Math.max(highest, n);
    if (/^\d{1,9}$/.test(child.name)) highest = Math.max(highest, Number(child.name));
  }
  return highest + 1;
}

/**
 * The session directory's URI. INVALID_ARGUMENT for an id that is not a string or not one path
 * segment as it is written (no "/", no percent-escape or anything the URI would normalise): the id
 * is the directory's name, and listing sessions gives it back as it was given.
 */
export function sessionUriOf(sessionsRoot: VikingUri, id: string): VikingUri {
  if (typeof id !== 'string' || id === '') {
    throw new LongshipError('INVALID_ARGUMENT', 'a session id must be a non-empty string');
  }
  // INVALID_URI, as parseUri says, for a dot-segment, a control character or an overlong name.
  const uri = parseUri(`${sessionsRoot}/${id}`);
  if (parentOf(uri) !== sessionsRoot || basename(uri) !== id || id.includes('%')) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `a session id must be one path segment as written (no "/", "%" or surrounding spaces), not ${JSON.stringify(id.slice(0, 80))}`,
    );
  }
  return uri;
}

/**
 * What directories of sessions are embedded from: a header with the URI, then the summaries.
 *
 * @example
 * directoryEmbedText(uri, 'Conversation chat-1.', '', 90);
 */
export function directoryEmbedText(
  uri: VikingUri,
  summary: string,
  overview: string,
  chunkTokens: number,
): string {
  return (
    chunkText([`directory: ${uri}`, summary, overview].filter(Boolean).join('\n'), {
      maxTokens: chunkTokens,
    })[0] ?? summary
  );
}

/**
 * The batch that writes the messages as archive `number` of the session, whose directory exists
 * (it holds the pending messages, session-state.ts): the caller commits it with the change to the
 * session's state, so that a message is either pending or archived, never both.
 */
export async function archiveBatch(
  input: ArchiveInput,
  number: number,
): Promise<{ uri: VikingUri; batch: WriteBatch }> {
  const { store, embedder, sessionUri, messages, now } = input;
  const archiveUri = join(sessionUri, pad(number));
  if (await store.node(archiveUri)) {
    throw new LongshipError('ALREADY_EXISTS', `cannot archive the session: ${archiveUri} exists`);
  }
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
  // What each node is embedded from: a message's text in chunks; the directory's header and summaries.
  const embedTexts: string[][] = [
    [directoryEmbedText(archiveUri, l0, l1, input.chunkTokens)],
    ...texts.map((text) => {
      const chunks = chunkText(text, { maxTokens: input.chunkTokens });
      return chunks.length > 0 ? chunks : [text || '(empty message)'];
    }),
  ];
  const flat = embedTexts.flat();
  const vectors = await embedder.embed(flat, input.signal ? { signal: input.signal } : {});
  let key = await store.allocateKeys(embedTexts.length + flat.length);
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
      embedTexts[i + 1]!.length,
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
  return { uri: archiveUri, batch };
}

/** The messages of an archive, in order, as role and text. */
export async function readArchive(
  store: FullStore,
  archiveUri: string,
): Promise<{ role: string; text: string }[]> {
  const children = await store.children(archiveUri);
  return children
    .filter((child) => child.kind === 'file')
    .sort((a, b) => Number(a.meta.index) - Number(b.meta.index))
    .map((child) => ({ role: String(child.meta.role ?? 'user'), text: child.l2 ?? child.l0 }));
}

/**
 * The last `count` messages of an archive, as readArchive() gives them, reading only those files:
 * their names are the index and the role, and the archive's meta says how many there are.
 */
export async function readArchiveTail(
  store: FullStore,
  archive: NodeRecord,
  count: number,
): Promise<{ role: string; text: string }[]> {
  const total = archive.meta.messages;
  if (!Number.isSafeInteger(total) || (total as number) < 0) {
    return (await readArchive(store, archive.uri)).slice(-count);
  }
  const from = Math.max(1, (total as number) - count + 1);
  const uris: string[] = [];
  for (let i = from; i <= (total as number); i++) {
    for (const role of messageRoles) uris.push(join(archive.uri as VikingUri, `${pad(i)}-${role}`));
  }
  return (await store.nodes(uris))
    .filter((node): node is NodeRecord => node?.kind === 'file')
    .map((child) => ({ role: String(child.meta.role ?? 'user'), text: child.l2 ?? child.l0 }));
}

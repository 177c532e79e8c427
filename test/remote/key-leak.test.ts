// A server that echoes the API key back in every answer, in every encoding, at every place an
// answer can travel: no form of the key may reach a result, an error, the store or the console.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { remoteEmbedder } from '../../src/embed/remote-embedder.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { llmSummarizer } from '../../src/ingest/summary/llm-summarizer.js';
import { llmReranker } from '../../src/llm/llm-reranker.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { remoteReranker } from '../../src/llm/remote-reranker.js';
import type { FullStore } from '../../src/store/full-store.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';
import { chatReply, type OpenAiServer, startOpenAiServer } from '../support/openai-server.js';

const KEY = 'sk-leak-Te5t/KEY+0123456789abcdefXYZ';
const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');
const jsonEscaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** How the server echoes the key; each is put inside a JSON string of the answer. */
const echoes: Record<string, string> = {
  plain: KEY,
  lower: KEY.toLowerCase(),
  upper: KEY.toUpperCase(),
  'url-encoded': encodeURIComponent(KEY),
  'url-encoded lower hex': encodeURIComponent(KEY).toLowerCase(),
  'url-encoded all': [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
  'json-escaped': jsonEscaped,
  'base64 offset 0': base64(`${KEY}tail`),
  'base64 offset 1': base64(`x${KEY}`),
  'base64 offset 2': base64(`xy${KEY}zz`),
  'base64url offset 0': base64url(KEY),
  'base64url offset 1': base64url(`Authorization: Bearer ${KEY}`),
  'base64url offset 2': base64url(`xy${KEY}`),
  'bearer header': `Bearer ${KEY}`,
};

/** What must never be seen: every form, found by this test's own means, not the code's. */
function leaks(text: string): string[] {
  const found: string[] = [];
  const lower = text.toLowerCase();
  if (lower.includes(KEY.toLowerCase())) found.push('key');
  const decoded = safeDecode(text).toLowerCase();
  if (decoded.includes(KEY.toLowerCase())) found.push('url-decoded key');
  for (let offset = 0; offset < 3; offset++) {
    const core = (encode: (t: string) => string) => {
      const run = encode(`${'\0'.repeat(offset)}${KEY}`);
      return run.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + KEY.length)) / 6));
    };
    for (const variant of [core(base64), core(base64url)]) {
      if (text.includes(variant)) found.push(`base64 at offset ${offset}`);
    }
    for (const cased of [KEY.toLowerCase(), KEY.toUpperCase()]) {
      const run = base64(`${'\0'.repeat(offset)}${cased}`);
      if (text.includes(run.slice(Math.ceil((8 * offset) / 6), -4))) found.push('base64 of cased key');
    }
  }
  if (text.includes(jsonEscaped) || text.includes(jsonEscaped.slice(0, 60))) found.push('json-escaped');
  return found;
}

function safeDecode(text: string): string {
  return text.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Everything an error shows: message, stack, own properties and cause chain, and its JSON. */
function everything(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 10; depth++) {
    if (e instanceof Error) {
      parts.push(e.message, e.stack ?? '', JSON.stringify({ ...e }));
      e = e.cause;
    } else {
      parts.push(JSON.stringify(e) ?? String(e));
      break;
    }
  }
  return parts.join('\n');
}

async function storeDump(store: FullStore): Promise<string> {
  const nodes = [];
  for (const root of ['viking://resources', 'viking://user', 'viking://agent']) {
    nodes.push(await store.node(root), ...(await store.descendants(root)));
  }
  const postings = await Promise.all(nodes.map((n) => (n ? store.posting(n.key) : undefined)));
  return JSON.stringify({ nodes, postings, changes: await store.changesSince(0) });
}

let server: OpenAiServer;
const logged: string[] = [];
beforeAll(async () => {
  server = await startOpenAiServer({ dimensions: 4 });
});
afterAll(() => server.close());
beforeEach(() => {
  logged.length = 0;
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? everything(a) : JSON.stringify(a))).join(' '));
    });
  }
});
afterEach(() => vi.restoreAllMocks());

const llm = () =>
  openAiCompatibleLlm({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    model: 'chat',
    retryBaseMs: 1,
    maxRetries: 0,
  });

async function open(options: { summarize?: boolean; rerank?: 'llm' | 'remote' } = {}) {
  const embedder = bagOfWordsEmbedder();
  const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
  const chat = llm();
  const reranker =
    options.rerank === 'llm'
      ? llmReranker(chat)
      : options.rerank === 'remote'
        ? remoteReranker({ baseUrl: server.baseUrl, apiKey: KEY, model: 'rr', maxRetries: 0 })
        : undefined;
  const longship: Longship = await openLongship({
    store,
    embedder,
    llm: chat,
    ...(options.summarize ? { summarizer: llmSummarizer(chat) } : {}),
    ...(reranker ? { reranker } : {}),
  });
  return { longship, store };
}

async function caught(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

/** A JSON answer whose strings echo the key: `{"a":"…echo…"}` written with the echo verbatim. */
const echoJson = (echo: string, fields: Record<string, unknown>) =>
  JSON.stringify(fields).replaceAll('ECHO', echo);

describe.each(Object.entries(echoes))('a server echoing the key %s', (_, echo) => {
  it('reaches no search() result, plan, rerank report or trace', async () => {
    const { longship } = await open({ rerank: 'llm' });
    server.fallback = () => chatReply('{"queries": []}');
    await longship.write('viking://resources/bread.md', 'Bread needs flour, water and salt.');
    const plan = echoJson(echo, {
      reasoning: 'ECHO',
      queries: [{ query: 'bread ECHO', context_type: 'resource', intent: 'ECHO', priority: 1 }],
    });
    server.script(chatReply(plan), chatReply(`no scores here ECHO ${echo}`), chatReply('x'));
    const planned = await longship.search('bread', { trace: true });
    expect(planned.intent.source).toBe('llm');
    expect(planned.rerank?.applied).toBe(false);
    server.script(chatReply(`I cannot plan that, ${echo}`));
    const fallback = await longship.search('bread', { trace: true, rerank: false });
    expect(fallback.intent.source).toBe('fallback');
    expect(leaks(JSON.stringify([planned, fallback]))).toEqual([]);
    await longship.close();
    expect(leaks(logged.join('\n'))).toEqual([]);
  });

  it('reaches no error of llmReranker, remoteReranker, remoteEmbedder or llmSummarizer', async () => {
    server.script(chatReply(`scores: none ${echo}`));
    const rerankError = await caught(llmReranker(llm()).rerank('q', ['a', 'b']));
    expect(rerankError.code).toBe('LLM_OUTPUT');
    server.script({ json: { results: echo } });
    const remote = remoteReranker({ baseUrl: server.baseUrl, apiKey: KEY, model: 'rr', maxRetries: 0 });
    const remoteError = await caught(remote.rerank('q', ['a']));
    server.script(chatReply(`summary: ${echo}`));
    const summaryError = await caught(
      llmSummarizer(llm()).summarize({ title: 't', text: 'x', headings: [] }),
    );
    expect(summaryError.code).toBe('LLM_OUTPUT');
    server.script({ status: 400, json: { error: { message: `bad key ${echo}` } } });
    const httpError = await caught(llm().complete([{ role: 'user', content: 'hi' }]));
    server.script({ text: `not json ${echo}` });
    const bodyError = await caught(llm().complete([{ role: 'user', content: 'hi' }]));
    server.script({ json: { error: echo } });
    const embedder = remoteEmbedder({ baseUrl: server.baseUrl, apiKey: KEY, model: 'e', dimensions: 4 });
    const embedError = await caught(embedder.embed(['a']));
    for (const error of [rerankError, remoteError, summaryError, httpError, bodyError, embedError]) {
      expect(leaks(everything(error))).toEqual([]);
    }
  });

  it('reaches no stored record: summaries, memories, archive summaries, extraction errors', async () => {
    const { longship, store } = await open({ summarize: true });
    server.script(chatReply(echoJson(echo, { l0: 'About ECHO', l1: 'More ECHO' })));
    await longship.write('viking://resources/key.md', 'The key is kept elsewhere.');
    const session = longship.session('s1');
    await session.addMessage('user', 'I like green tea in the morning.');
    const memories = echoJson(echo, {
      summary: 'Talked about ECHO',
      memories: [{ category: 'preferences', name: 'tea ECHO', abstract: 'ECHO', content: 'Likes ECHO' }],
    });
    // The archive's summary (extractive) and the memory's L0/L1 go through the LLM summariser.
    server.fallback = () => chatReply(echoJson(echo, { l0: 'Dir ECHO', l1: 'Dir ECHO' }));
    server.script(chatReply(memories));
    const committed = await session.commit();
    expect(committed.extractions[0]?.memories?.length).toBe(1);
    await session.addMessage('user', 'And black coffee after lunch.');
    server.script(chatReply(`no memories ${echo}`));
    const failed = await session.commit();
    expect(failed.extractions[0]?.error).toBeDefined();
    expect(leaks(JSON.stringify([committed, failed]))).toEqual([]);
    expect(leaks(await storeDump(store))).toEqual([]);
    server.fallback = () => chatReply('{"queries": []}');
    await longship.close();
    expect(leaks(logged.join('\n'))).toEqual([]);
  });
});

it('a baseUrl with credentials is refused without quoting them, in message or cause', () => {
  for (const baseUrl of ['https://user:SeCrEt-pass@example.com/v1', 'ht tp://user:SeCrEt-pass@x']) {
    let error: unknown;
    try {
      openAiCompatibleLlm({ baseUrl, model: 'm' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
    expect(everything(error)).not.toContain('SeCrEt');
  }
});

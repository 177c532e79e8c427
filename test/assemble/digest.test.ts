// context()'s optional digest, against a real HTTP server speaking the OpenAI protocol: bullets that
// cite URIs of the block, within the budget; and every failure of the LLM leaves the block as it is.
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';
import { chatReply, type OpenAiServer, promptData, startOpenAiServer } from '../support/openai-server.js';

let server: OpenAiServer;
let longship: Longship;
const uri = 'viking://resources/retries.md';
const query = 'upload retry backoff';

beforeAll(async () => {
  server = await startOpenAiServer({ dimensions: 4 });
});
afterAll(() => server.close());

beforeEach(async () => {
  const embedder = bagOfWordsEmbedder();
  const llm = openAiCompatibleLlm({ baseUrl: server.baseUrl, model: 'digest-model', maxRetries: 0 });
  longship = await openLongship({
    store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
    embedder,
    llm,
  });
  await longship.write(uri, 'Uploads retry with exponential backoff, 200 ms first, at most five retries.');
  server.requests.length = 0;
});
afterEach(() => longship.close());

/** The digest answer, as the LLM would give it. */
const digestAnswer = (json: unknown) => chatReply(JSON.stringify(json));
/** search() asks the LLM for a query plan first: answer it with the query itself. */
const plan = chatReply(
  JSON.stringify({
    queries: [{ query, context_type: 'resource', intent: 'find', priority: 1 }],
    reasoning: '',
  }),
);

it('adds a digest whose bullets cite the block, dropping any that cite another URI', async () => {
  server.script(
    plan,
    digestAnswer({
      relevant: true,
      bullets: [
        { text: 'Backoff starts at 200 ms; five retries at most.', uri },
        { text: 'An invented fact.', uri: 'viking://resources/elsewhere.md' },
      ],
    }),
  );
  const result = await longship.context(query, { budget: { tokens: 500 }, digest: true });
  expect(result.parts.map((p) => p.uri)).toEqual([uri]);
  expect(result.digest).toMatchObject({
    status: 'ok',
    model: 'digest-model',
    text: `- Backoff starts at 200 ms; five retries at most. (source: ${uri})`,
  });
  expect(result.digest!.tokens).toBeGreaterThan(0);
  expect(result.digest!.tokens).toBeLessThanOrEqual(500);
  expect(result.digest!.usage?.totalTokens).toBe(17);
  // The LLM was sent the block as data, with the query.
  const sent = promptData(server.requests.at(-1)!);
  expect(sent).toEqual({ query, context: result.text });
});

it('keeps the digest within the budget by dropping its last bullets', async () => {
  const long = 'word '.repeat(60).trim();
  server.script(
    plan,
    digestAnswer({
      relevant: true,
      bullets: [
        { text: 'Short fact.', uri },
        { text: long, uri },
      ],
    }),
  );
  const result = await longship.context(query, { budget: { tokens: 60 }, digest: { maxBullets: 4 } });
  expect(result.tokens).toBeLessThanOrEqual(60);
  expect(result.digest).toMatchObject({ status: 'ok', text: `- Short fact. (source: ${uri})` });
});

it('says when nothing is relevant, and leaves the block as it is when the LLM fails', async () => {
  server.script(plan, digestAnswer({ relevant: false }));
  const none = await longship.context(query, { budget: { tokens: 500 }, digest: true });
  expect(none.digest).toMatchObject({ status: 'nothing-relevant', text: '', tokens: 0 });
  expect(none.text).toContain(uri);

  server.script(plan, { status: 500, json: { error: { message: 'down' } } });
  const failed = await longship.context(query, { budget: { tokens: 500 }, digest: true });
  expect(failed.digest?.status).toBe('failed');
  expect(failed.digest?.error).toMatch(/^REMOTE_HTTP: /);
  expect(failed.text).toBe(none.text);

  server.script(plan, chatReply('Here are some thoughts, no JSON.'));
  const prose = await longship.context(query, { budget: { tokens: 500 }, digest: true });
  expect(prose.digest).toMatchObject({ status: 'failed', error: expect.stringMatching(/^LLM_OUTPUT: /) });
});

it('asks no LLM for a digest of an empty block, nor without being asked', async () => {
  server.script(plan);
  const empty = await longship.context('zebra xylophone', {
    budget: { tokens: 500 },
    digest: true,
    targetUri: 'viking://user/default/memories',
  });
  expect(empty.parts).toEqual([]);
  expect(empty.digest).toBeUndefined();
  const before = server.requests.length;
  server.script(plan);
  const plain = await longship.context(query, { budget: { tokens: 500 } });
  expect(plain.digest).toBeUndefined();
  // Only the query plan was asked for.
  expect(server.requests.length).toBe(before + 1);
});

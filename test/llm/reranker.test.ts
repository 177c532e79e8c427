import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { llmReranker } from '../../src/llm/llm-reranker.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { remoteReranker } from '../../src/llm/remote-reranker.js';
import { chatReply, type OpenAiServer, rerankReply, startOpenAiServer } from '../support/openai-server.js';

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer({ dimensions: 4 });
});
afterAll(() => server.close());

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (e instanceof LongshipError ? e.code : `not a LongshipError: ${String(e)}`),
  );

describe('remoteReranker', () => {
  // A timeout far beyond a local answer: on a busy machine a first request past it is retried, and
  // the retry meets the server's next scripted answer instead of its own.
  const reranker = () =>
    remoteReranker({ baseUrl: server.baseUrl, model: 'rr', retryBaseMs: 1, timeoutMs: 10_000 });

  it('posts the query and documents and returns scores in document order', async () => {
    server.script(rerankReply([0.1, 0.9, 0.5]));
    const seen = server.nextRequest();
    const { scores } = await reranker().rerank('q', ['a', 'b', 'c']);
    expect(scores).toEqual([0.1, 0.9, 0.5]);
    const request = await seen;
    expect(request.path).toBe('/v1/rerank');
    expect(request.body).toMatchObject({ model: 'rr', query: 'q', documents: ['a', 'b', 'c'], top_n: 3 });
  });

  it('refuses answers that do not score each document once', async () => {
    server.script(
      { json: { results: [{ index: 0, relevance_score: 1 }] } },
      {
        json: {
          results: [
            { index: 0, relevance_score: 1 },
            { index: 0, relevance_score: 1 },
          ],
        },
      },
      {
        json: {
          results: [
            { index: 5, relevance_score: 1 },
            { index: 0, relevance_score: 1 },
          ],
        },
      },
      {
        json: {
          results: [
            { index: 1, relevance_score: 'high' },
            { index: 0, relevance_score: 1 },
          ],
        },
      },
      { json: { nothing: true } },
    );
    for (let i = 0; i < 5; i++)
      expect(await code(reranker().rerank('q', ['a', 'b']))).toBe('REMOTE_RESPONSE');
  });

  it('retries a 429, times out a hang', async () => {
    server.script({ status: 429, text: 'later' }, rerankReply([0.3]));
    expect((await reranker().rerank('q', ['a'])).scores).toEqual([0.3]);
    server.script({ hang: 'headers' });
    expect(
      await code(
        remoteReranker({ baseUrl: server.baseUrl, model: 'rr', timeoutMs: 100, maxRetries: 0 }).rerank('q', [
          'a',
        ]),
      ),
    ).toBe('TIMEOUT');
  });
});

describe('llmReranker', () => {
  const llm = () => openAiCompatibleLlm({ baseUrl: server.baseUrl, model: 'chat', retryBaseMs: 1 });

  it('asks for one score per index and maps them back', async () => {
    server.script(chatReply('{"scores":[{"index":1,"score":0.2},{"index":0,"score":0.8}]}'));
    expect((await llmReranker(llm()).rerank('q', ['a', 'b'])).scores).toEqual([0.8, 0.2]);
  });

  it('refuses missing, repeated or out-of-range indices and out-of-range scores', async () => {
    server.script(
      chatReply('{"scores":[{"index":0,"score":0.8}]}'),
      chatReply('{"scores":[{"index":0,"score":0.8},{"index":0,"score":0.1}]}'),
      chatReply('{"scores":[{"index":0,"score":0.8},{"index":2,"score":0.1}]}'),
      chatReply('{"scores":[{"index":0,"score":1.5},{"index":1,"score":0.1}]}'),
    );
    for (let i = 0; i < 4; i++)
      expect(await code(llmReranker(llm()).rerank('q', ['a', 'b']))).toBe('LLM_OUTPUT');
  });
});

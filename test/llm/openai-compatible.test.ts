import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { intentPrompt } from '../../src/llm/prompts.js';
import { runPrompt } from '../../src/llm/run-prompt.js';
import { chatReply, type OpenAiServer, startOpenAiServer } from '../support/openai-server.js';

const KEY = 'sk-test-SECRET-0123456789';
let server: OpenAiServer;

beforeAll(async () => {
  server = await startOpenAiServer({ dimensions: 4 });
  server.fallback = () => chatReply('{"queries": []}');
});
afterAll(() => server.close());

const llm = (options: Partial<Parameters<typeof openAiCompatibleLlm>[0]> = {}) =>
  openAiCompatibleLlm({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    model: 'test-chat',
    retryBaseMs: 1,
    timeoutMs: 2000,
    ...options,
  });

async function failure(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

/** Everything an error shows: message, cause chain, stack, and what inspection prints. */
function everything(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 10; depth++) {
    if (e instanceof Error) {
      parts.push(e.message, e.stack ?? '');
      e = e.cause;
    } else {
      parts.push(JSON.stringify(e) ?? String(e));
      break;
    }
  }
  return parts.join('\n');
}

describe('openAiCompatibleLlm', () => {
  it('posts the messages with the model, key and JSON format, and reports token usage', async () => {
    server.script(chatReply('{"ok": true}', { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 }));
    const client = llm();
    const seen = server.nextRequest();
    const answer = await client.complete([{ role: 'user', content: 'hi' }], { json: true, maxTokens: 50 });
    const request = await seen;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toMatchObject({
      model: 'test-chat',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_object' },
      max_tokens: 50,
      temperature: 0,
    });
    expect(answer).toEqual({
      text: '{"ok": true}',
      usage: { promptTokens: 30, completionTokens: 4, totalTokens: 34 },
    });
    await client.complete([{ role: 'user', content: 'again' }]);
    expect(client.usage.totalTokens).toBe(34 + 17);
  });

  it('retries a 429 (honouring Retry-After) and a 500, then succeeds', async () => {
    server.script(
      { status: 429, headers: { 'retry-after': '0' }, json: { error: { message: 'slow down' } } },
      { status: 500, text: 'boom' },
      chatReply('fine'),
    );
    const before = server.requests.length;
    expect((await llm().complete([{ role: 'user', content: 'x' }])).text).toBe('fine');
    expect(server.requests.length - before).toBe(3);
  });

  it('gives up after maxRetries with REMOTE_HTTP naming the status, and does not retry a 400', async () => {
    server.script({ status: 503, text: 'down' }, { status: 503, text: 'down' });
    const error = await failure(llm({ maxRetries: 1 }).complete([{ role: 'user', content: 'x' }]));
    expect(error.code).toBe('REMOTE_HTTP');
    expect(error.message).toContain('503');
    const before = server.requests.length;
    server.script({ status: 400, json: { error: { message: 'bad model' } } });
    const bad = await failure(llm().complete([{ role: 'user', content: 'x' }]));
    expect(bad.message).toContain('bad model');
    expect(server.requests.length - before).toBe(1);
  });

  it('times out a hung request within its timeout, and a stalled body too', async () => {
    server.script({ hang: 'headers' }, { hang: 'body' });
    const client = llm({ timeoutMs: 150, maxRetries: 0 });
    let started = performance.now();
    expect((await failure(client.complete([{ role: 'user', content: 'x' }]))).code).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(1000);
    started = performance.now();
    expect((await failure(client.complete([{ role: 'user', content: 'x' }]))).code).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('is cancelled by the caller’s signal, mid-request and while waiting to retry', async () => {
    server.script({ hang: 'headers' });
    const controller = new AbortController();
    const pending = llm().complete([{ role: 'user', content: 'x' }], { signal: controller.signal });
    await server.nextRequest();
    controller.abort(new Error('user left'));
    expect((await failure(pending)).code).toBe('ABORTED');

    server.script({ status: 500, text: 'x' });
    const waiting = new AbortController();
    const retrying = llm({ retryBaseMs: 5000, retryMaxMs: 5000 }).complete([{ role: 'user', content: 'x' }], {
      signal: waiting.signal,
    });
    await server.nextRequest();
    setTimeout(() => waiting.abort(), 50);
    expect((await failure(retrying)).code).toBe('ABORTED');
  });

  it('keeps at most maxConcurrent requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    // A delaying fetch: the local server answers at once, so concurrency is counted client-side.
    const client = openAiCompatibleLlm({
      baseUrl: server.baseUrl,
      model: 'm',
      maxConcurrent: 2,
      fetch: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 30));
        inFlight--;
        return new Response(JSON.stringify({ choices: [{ message: { content: 'ok' } }] }), { status: 200 });
      },
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => client.complete([{ role: 'user', content: 'x' }])),
    );
    expect(answers.map((a) => a.text)).toEqual(Array(6).fill('ok'));
    expect(most).toBe(2);
  });

  it('never lets the API key into an error, even when the server echoes it', async () => {
    server.script(
      { status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}` } } },
      { text: `not json, but here is your key ${KEY}` },
      { json: { echoed: KEY } },
    );
    const client = llm();
    for (let i = 0; i < 3; i++) {
      const error = await failure(client.complete([{ role: 'user', content: 'x' }]));
      expect(everything(error)).not.toContain(KEY);
      expect(everything(error)).not.toContain('SECRET');
    }
    expect(JSON.stringify(client)).not.toContain(KEY);
  });

  it('treats an answer without a message as REMOTE_RESPONSE and content null as empty', async () => {
    server.script({ json: { choices: [] } }, chatReply(null));
    expect((await failure(llm().complete([{ role: 'user', content: 'x' }]))).code).toBe('REMOTE_RESPONSE');
    expect((await llm().complete([{ role: 'user', content: 'x' }])).text).toBe('');
  });

  it('rejects bad construction with INVALID_ARGUMENT, without quoting the base URL', () => {
    expect(() => openAiCompatibleLlm({ baseUrl: 'nope://user:pw@', model: '' })).toThrow(LongshipError);
    const error = (() => {
      try {
        openAiCompatibleLlm({ baseUrl: 'not a url with pw', model: 'm' });
      } catch (e) {
        return e as LongshipError;
      }
    })();
    expect(error?.code).toBe('INVALID_ARGUMENT');
    expect(error?.message).not.toContain('pw');
    expect(() => openAiCompatibleLlm({ baseUrl: server.baseUrl, model: 'm', apiKey: 'has space' })).toThrow(
      /printable/,
    );
  });
});

describe('runPrompt', () => {
  it('sends the prompt with JSON format and returns the checked output with usage', async () => {
    server.script(
      chatReply('```json\n{"queries":[{"query":"RFC template","context_type":"resource"}]}\n```'),
    );
    const { output, usage } = await runPrompt(llm(), intentPrompt, { query: 'write an RFC', recent: [] });
    expect(output.queries).toEqual([
      { query: 'RFC template', context_type: 'resource', intent: '', priority: 3 },
    ]);
    expect(usage.totalTokens).toBe(17);
  });

  it('fails with LLM_OUTPUT on garbage, an empty answer and JSON outside the schema', async () => {
    server.script(chatReply('I cannot help with that.'), chatReply(''), chatReply('{"queries": "none"}'));
    for (let i = 0; i < 3; i++) {
      const error = await failure(runPrompt(llm(), intentPrompt, { query: 'q', recent: [] }));
      expect(error.code).toBe('LLM_OUTPUT');
      expect(error.message).toContain('intent v1');
    }
  });
});

import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/embed/embedder.js';
import { type RemoteEmbedderOptions, remoteEmbedder } from '../../src/embed/remote-embedder.js';
import { LongshipError } from '../../src/errors.js';
import { embeddings, type OpenAiServer, startOpenAiServer, vectorFor } from '../support/openai-server.js';

const dimensions = 4;
const apiKey = 'sk-test-SECRET-4f9c2a7e1b';
let server: OpenAiServer;

beforeEach(async () => {
  server = await startOpenAiServer({ dimensions });
});
afterEach(async () => {
  await server.close();
});

function embedder(options: Partial<RemoteEmbedderOptions> = {}): Embedder {
  return remoteEmbedder({
    baseUrl: server.baseUrl,
    apiKey,
    model: 'test-embed',
    dimensions,
    retryBaseMs: 1,
    ...options,
  });
}

/** The rejection of `promise`, which must be a LongshipError with `code`. */
async function failure(promise: Promise<unknown>, code: string): Promise<LongshipError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  expect((error as LongshipError).code).toBe(code);
  return error as LongshipError;
}

function texts(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `text number ${i}`);
}

function expected(inputs: string[]): Float32Array[] {
  return inputs.map((text) => new Float32Array(vectorFor(text, dimensions)));
}

describe('remoteEmbedder', () => {
  it('posts an OpenAI embeddings request and returns one vector per text', async () => {
    const e = embedder();
    const inputs = ['alpha', 'beta', 'gamma'];
    expect(e.id).toBe('remote:test-embed');
    expect(e.dimensions).toBe(dimensions);
    expect(await e.embed(inputs)).toEqual(expected(inputs));
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/embeddings');
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ model: 'test-embed', input: inputs, encoding_format: 'float' });
  });

  it('sends dimensions only when asked to, and no Authorization header without a key', async () => {
    await embedder({ requestDimensions: true, apiKey: undefined, id: 'mine' }).embed(['x']);
    expect(server.requests[0]?.body).toMatchObject({ dimensions });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('accepts a base URL with a trailing slash and a query string', async () => {
    await embedder({ baseUrl: `${server.baseUrl}/?api-version=2024-02-01` }).embed(['x']);
    expect(server.requests[0]?.path).toBe('/v1/embeddings?api-version=2024-02-01');
  });

  it('makes no request for no texts', async () => {
    expect(await embedder().embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('orders results by their index field', async () => {
    server.script((request) => embeddings(request, dimensions, { reverse: true }));
    const inputs = ['one', 'two', 'three', 'four'];
    expect(await embedder().embed(inputs)).toEqual(expected(inputs));
  });

  it('splits 150 texts into requests of 64, 64 and 22, in order, reporting progress', async () => {
    const inputs = texts(150);
    const progress: { done: number; total: number }[] = [];
    const vectors = await embedder().embed(inputs, { onProgress: (p) => progress.push(p) });
    expect(server.requests.map((r) => (typeof r.body === 'string' ? 0 : r.body.input?.length))).toEqual([
      64, 64, 22,
    ]);
    expect(server.requests.flatMap((r) => (typeof r.body === 'string' ? [] : (r.body.input ?? [])))).toEqual(
      inputs,
    );
    expect(vectors).toEqual(expected(inputs));
    expect(progress).toEqual([
      { done: 64, total: 150 },
      { done: 128, total: 150 },
      { done: 150, total: 150 },
    ]);
  });

  describe('retries', () => {
    it('retries a 429, honouring Retry-After', async () => {
      server.script({
        status: 429,
        headers: { 'retry-after': '0' },
        json: { error: { message: 'slow down' } },
      });
      expect(await embedder().embed(['a', 'b'])).toEqual(expected(['a', 'b']));
      expect(server.requests).toHaveLength(2);
    });

    it('caps a long Retry-After at retryMaxMs', async () => {
      server.script({ status: 429, headers: { 'retry-after': '3600' } });
      const started = Date.now();
      expect(await embedder({ retryMaxMs: 20 }).embed(['a'])).toEqual(expected(['a']));
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('retries 5xx until one succeeds', async () => {
      server.script({ status: 500 }, { status: 502 }, { status: 503 });
      expect(await embedder().embed(['a'])).toEqual(expected(['a']));
      expect(server.requests).toHaveLength(4);
    });

    it('gives up with REMOTE_HTTP after maxRetries', async () => {
      server.fallback = () => ({ status: 500, json: { error: { message: 'the model fell over' } } });
      const error = await failure(embedder({ maxRetries: 2 }).embed(['a']), 'REMOTE_HTTP');
      expect(server.requests).toHaveLength(3);
      expect(error.message).toContain('500');
      expect(error.message).toContain('the model fell over');
      expect(error.cause).toEqual({ status: 500 });
    });

    it('never retries another 4xx', async () => {
      server.script({ status: 400, json: { error: { message: 'input too long' } } });
      const error = await failure(embedder().embed(['a']), 'REMOTE_HTTP');
      expect(server.requests).toHaveLength(1);
      expect(error.message).toContain('400');
      expect(error.message).toContain('input too long');
      expect(error.cause).toEqual({ status: 400 });
    });

    it('retries network failures, then reports REMOTE_HTTP', async () => {
      const closed = server.baseUrl;
      await server.close();
      const error = await failure(embedder({ baseUrl: closed, maxRetries: 1 }).embed(['a']), 'REMOTE_HTTP');
      expect(error.message).toContain('could not reach');
      expect(error.cause).toBeInstanceOf(Error);
      server = await startOpenAiServer({ dimensions });
    });
  });

  describe('bad answers', () => {
    it('rejects a body that is not JSON with REMOTE_RESPONSE, without retrying', async () => {
      server.script({ text: '<html>oops</html>' });
      const error = await failure(embedder().embed(['a']), 'REMOTE_RESPONSE');
      expect(error.message).toContain('<html>oops</html>');
      expect(error.cause).toBeInstanceOf(SyntaxError);
      expect(server.requests).toHaveLength(1);
    });

    const shapes: [string, (request: Parameters<OpenAiServer['fallback']>[0]) => unknown][] = [
      ['no data', () => ({ object: 'list' })],
      ['data not an array', () => ({ data: {} })],
      ['a JSON array', () => []],
      ['too few embeddings', () => ({ data: [{ index: 0, embedding: [1, 2, 3, 4] }] })],
      ['an item that is not an object', () => ({ data: [1, 2] })],
      [
        'an embedding that is not an array',
        () => ({ data: [0, 1].map((index) => ({ index, embedding: 'AAAA' })) }),
      ],
      ['a null element', () => ({ data: [0, 1].map((index) => ({ index, embedding: [1, null, 3, 4] })) })],
      ['a string element', () => ({ data: [0, 1].map((index) => ({ index, embedding: [1, '2', 3, 4] })) })],
      [
        'a float32 overflow',
        () => ({ data: [0, 1].map((index) => ({ index, embedding: [1, 1e39, 3, 4] })) }),
      ],
      ['a duplicate index', () => ({ data: [0, 0].map((index) => ({ index, embedding: [1, 2, 3, 4] })) })],
      [
        'an index out of range',
        () => ({ data: [0, 2].map((index) => ({ index, embedding: [1, 2, 3, 4] })) }),
      ],
      ['a fractional index', () => ({ data: [0, 0.5].map((index) => ({ index, embedding: [1, 2, 3, 4] })) })],
      [
        'indexes on some items only',
        () => ({ data: [{ index: 1, embedding: [1, 2, 3, 4] }, { embedding: [1, 2, 3, 4] }] }),
      ],
    ];
    it.each(shapes)('rejects %s with REMOTE_RESPONSE', async (_, body) => {
      server.script((request) => ({ json: body(request) }));
      await failure(embedder().embed(['a', 'b']), 'REMOTE_RESPONSE');
      expect(server.requests).toHaveLength(1);
    });

    it('takes positions for order when no item has an index', async () => {
      server.script(() => ({
        json: { data: ['a', 'b'].map((text) => ({ embedding: vectorFor(text, dimensions) })) },
      }));
      expect(await embedder().embed(['a', 'b'])).toEqual(expected(['a', 'b']));
    });

    it('reports vectors of another length as DIMENSION_MISMATCH', async () => {
      server.script((request) => embeddings(request, dimensions, { vectorLength: 1536 }));
      const error = await failure(embedder().embed(['a']), 'DIMENSION_MISMATCH');
      expect(error.message).toContain('1536');
      expect(error.message).toContain(`dimensions: ${dimensions}`);
      expect(error.message).toContain('requestDimensions');
    });
  });

  describe('time and cancellation', () => {
    it('reports TIMEOUT when the server does not answer within timeoutMs', async () => {
      server.fallback = () => ({ hang: 'headers' });
      await failure(embedder({ timeoutMs: 50, maxRetries: 0 }).embed(['a']), 'TIMEOUT');
      expect(server.requests).toHaveLength(1);
    });

    it('retries a timeout, and a stalled body times out too', async () => {
      server.script({ hang: 'body' });
      expect(await embedder({ timeoutMs: 100 }).embed(['a'])).toEqual(expected(['a']));
      server.fallback = () => ({ hang: 'body' });
      await failure(embedder({ timeoutMs: 50, maxRetries: 1 }).embed(['a']), 'TIMEOUT');
      expect(server.requests).toHaveLength(4);
    });

    it('stops at once with ABORTED when the caller aborts mid-request, without retrying', async () => {
      server.fallback = () => ({ hang: 'headers' });
      const controller = new AbortController();
      const reason = new Error('user left');
      const started = Date.now();
      const pending = embedder({ timeoutMs: 10_000 }).embed(['a'], { signal: controller.signal });
      await server.nextRequest();
      controller.abort(reason);
      const error = await failure(pending, 'ABORTED');
      expect(error.cause).toBe(reason);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(server.requests).toHaveLength(1);
    });

    it('stops at once with ABORTED when the caller aborts during a backoff', async () => {
      server.fallback = () => ({ status: 503 });
      const controller = new AbortController();
      const pending = embedder({ retryBaseMs: 10_000 }).embed(['a'], { signal: controller.signal });
      await server.nextRequest();
      setTimeout(() => controller.abort(), 20);
      const started = Date.now();
      await failure(pending, 'ABORTED');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(server.requests).toHaveLength(1);
    });

    it('makes no request when the signal has already fired', async () => {
      await failure(embedder().embed(['a'], { signal: AbortSignal.abort() }), 'ABORTED');
      expect(server.requests).toHaveLength(0);
    });

    it('stops between batches when aborted after one', async () => {
      const controller = new AbortController();
      await failure(
        embedder({ batchSize: 2 }).embed(texts(6), {
          signal: controller.signal,
          onProgress: () => controller.abort(),
        }),
        'ABORTED',
      );
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('the API key', () => {
    /** Everything an error exposes as text, down its cause chain. */
    function everything(error: unknown, depth = 0): string {
      if (depth > 10 || error === undefined || error === null) return '';
      if (!(error instanceof Error)) return `${String(error)} ${JSON.stringify(error)}`;
      return [
        error.message,
        error.stack,
        String(error),
        inspect(error, { depth: 10 }),
        everything(error.cause, depth + 1),
      ].join('\n');
    }

    /** Whether the text holds the key or any eight characters of it. */
    function leaks(text: string): boolean {
      for (let i = 0; i + 8 <= apiKey.length; i++) if (text.includes(apiKey.slice(i, i + 8))) return true;
      return false;
    }

    const echo = (request: { headers: { authorization?: string } }) => String(request.headers.authorization);

    it.each([
      [
        'a 401 that quotes it',
        'REMOTE_HTTP',
        (r: { headers: { authorization?: string } }) => ({
          status: 401,
          json: { error: { message: `bad key ${echo(r)}` } },
        }),
      ],
      [
        'a 500 that quotes it',
        'REMOTE_HTTP',
        (r: { headers: { authorization?: string } }) => ({ status: 500, text: echo(r) }),
      ],
      [
        'garbage that quotes it',
        'REMOTE_RESPONSE',
        (r: { headers: { authorization?: string } }) => ({ text: `{${echo(r)}` }),
      ],
      [
        'garbage that starts with it',
        'REMOTE_RESPONSE',
        (r: { headers: { authorization?: string } }) => ({ text: echo(r).slice(7) }),
      ],
      [
        'a wrong shape that quotes it',
        'REMOTE_RESPONSE',
        (r: { headers: { authorization?: string } }) => ({ json: { error: echo(r) } }),
      ],
    ] as const)('never appears in an error, even after %s', async (_, code, reply) => {
      server.fallback = reply;
      const error = await failure(embedder({ maxRetries: 1 }).embed(['a']), code);
      expect(leaks(everything(error))).toBe(false);
      expect(everything(error)).toContain('[redacted]');
    });

    it('is scrubbed from a foreign error that quotes it', async () => {
      const fetch = async () => {
        throw new TypeError(`fetch failed for ${apiKey}`, { cause: new Error(`deeper ${apiKey}`) });
      };
      const error = await failure(embedder({ fetch, maxRetries: 0 }).embed(['a']), 'REMOTE_HTTP');
      expect(leaks(everything(error))).toBe(false);
      expect((error.cause as Error).name).toBe('TypeError');
    });

    it('does not appear in timeouts, network failures or aborts', async () => {
      server.fallback = () => ({ hang: 'headers' });
      const errors = [
        await failure(embedder({ timeoutMs: 20, maxRetries: 0 }).embed(['a']), 'TIMEOUT'),
        await failure(
          embedder({ baseUrl: 'http://127.0.0.1:1/v1', maxRetries: 0 }).embed(['a']),
          'REMOTE_HTTP',
        ),
        await failure(embedder().embed(['a'], { signal: AbortSignal.timeout(20) }), 'ABORTED'),
      ];
      for (const error of errors) expect(leaks(everything(error))).toBe(false);
    });

    it('is hidden when the embedder itself is logged or serialised', () => {
      const e = embedder();
      expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(apiKey);
      expect(JSON.stringify(e)).not.toContain(apiKey);
    });

    it('is rejected without being quoted when it could not be a header value', () => {
      const bad = `${apiKey}\n`;
      let error: unknown;
      try {
        embedder({ apiKey: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LongshipError);
      expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
      expect(leaks(everything(error))).toBe(false);
    });
  });

  describe('options', () => {
    it('uses an injected fetch', async () => {
      const seen: string[] = [];
      const fetch = async (url: string, init: RequestInit) => {
        seen.push(url);
        const { input } = JSON.parse(String(init.body)) as { input: string[] };
        return Response.json({
          data: input.map((text, index) => ({ index, embedding: vectorFor(text, dimensions) })),
        });
      };
      const e = remoteEmbedder({ baseUrl: 'https://example.invalid/v1/', model: 'm', dimensions, fetch });
      expect(await e.embed(['q'])).toEqual(expected(['q']));
      expect(seen).toEqual(['https://example.invalid/v1/embeddings']);
    });

    it.each([
      { baseUrl: 'not a url' },
      { model: '' },
      { dimensions: 0 },
      { dimensions: 1.5 },
      { batchSize: 0 },
      { batchSize: 2049 },
      { timeoutMs: 0 },
      { maxRetries: -1 },
      { retryBaseMs: Number.NaN },
    ])('rejects %o with INVALID_ARGUMENT', (options) => {
      expect(() => embedder(options)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });

    it('rejects texts that are not strings', async () => {
      await failure(embedder().embed([1 as unknown as string]), 'INVALID_ARGUMENT');
    });
  });
});

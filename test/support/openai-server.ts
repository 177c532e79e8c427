// A real HTTP server on 127.0.0.1 that speaks the OpenAI embeddings and chat completions protocols
// and Cohere/Jina's /rerank with scripted answers, so the remote clients are tested through the same
// fetch they use in production.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body:
    | {
        model?: string;
        input?: string[];
        dimensions?: number;
        encoding_format?: string;
        messages?: { role: string; content: string }[];
        response_format?: { type: string };
        query?: string;
        documents?: string[];
        top_n?: number;
      }
    | string;
}

/** What the server does with one request. */
export type Reply =
  | { status?: number; headers?: Record<string, string>; json?: unknown; text?: string }
  /** Never answers (`headers`), or sends 200 and headers and then stalls the body (`body`). */
  | { hang: 'headers' | 'body' };

export type Responder = (request: RecordedRequest) => Reply;

export interface OpenAiServer {
  /** Like `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Answers for the next requests, in order; after them, `fallback` answers. */
  script(...replies: (Reply | Responder)[]): void;
  /** Answers when the script has run out (default: deterministic embeddings of `dimensions`). */
  fallback: Responder;
  /** Resolves once a request has arrived, for tests that act mid-request. */
  nextRequest(): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** A deterministic vector per text: small integers, so exact in float32. */
export function vectorFor(text: string, dimensions: number): number[] {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619) >>> 0;
  return Array.from({ length: dimensions }, (_, i) => ((hash >>> (i % 24)) & 0xff) - 128 + i);
}

/** A successful OpenAI answer for the request, optionally with other vectors or another order. */
export function embeddings(
  request: RecordedRequest,
  dimensions: number,
  shape: { reverse?: boolean; vectorLength?: number } = {},
): Reply {
  const input = typeof request.body === 'string' ? [] : (request.body.input ?? []);
  const data = input.map((text, index) => ({
    object: 'embedding',
    index,
    embedding: vectorFor(text, shape.vectorLength ?? dimensions),
  }));
  if (shape.reverse) data.reverse();
  return {
    json: { object: 'list', data, model: 'test', usage: { prompt_tokens: 1, total_tokens: 1 } },
  };
}

/** A chat completion whose message is `content`. */
export function chatReply(
  content: string | null,
  usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
): Reply {
  return {
    json: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      model: 'test',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage,
    },
  };
}

/** The JSON data a Longship prompt sent in its last message (see src/llm/prompts.ts). */
export function promptData(request: RecordedRequest): Record<string, unknown> {
  const messages = typeof request.body === 'string' ? [] : (request.body.messages ?? []);
  const last = messages.at(-1)?.content ?? '';
  return JSON.parse(last.slice(last.indexOf('\n') + 1)) as Record<string, unknown>;
}

/** A Cohere/Jina rerank answer with these scores, best first as those APIs sort them. */
export function rerankReply(scores: readonly number[]): Reply {
  const results = scores.map((relevance_score, index) => ({ index, relevance_score }));
  results.sort((a, b) => b.relevance_score - a.relevance_score);
  return { json: { results, meta: { billed_units: { search_units: 1 } } } };
}

export async function startOpenAiServer(options: { dimensions: number }): Promise<OpenAiServer> {
  const queue: (Reply | Responder)[] = [];
  const waiting: ((request: RecordedRequest) => void)[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: RecordedRequest['body'];
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const request: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
      };
      requests.push(request);
      for (const resolve of waiting.splice(0)) resolve(request);
      const next = queue.shift() ?? api.fallback;
      send(res, typeof next === 'function' ? next(request) : next);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const api: OpenAiServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => queue.push(...replies),
    fallback: (request) => embeddings(request, options.dimensions),
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {
      // Hanging replies keep their sockets open; close() alone would wait for them forever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

function send(res: ServerResponse, reply: Reply): void {
  if ('hang' in reply) {
    if (reply.hang === 'body') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":');
    }
    return;
  }
  const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
  res.end(body);
}

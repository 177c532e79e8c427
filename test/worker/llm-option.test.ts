// The worker's `llm` option: plain data a page sends, checked on the page and again in the worker
// (an unknown key is INVALID_ARGUMENT), and made into openAiCompatibleLlm() in the worker, whose
// requests then reach the endpoint: here a local server, over a real thread with the default host.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLongshipInWorker } from '../../src/client/open-longship-in-worker.js';
import { bundledModel, bundledModelFiles } from '../../src/embed/bundled-model.js';
import { LongshipError } from '../../src/errors.js';
import { connectLongship, type RemoteLongship } from '../../src/worker/connect.js';
import type { WorkerOptions } from '../../src/worker/worker-options.js';
import { chatReply, type OpenAiServer, startOpenAiServer } from '../support/openai-server.js';
import { bundleThreadScript } from './thread-script.js';

const usearch = new URL('../../wasm/dist/usearch.wasm', import.meta.url).href;
// The thread is a bundle elsewhere: the model's default URL, relative to it, would miss.
const embedder = {
  transformers: {
    model: { ...bundledModel, directory: new URL('./', bundledModelFiles()['config.json'] as URL).href },
  },
};
const KEY = 'sk-test-worker-0123456789';
let folder: string;
let script: string;
let server: OpenAiServer;

beforeAll(async () => {
  // Inside the repository, so that the thread resolves transformers.js from its node_modules.
  const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
  await mkdir(cache, { recursive: true });
  folder = await mkdtemp(join(cache, 'longship-llm-option-'));
  script = join(folder, 'thread.mjs');
  await bundleThreadScript(new URL('./default-host-thread.ts', import.meta.url), script);
  server = await startOpenAiServer({ dimensions: 4 });
});

afterAll(async () => {
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

/** Runs `use` with a thread running the package's default host, and the page's end of its port. */
async function withThread<T>(use: (port: MessagePort) => Promise<T>): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  const thread = new Worker(script, { workerData: { port: port1 }, transferList: [port1 as never] });
  const crashed = new Promise<never>((_, reject) => thread.once('error', reject));
  try {
    return await Promise.race([use(port2), crashed]);
  } finally {
    await thread.terminate();
  }
}

async function failure(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    (opened) => (opened as RemoteLongship).close().then(() => new Error('it opened')),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

const endpoint = () => ({ baseUrl: server.baseUrl, model: 'test-chat', apiKey: KEY });

describe('the llm option of openLongshipInWorker', () => {
  it('is checked on the page before any worker starts', async () => {
    const port = new MessageChannel().port1;
    const open = (llm: unknown) => openLongshipInWorker({ worker: port, llm } as never);
    const cases: [unknown, RegExp][] = [
      [{ openAi: endpoint() }, /unknown option 'llm\.openAi'; llm takes openAiCompatible/],
      [
        { openAiCompatible: { ...endpoint(), temperature: 0 } },
        /unknown option 'llm\.openAiCompatible\.temperature'; llm\.openAiCompatible takes baseUrl, model, apiKey/,
      ],
      [
        { openAiCompatible: { ...endpoint(), fetch } },
        /'llm\.openAiCompatible\.fetch' cannot cross to the worker/,
      ],
      [
        { openAiCompatible: { baseUrl: server.baseUrl } },
        /'llm\.openAiCompatible\.model' must be a non-empty string/,
      ],
      [
        { openAiCompatible: { ...endpoint(), baseUrl: '/v1' } },
        /'llm\.openAiCompatible\.baseUrl' must be an absolute URL/,
      ],
      ['gpt-4o-mini', /option 'llm' must be \{ openAiCompatible: /],
    ];
    for (const [llm, message] of cases) {
      const error = await failure(open(llm));
      expect(error.code, String(llm)).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(message);
      expect(error.message).toMatch(/^openLongshipInWorker\(\): /);
    }
    expect(server.requests).toEqual([]);
  });

  it('is checked again in the worker, which says what its values must be', async () => {
    // Sent as a transport of one's own would send it: nothing on the page looks at it.
    const unknownKey = await withThread((port) =>
      failure(
        connectLongship(port, {
          usearch,
          embedder,
          llm: { openAiCompatible: { ...endpoint(), organization: 'acme' } },
        } as WorkerOptions),
      ),
    );
    expect(unknownKey.code).toBe('INVALID_ARGUMENT');
    expect(unknownKey.message).toMatch(/^the worker: unknown option 'llm\.openAiCompatible\.organization'/);
    // A value's type is openAiCompatibleLlm()'s to check, in the worker.
    const badValue = await withThread((port) =>
      failure(
        openLongshipInWorker({
          worker: port,
          usearch,
          embedder,
          llm: { openAiCompatible: { ...endpoint(), timeoutMs: 'soon' as never } },
        }),
      ),
    );
    expect(badValue.code).toBe('INVALID_ARGUMENT');
    expect(badValue.message).toMatch(/openAiCompatibleLlm\(\): option 'timeoutMs' must be number/);
  });

  it('becomes the worker’s LLM: a commit extracts memories through the endpoint', async () => {
    server.fallback = (request) => {
      const messages = typeof request.body === 'string' ? [] : (request.body.messages ?? []);
      if (!messages[0]?.content.startsWith('You keep the long-term memory'))
        return chatReply('{"queries": []}');
      return chatReply(
        JSON.stringify({
          summary: 'The user publishes scoped packages.',
          memories: [
            {
              category: 'preferences',
              name: 'Scoped packages',
              abstract: 'The user publishes scoped packages as public.',
              content: 'Publishes @acme/* packages with --access public.',
            },
          ],
        }),
      );
    };
    const memory = await withThread(async (port) => {
      const longship = await openLongshipInWorker({
        worker: port,
        usearch,
        embedder,
        store: { indexedDB: 'llm-option' },
        llm: { openAiCompatible: { ...endpoint(), retryBaseMs: 1 } },
      });
      try {
        const session = await longship.session('s1');
        await session.addMessage('user', 'I always publish my @acme packages with --access public.');
        const result = await session.commit();
        expect(result.extractions.map((e) => [e.state, e.error])).toEqual([['done', undefined]]);
        expect(result.extractions[0]!.memories).toEqual([
          'viking://user/default/memories/preferences/scoped-packages',
        ]);
        return await longship.read('viking://user/default/memories/preferences/scoped-packages');
      } finally {
        await longship.close();
      }
    });
    expect(memory).toContain('Publishes @acme/* packages with --access public.');
    const chats = server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.length).toBeGreaterThan(0);
    for (const request of chats) {
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.body).toMatchObject({ model: 'test-chat' });
    }
    expect(JSON.stringify(chats.at(-1)!.body)).toContain('--access public');
  });
});

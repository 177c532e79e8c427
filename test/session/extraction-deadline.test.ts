// Memory extraction against an LLM that never answers: one deadline for all of a commit's calls.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';
import { type OpenAiServer, startOpenAiServer } from '../support/openai-server.js';

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer({ dimensions: 4 });
  server.fallback = () => ({ hang: 'headers' });
});
afterAll(() => server.close());

it('a hung LLM fails the extractions with TIMEOUT at extractionTimeoutMs, and the archive stays', async () => {
  const embedder = bagOfWordsEmbedder();
  const longship = await openLongship({
    store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
    embedder,
    // Each call alone may take a minute, with retries: only the overall deadline can stop it.
    llm: openAiCompatibleLlm({
      baseUrl: server.baseUrl,
      model: 'chat',
      timeoutMs: 60_000,
      maxRetries: 3,
    }),
  });
  const session = longship.session('hung');
  await session.addMessage('user', 'I like green tea.');
  const started = performance.now();
  const first = await session.commit({ extractionTimeoutMs: 300 });
  await session.addMessage('user', 'And black coffee.');
  const second = await session.commit({ extractionTimeoutMs: 300 });
  expect(performance.now() - started).toBeLessThan(2000);
  expect(first.extractions).toMatchObject([
    { state: 'failed', error: 'TIMEOUT: memory extraction took longer than its 300 ms deadline' },
  ]);
  // The retry of the first archive and the new one share the second commit's deadline.
  expect(second.extractions.map((e) => [e.state, e.error?.slice(0, 8)])).toEqual([
    ['failed', 'TIMEOUT:'],
    ['failed', 'TIMEOUT:'],
  ]);
  expect((await longship.ls(session.uri)).length).toBe(2);
  expect((await longship.verify()).problems).toEqual([]);
  await longship.close();
});

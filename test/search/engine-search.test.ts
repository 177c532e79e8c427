import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { remoteReranker } from '../../src/llm/remote-reranker.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder, urisOf } from '../retrieve/fixture.js';
import { type OpenAiServer, rerankReply, startOpenAiServer } from '../support/openai-server.js';

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer({ dimensions: 4 });
});
afterAll(() => server.close());

it('Longship.search() uses the reranker it was opened with, and works offline without one', async () => {
  const embedder = bagOfWordsEmbedder();
  const store = () => openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
  const write = async (longship: Awaited<ReturnType<typeof openLongship>>) => {
    await longship.write('viking://resources/a.md', 'Bread needs flour, water and salt.');
    await longship.write('viking://resources/b.md', 'Bread rises with yeast and time.');
  };
  const offline = await openLongship({ store: await store(), embedder });
  await write(offline);
  const plain = await offline.search('bread yeast', { limit: 2 });
  expect(plain.rerank).toBeUndefined();
  expect(plain.intent.source).toBe('fallback');
  await offline.close();

  // The reranker prefers a.md whatever the query: calibrated away, so retrieval's order stands…
  server.fallback = (request) => {
    const documents = (request.body as { documents: string[] }).documents;
    return rerankReply(documents.map((d) => (d.includes('Bread needs') ? 0.9 : 0.1)));
  };
  const reranker = remoteReranker({ baseUrl: server.baseUrl, model: 'rr' });
  const longship = await openLongship({ store: await store(), embedder, reranker });
  await write(longship);
  const calibrated = await longship.search('bread yeast', { limit: 2 });
  expect(calibrated.rerank).toMatchObject({ applied: true, model: 'rr' });
  expect(urisOf(calibrated)).toEqual(urisOf(plain));
  // …and trusted without the calibration, it reorders.
  const trusted = await longship.search('bread yeast', { limit: 2, rerank: { calibrate: false, weight: 1 } });
  expect(urisOf(trusted)[0]).toBe('viking://resources/a.md');
  expect(urisOf(plain)[0]).toBe('viking://resources/b.md');
  await longship.close();
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { llmSummarizer } from '../../src/ingest/summary/llm-summarizer.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';
import { chatReply, type OpenAiServer, promptData, startOpenAiServer } from '../support/openai-server.js';

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer({ dimensions: 4 });
});
afterAll(() => server.close());

async function open() {
  const embedder = bagOfWordsEmbedder();
  const llm = openAiCompatibleLlm({
    baseUrl: server.baseUrl,
    model: 'chat',
    retryBaseMs: 1,
    maxRetries: 0,
  });
  return openLongship({
    store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
    embedder,
    llm,
    summarizer: llmSummarizer(llm),
  });
}

describe('llmSummarizer', () => {
  it('writes the LLM’s L0 and L1, marked llm, from the node’s content sent as data', async () => {
    const longship = await open();
    server.script(
      chatReply('```json\n{"l0": "How the client retries.", "l1": "Backoff, limits and jitter."}\n```'),
    );
    const seen = server.nextRequest();
    await longship.write('viking://resources/retries.md', 'Retries back off exponentially, with jitter.');
    expect(promptData(await seen)).toMatchObject({
      title: 'retries.md',
      text: 'Retries back off exponentially, with jitter.',
    });
    expect(await longship.abstract('viking://resources/retries.md')).toBe('How the client retries.');
    expect(await longship.overview('viking://resources/retries.md')).toBe('Backoff, limits and jitter.');
    expect((await longship.stat('viking://resources/retries.md')).summaryKind).toBe('llm');
    await longship.close();
  });

  it('fails the write with a typed error on a bad answer, and writes nothing', async () => {
    const longship = await open();
    server.script(chatReply('no idea'));
    const error = await longship.write('viking://resources/x.md', 'Some text.').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('LLM_OUTPUT');
    await expect(longship.stat('viking://resources/x.md')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('cuts an L0 longer than the limit', async () => {
    const longship = await open();
    server.script(chatReply(JSON.stringify({ l0: 'word '.repeat(200), l1: '' })));
    await longship.write('viking://resources/long.md', 'Text.');
    expect((await longship.abstract('viking://resources/long.md')).length).toBeLessThanOrEqual(256);
    await longship.close();
  });
});

// write() takes the same size limit and binary check as addResource().
import { expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

it('write() refuses more than maxBytes (default 10 MB) and binary content, writing nothing', async () => {
  const embedder = bagOfWordsEmbedder();
  const longship = await openLongship({
    store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
    embedder,
  });
  const R = 'viking://resources';
  const started = performance.now();
  await expect(longship.write(`${R}/big.md`, 'x'.repeat(11 * 1024 * 1024))).rejects.toMatchObject({
    code: 'INPUT_TOO_LARGE',
  });
  expect(performance.now() - started).toBeLessThan(1000);
  await expect(longship.write(`${R}/small.md`, 'hello world', { maxBytes: 5 })).rejects.toMatchObject({
    code: 'INPUT_TOO_LARGE',
  });
  await expect(longship.write(`${R}/nul.md`, 'text\0more')).rejects.toMatchObject({ code: 'BINARY_INPUT' });
  await expect(longship.write(`${R}/ctl.md`, '\x01\x02\x03\x04'.repeat(100))).rejects.toMatchObject({
    code: 'BINARY_INPUT',
  });
  expect(await longship.ls(R)).toEqual([]);
  await longship.write(`${R}/ok.md`, 'Tabs\tand\nnew lines are text.', { maxBytes: 100 });
  expect((await longship.ls(R)).map((n) => n.name)).toEqual(['ok.md']);
  await longship.close();
});

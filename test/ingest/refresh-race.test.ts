// A directory's summary is computed from what it held, then committed: a directory removed in
// between stays removed, and a job that wrote nothing leaves its parents alone.
import { describe, expect, it } from 'vitest';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openLongship } from '../../src/engine.js';
import { DIMENSIONS, hashedWords } from '../context/hash-embedder.js';

/** The hashing embedder, holding its calls back while `gate` is set. */
function gatedEmbedder() {
  const state: { gate?: Promise<void>; held: number } = { held: 0 };
  const embedder = functionEmbedder({
    id: 'test/hashed-words',
    dimensions: DIMENSIONS,
    embed: async (texts) => {
      if (state.gate) {
        state.held++;
        await state.gate;
      }
      return texts.map(hashedWords);
    },
  });
  return { embedder, state };
}

describe("the parents' refresh", () => {
  it('does not bring back a directory removed while its summary was embedded', async () => {
    const { embedder, state } = gatedEmbedder();
    const longship = await openLongship({ embedder });
    let release!: () => void;
    const job = longship.addResource('river banks and water', {
      name: 'r.md',
      target: 'viking://resources/a/b',
      // Once the document is written, the next embedding is the directories' summaries.
      onProgress: ({ phase, done, total }) => {
        if (phase === 'write' && done === total && total > 0 && !state.gate)
          state.gate = new Promise<void>((resolve) => {
            release = resolve;
          });
      },
    });
    await expect.poll(() => state.held).toBe(1);
    await longship.rm('viking://resources/a', { recursive: true });
    release();
    state.gate = undefined;
    await job;
    await longship.waitProcessed();
    expect(await longship.glob('**', { uri: 'viking://resources' })).toEqual([]);
    expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    await longship.close();
  });

  it('leaves the parents of a refused job alone, so a later rm stays done', async () => {
    const { embedder, state } = gatedEmbedder();
    const longship = await openLongship({ embedder });
    const session = longship.session('s1');
    await session.addMessage('user', 'river');
    await session.commit();
    // Any refresh from here on waits, until after the rm below.
    let release!: () => void;
    state.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await expect(
      longship.addResource('river', { name: 'x.md', target: 'viking://user/default/sessions/s1' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await longship.rm('viking://user/default/sessions', { recursive: true });
    release();
    await longship.waitProcessed();
    expect(state.held).toBe(0);
    expect(await longship.glob('**', { uri: 'viking://agent/default/memories' })).toEqual([]);
    await longship.close();
  });
});

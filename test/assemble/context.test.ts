// longship.context() in process: real retrieval (BM25 and USearch) over a real in-memory store,
// real token counts (o200k_base), the budget never passed, layers chosen to fit, left-out reasons,
// and what a session was already given.
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssembledContext } from '../../src/assemble/context-options.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

const retries = [
  '# Retries',
  '',
  'Uploads retry with exponential backoff: the first retry waits 200 ms, each next one twice as long.',
  'After five retries the upload fails with ERR_UPLOAD_RETRIES and the partial file is removed.',
  '',
  '## Jitter',
  '',
  'Each backoff delay gets up to 20 percent random jitter so that clients do not retry in lockstep.',
  ...Array.from({ length: 30 }, (_, i) => `Retry note ${i}: the backoff policy applies to upload part ${i}.`),
].join('\n');

async function openWithNotes(): Promise<Longship> {
  const embedder = bagOfWordsEmbedder();
  const longship = await openLongship({
    store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
    embedder,
  });
  await longship.write('viking://resources/docs/retries.md', retries, { parents: true });
  await longship.write(
    'viking://resources/docs/timeouts.md',
    'Upload timeouts: a request with no response in 30 seconds is retried with backoff.',
    { parents: true },
  );
  await longship.write(
    'viking://user/default/memories/preferences/backoff.md',
    'The user prefers short retry backoff for uploads on mobile.',
    { parents: true },
  );
  await longship.write(
    'viking://agent/skills/retry-upload.md',
    'Skill: retry an upload with backoff. Steps: wait, retry, give up after five retries.',
    { parents: true },
  );
  return longship;
}

const query = 'upload retry backoff';
let longship: Longship;
beforeEach(async () => {
  longship = await openWithNotes();
});
afterEach(() => longship.close());

function expectFits(result: AssembledContext, budget: number) {
  expect(result.tokens).toBe(
    result.text === '' ? 0 : o200kCount(result.text, { disallowedSpecial: new Set() }),
  );
  expect(result.tokens).toBeLessThanOrEqual(budget);
}

describe('context()', () => {
  it('returns a block of the best hits with their URIs, at L2 where the budget allows', async () => {
    const result = await longship.context(query, { budget: { tokens: 4000 } });
    expectFits(result, 4000);
    expect(result.tokenizer).toBe('o200k_base');
    expect(result.parts.map((p) => p.uri).sort()).toEqual([
      'viking://agent/skills/retry-upload.md',
      'viking://resources/docs/retries.md',
      'viking://resources/docs/timeouts.md',
      'viking://user/default/memories/preferences/backoff.md',
    ]);
    for (const part of result.parts) {
      expect(part.layer).toBe('L2');
      expect(result.text).toContain(`uri="${part.uri}" layer="L2"`);
      expect(result.text).toContain(part.text);
    }
    expect(result.text).toContain('ERR_UPLOAD_RETRIES');
    // Shown by type (memories, resources, skills), and the same call renders the same block.
    expect(result.parts.map((p) => p.type)).toEqual(['memory', 'resource', 'resource', 'skill']);
    expect(result.text.startsWith('<context>\n<memory uri="viking://user/default/memories/')).toBe(true);
    expect((await longship.context(query, { budget: { tokens: 4000 } })).text).toBe(result.text);
    // Directories are hits too: at L1, a directory has no L2.
    for (const left of result.leftOut) expect(left.reason).toBe('budget');
  });

  it('never passes the budget, showing a long file in excerpt, then L1 or L0, before leaving it out', async () => {
    const full = await longship.context(query, { budget: { tokens: 4000 } });
    const long = full.parts.find((p) => p.uri.endsWith('retries.md'))!;
    const forms = new Set<string>();
    const budgets = [1, 5, 20, 40, 60, 80, 120, 160, 200, 300, long.tokens - 1, long.tokens + 200];
    for (const maxLayer of ['L2', 'L1'] as const) {
      for (const budget of budgets) {
        const result = await longship.context(query, { budget: { tokens: budget }, maxLayer });
        expectFits(result, budget);
        const part = result.parts.find((p) => p.uri === long.uri);
        if (part) forms.add(part.excerpt ? 'excerpt' : part.layer);
        else expect(result.leftOut.find((l) => l.uri === long.uri)?.reason).toBe('budget');
        for (const left of result.leftOut.filter((l) => l.reason === 'budget')) {
          expect(left.tokens).toBeGreaterThan(0);
        }
      }
    }
    expect([...forms].sort()).toEqual(['L0', 'L1', 'L2', 'excerpt']);
    const tiny = await longship.context(query, { budget: { tokens: 5 } });
    expect(tiny).toMatchObject({ text: '', tokens: 0, parts: [] });
    expect(tiny.leftOut.length).toBeGreaterThan(0);
  });

  it("an excerpt holds the file's passages that bear on the query, in order, marked as such", async () => {
    const whole = await longship.read('viking://resources/docs/retries.md');
    const result = await longship.context('ERR_UPLOAD_RETRIES jitter lockstep', {
      budget: { tokens: 200 },
      targetUri: 'viking://resources/docs/retries.md',
    });
    const [part] = result.parts;
    expect(part).toMatchObject({ layer: 'L2', excerpt: true });
    expect(result.text).toContain('layer="L2" excerpt="true"');
    expect(part!.text).toContain('ERR_UPLOAD_RETRIES');
    expect(part!.text).toContain('lockstep');
    const passages = part!.text.split('\n\n').filter((p) => p !== '…');
    let at = -1;
    for (const passage of passages) {
      const found = whole.indexOf(passage);
      expect(found).toBeGreaterThan(at);
      at = found;
    }
    expect(part!.text).toContain('…');
    expect(part!.text.length).toBeLessThan(whole.length / 2);
  });

  it('keeps to maxLayer, per-type quotas, and the candidates asked for', async () => {
    const abstracts = await longship.context(query, { budget: { tokens: 4000 }, maxLayer: 'L0' });
    expect(abstracts.parts.every((p) => p.layer === 'L0')).toBe(true);
    const quota = await longship.context(query, {
      budget: { tokens: 4000 },
      quotas: { resources: 1, skills: 0 },
    });
    expect(quota.parts.filter((p) => p.type === 'resource')).toHaveLength(1);
    expect(quota.parts.filter((p) => p.type === 'skill')).toHaveLength(0);
    expect(quota.leftOut.filter((l) => l.reason === 'quota').map((l) => l.type)).toContain('skill');
    const two = await longship.context(query, { budget: { tokens: 4000 }, candidates: 2 });
    expect(two.parts.length + two.leftOut.length).toBe(2);
    const scoped = await longship.context(query, {
      budget: { tokens: 4000 },
      targetUri: 'viking://resources',
    });
    expect(scoped.parts.every((p) => p.type === 'resource')).toBe(true);
  });

  it('leaves out a second node with the same text as a duplicate', async () => {
    await longship.write(
      'viking://resources/copy/timeouts.md',
      await longship.read('viking://resources/docs/timeouts.md'),
      {
        parents: true,
      },
    );
    const result = await longship.context(query, { budget: { tokens: 4000 }, filter: { kind: 'file' } });
    const duplicate = result.leftOut.find((l) => l.reason === 'duplicate');
    expect(duplicate?.uri.endsWith('timeouts.md')).toBe(true);
    expect([duplicate?.uri, duplicate?.detail].sort()).toEqual([
      'viking://resources/copy/timeouts.md',
      'viking://resources/docs/timeouts.md',
    ]);
  });

  it("leaves out what the session's earlier turns got, unless it changed or a richer layer now fits", async () => {
    const first = await longship.context(query, { budget: { tokens: 4000 }, session: 'chat-1' });
    expect(first.parts.length).toBeGreaterThan(0);
    const again = await longship.context(query, { budget: { tokens: 4000 }, session: 'chat-1' });
    expect(again.parts).toEqual([]);
    expect(again.text).toBe('');
    expect(
      again.leftOut
        .filter((l) => l.reason === 'delivered')
        .map((l) => l.uri)
        .sort(),
    ).toEqual(first.parts.map((p) => p.uri).sort());
    // Another session, and a call without one, are not affected.
    expect(
      (await longship.context(query, { budget: { tokens: 4000 }, session: 'chat-2' })).parts,
    ).toHaveLength(first.parts.length);
    expect((await longship.context(query, { budget: { tokens: 4000 } })).parts).toHaveLength(
      first.parts.length,
    );
    // A node that changed is delivered again.
    await longship.write(
      'viking://resources/docs/timeouts.md',
      'Upload timeouts are now 60 seconds before a retry with backoff.',
    );
    const changed = await longship.context(query, { budget: { tokens: 4000 }, session: 'chat-1' });
    expect(changed.parts.map((p) => p.uri)).toEqual(['viking://resources/docs/timeouts.md']);
    expect(changed.text).toContain('60 seconds');
  });

  it('leaves out a node that changed since it was given, and does not fit now, for the budget', async () => {
    const ask = (tokens: number) =>
      longship.context('upload timeouts', {
        budget: { tokens },
        targetUri: 'viking://resources/docs/timeouts.md',
        session: 'chat-5',
      });
    expect((await ask(400)).parts).toHaveLength(1);
    await longship.write('viking://resources/docs/timeouts.md', 'Upload timeouts are now 60 seconds.');
    // Found by the model test: it was reported `delivered`, with the old layer, as if the agent had it.
    expect((await ask(1)).leftOut).toMatchObject([
      { uri: 'viking://resources/docs/timeouts.md', reason: 'budget' },
    ]);
  });

  it('sends a node again at a richer layer than an earlier turn could afford, not at the same one', async () => {
    const session = longship.session('chat-3');
    const small = await longship.context(query, { budget: { tokens: 400 }, session, maxLayer: 'L0' });
    expect(small.parts.every((p) => p.layer === 'L0')).toBe(true);
    const same = await longship.context(query, { budget: { tokens: 400 }, session, maxLayer: 'L0' });
    expect(same.parts).toEqual([]);
    expect(same.leftOut.every((l) => l.reason !== 'delivered' || l.detail === 'L0')).toBe(true);
    const richer = await longship.context(query, { budget: { tokens: 4000 }, session });
    expect(richer.parts.length).toBeGreaterThan(0);
    expect(richer.parts.every((p) => p.layer !== 'L0')).toBe(true);
  });

  it('after an excerpt, sends the file again only whole', async () => {
    const ask = (tokens: number) =>
      longship.context('ERR_UPLOAD_RETRIES jitter lockstep', {
        budget: { tokens },
        targetUri: 'viking://resources/docs/retries.md',
        session: 'chat-4',
      });
    expect((await ask(200)).parts[0]).toMatchObject({ excerpt: true });
    const again = await ask(200);
    expect(again.parts).toEqual([]);
    expect(again.leftOut).toMatchObject([{ reason: 'delivered', detail: 'L2 excerpt' }]);
    const whole = await ask(4000);
    expect(whole.parts).toHaveLength(1);
    expect(whole.parts[0]!.excerpt).toBeUndefined();
    expect(whole.parts[0]!.text).toBe(await longship.read('viking://resources/docs/retries.md'));
  });

  it('counts with the tokenizer it is given, synchronous or not', async () => {
    const words = { name: 'words', count: (text: string) => text.split(/\s+/).filter(Boolean).length };
    const result = await longship.context(query, { budget: { tokens: 100 }, tokenizer: words });
    expect(result.tokenizer).toBe('words');
    expect(result.tokens).toBe(words.count(result.text));
    expect(result.tokens).toBeLessThanOrEqual(100);
    const later = { count: async (text: string) => words.count(text) };
    const same = await longship.context(query, { budget: { tokens: 100 }, tokenizer: later });
    expect(same.text).toBe(result.text);
    expect(same.tokenizer).toBe('custom');
    const broken = await longship
      .context(query, { budget: { tokens: 100 }, tokenizer: { name: 'nan', count: () => Number.NaN } })
      .catch((e: unknown) => e);
    expect(broken).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('nan') });
  });
});

describe('context() refuses bad input, and does nothing then', () => {
  const bad: [string, unknown][] = [
    ['a budget of 0', { budget: { tokens: 0 } }],
    ['a NaN budget', { budget: { tokens: Number.NaN } }],
    ['a negative budget', { budget: { tokens: -100 } }],
    ['a fractional budget', { budget: { tokens: 10.5 } }],
    ['an infinite budget', { budget: { tokens: Number.POSITIVE_INFINITY } }],
    ['no budget', {}],
    ['no options', undefined],
    ['a budget as a string', { budget: '1000' }],
    ['an unknown option', { budget: { tokens: 100 }, maxTokens: 100 }],
    ['an unknown budget key', { budget: { tokens: 100, chars: 10 } }],
    ['a bad quota', { budget: { tokens: 100 }, quotas: { resources: -1 } }],
    ['an unknown quota', { budget: { tokens: 100 }, quotas: { documents: 1 } }],
    ['an empty session id', { budget: { tokens: 100 }, session: '' }],
    ['a bad layer', { budget: { tokens: 100 }, maxLayer: 'L3' }],
    ['a tokenizer without count', { budget: { tokens: 100 }, tokenizer: { name: 'x' } }],
    ['a digest without an LLM', { budget: { tokens: 100 }, digest: true }],
  ];
  it.each(bad)('%s is INVALID_ARGUMENT, and the session is not marked', async (_, options) => {
    const error = await longship.context(query, options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
    expect((error as LongshipError).message).toMatch(/^context\(\)/);
    const withSession = { session: 'bad-input', ...(options as object) };
    await longship.context(query, withSession as never).catch(() => undefined);
    const after = await longship.context(query, { budget: { tokens: 4000 }, session: 'bad-input' });
    expect(after.leftOut.filter((l) => l.reason === 'delivered')).toEqual([]);
  });

  it('names the option at fault', async () => {
    await expect(longship.context(query, { budget: { tokens: 0 } })).rejects.toThrow(/budget\.tokens/);
    await expect(longship.context(query, { budget: { tokens: 10 }, maxTokens: 1 } as never)).rejects.toThrow(
      /unknown option 'maxTokens'/,
    );
    await expect(longship.context(42 as never, { budget: { tokens: 10 } })).rejects.toThrow(/query string/);
  });

  it('stops with ABORTED when its signal fires', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await longship
      .context(query, { budget: { tokens: 100 }, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ABORTED' });
  });

  it('stops with ABORTED when its signal fires while a tokenizer never answers', async () => {
    const controller = new AbortController();
    const never = {
      name: 'never',
      count: () => {
        // Fired once the count is under way, as a caller's timeout would.
        setTimeout(() => controller.abort(), 0);
        return new Promise<number>(() => undefined);
      },
    };
    const error = await longship
      .context(query, { budget: { tokens: 100 }, tokenizer: never, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ABORTED', message: 'context() was aborted' });
  });

  it('counts no more once its signal fired during a synchronous count', async () => {
    const controller = new AbortController();
    let counts = 0;
    let afterAbort = 0;
    const slow = {
      name: 'slow',
      count: (text: string) => {
        if (controller.signal.aborted) afterAbort++;
        if (++counts === 3) controller.abort();
        return text.length;
      },
    };
    const error = await longship
      .context(query, { budget: { tokens: 4000 }, tokenizer: slow, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ABORTED' });
    expect(counts).toBe(3);
    expect(afterAbort).toBe(0);
  });
});

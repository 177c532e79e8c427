// Deeply nested JSON (issue 24, item 8): a typed refusal for that file, never a RangeError, and in a
// folder the other files are ingested and the job names the skipped one and why.
import { describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { MAX_JSON_DEPTH, parseJson } from '../../src/ingest/parse/parse-json.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/fixtures.js';

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

function codeOfSync(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof LongshipError) return error.code;
    throw error;
  }
  return 'none';
}

describe('parseJson depth', () => {
  it('refuses nesting past the limit with UNSUPPORTED_INPUT, in linear time', () => {
    for (const n of [MAX_JSON_DEPTH + 1, 5000, 200_000])
      expect(codeOfSync(() => parseJson(deep(n)))).toBe('UNSUPPORTED_INPUT');
    const objects = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    expect(codeOfSync(() => parseJson(objects))).toBe('UNSUPPORTED_INPUT');
    const started = performance.now();
    codeOfSync(() => parseJson(deep(1_000_000)));
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reads nesting up to the limit, and brackets inside strings do not count', () => {
    expect(parseJson(deep(MAX_JSON_DEPTH)).sections).toHaveLength(1);
    const quoted = JSON.stringify({ text: deep(5000), escaped: '\\"[[[' });
    expect(parseJson(quoted).sections.map((s) => s.heading)).toEqual(['text', 'escaped']);
  });
});

describe('ingesting deep JSON', () => {
  it('skips the file in a folder, ingests the rest, and names it in the result', async () => {
    const longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
    const result = await longship.addResource([
      { path: 'repo/deep.json', content: deep(5000) },
      { path: 'repo/notes.md', content: '# Notes\n\nThe river floods every spring.' },
      { path: 'repo/ok.json', content: '{"name": "ok", "list": [[1, 2], [3]]}' },
    ]);
    expect(result.skipped.map((s) => [s.path, s.error.code])).toEqual([
      ['repo/deep.json', 'UNSUPPORTED_INPUT'],
    ]);
    expect(result.skipped[0]!.error).toBeInstanceOf(LongshipError);
    expect((await longship.ls('viking://resources/repo')).map((e) => e.uri).sort()).toEqual([
      'viking://resources/repo/notes.md',
      'viking://resources/repo/ok.json',
    ]);
    expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    await longship.close();
  });

  it('refuses a lone deep file with a typed error, nothing written', async () => {
    const longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
    const error = await longship.addResource(deep(5000), { name: 'deep.json' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('UNSUPPORTED_INPUT');
    expect(await longship.ls('viking://resources')).toEqual([]);
    await longship.close();
  });
});

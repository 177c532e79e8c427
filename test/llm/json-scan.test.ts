// The linear JSON scan against the simple quadratic reference it replaced, and against answers built
// to make that reference (or a naive scan) take seconds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { extractJson, maxAnswerLength, parseOutput } from '../../src/llm/json-output.js';
import { firstJsonSpan } from '../../src/llm/json-scan.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import { intentPrompt } from '../../src/llm/prompts.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';
import { chatReply, startOpenAiServer } from '../support/openai-server.js';

/** The reference: try every bracket, match it naively, keep the first slice JSON.parse accepts. */
function reference(text: string): unknown {
  for (let start = 0; start < text.length; start++) {
    if (text[start] !== '{' && text[start] !== '[') continue;
    const stack: string[] = [];
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') stack.push('}');
      else if (c === '[') stack.push(']');
      else if (c === '}' || c === ']') {
        if (stack.pop() !== c) break;
        if (stack.length === 0) {
          try {
            return JSON.parse(text.slice(start, i + 1));
          } catch {
            break;
          }
        }
      }
    }
  }
  return undefined;
}

const scanned = (text: string) => {
  const span = firstJsonSpan(text);
  return span ? JSON.parse(text.slice(span.start, span.end + 1)) : undefined;
};

describe('firstJsonSpan', () => {
  it('finds what the reference finds, on random small texts', () => {
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      ':',
      ',',
      ' ',
      '\n',
      '1',
      '0',
      '-',
      '.',
      'e',
      '+',
      'a',
      'u',
    ];
    const words = [
      'true',
      'null',
      'false',
      '"k"',
      '\\"',
      '\\u00e9',
      '1.5e3',
      '{"a":1}',
      '[1,2]',
      'tru',
      '01',
    ];
    const text = fc
      .array(fc.oneof(fc.constantFrom(...pieces), fc.constantFrom(...words)), { maxLength: 40 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(scanned(t)).toEqual(reference(t));
      }),
      { numRuns: 20_000, seed: 24 },
    );
  });

  it('finds what the reference finds, on JSON values mutated and wrapped in prose', () => {
    const text = fc
      .tuple(fc.string({ maxLength: 8 }), fc.json({ maxDepth: 3 }), fc.nat(60), fc.string({ maxLength: 3 }))
      .map(([before, json, at, insert]) => `${before}${json.slice(0, at)}${insert}${json.slice(at)}`);
    fc.assert(
      fc.property(text, (t) => {
        expect(scanned(t)).toEqual(reference(t));
      }),
      { numRuns: 10_000, seed: 24 },
    );
  });

  it('is linear: megabytes of `{`, of nested brackets and of quotes take milliseconds', () => {
    for (const size of [1 << 20, 5 << 20]) {
      for (const text of [
        '{'.repeat(size),
        '['.repeat(size / 2) + ']'.repeat(size / 2 - 1),
        '{"a":'.repeat(size / 5),
        '"{'.repeat(size / 2),
        '[1,'.repeat(size / 3),
      ]) {
        const started = performance.now();
        firstJsonSpan(text);
        expect(performance.now() - started).toBeLessThan(size > 1 << 20 ? 2500 : 500);
      }
    }
  });
});

describe('parseOutput on huge answers', () => {
  it('reads at most maxAnswerLength characters and says so, typed', () => {
    for (const text of [
      '{'.repeat(1 << 20),
      `${'['.repeat(maxAnswerLength)}${']'.repeat(maxAnswerLength)}`,
    ]) {
      const started = performance.now();
      let error: unknown;
      try {
        parseOutput(intentPrompt.schema, text, 'intent v1');
      } catch (e) {
        error = e;
      }
      expect(performance.now() - started).toBeLessThan(100);
      expect(error).toBeInstanceOf(LongshipError);
      expect((error as LongshipError).code).toBe('LLM_OUTPUT');
      expect((error as LongshipError).message).toMatch(/more than the 262144 read/);
    }
  });

  it('answers within the limit that hide their JSON at the end are still read, quickly', () => {
    const text = `${'{'.repeat(maxAnswerLength - 20)}{"queries":[]}`;
    const started = performance.now();
    expect(extractJson(text)).toEqual({ queries: [] });
    expect(performance.now() - started).toBeLessThan(300);
  });
});

describe('search() against a server answering megabytes of brackets', () => {
  it('keeps intent.timeoutMs: a fallback plan, typed, within the deadline', async () => {
    const server = await startOpenAiServer({ dimensions: 4 });
    const embedder = bagOfWordsEmbedder();
    const longship = await openLongship({
      store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
      embedder,
      llm: openAiCompatibleLlm({ baseUrl: server.baseUrl, model: 'chat', maxRetries: 0 }),
    });
    await longship.write('viking://resources/bread.md', 'Bread needs flour, water and salt.');
    try {
      for (const size of [1 << 20, 5 << 20]) {
        for (const answer of ['{'.repeat(size), '['.repeat(size / 2) + ']'.repeat(size / 2 - 1)]) {
          server.script(chatReply(answer));
          const started = performance.now();
          const result = await longship.search('bread', { intent: { timeoutMs: 1000 }, rerank: false });
          expect(performance.now() - started).toBeLessThan(1000);
          expect(result.intent.source).toBe('fallback');
          expect(result.intent.fallbackReason).toMatch(/^LLM_OUTPUT: .* more than the 262144 read/);
          expect(result.resources.length).toBe(1);
        }
      }
    } finally {
      await longship.close();
      await server.close();
    }
  });
});

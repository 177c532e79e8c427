// Bad input to the AI SDK tools: the model's input is refused by the SDK's validation before a tool
// runs (nothing written), with Longship's INVALID_ARGUMENT naming the field as the cause; a call
// that passes the schema and fails in Longship is a tool error carrying its code; bad options to
// longshipTools() are INVALID_ARGUMENT.
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { longshipToolNames, longshipTools } from '../../src/ai/tools.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import { scriptedModel } from './scripted-model.js';

let longship: Longship;

beforeEach(async () => {
  longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
});
afterEach(() => longship.close());

/** Each bad input, and the words that must name what is wrong. */
const bad: [string, unknown, RegExp][] = [
  ['add_memory', { content: '' }, /content must not be empty/],
  ['add_memory', { content: '   ' }, /content must not be empty/],
  ['add_memory', { content: 'long '.repeat(801) }, /content must be at most 4000 characters/],
  ['add_memory', { content: 'Likes tea.', category: 'secrets' }, /category must be one of preferences/],
  ['add_memory', { content: 'Likes tea.', uri: 'viking://resources/x' }, /uri is not a field/],
  ['add_memory', { text: 'Likes tea.' }, /content is required; text is not a field/],
  ['add_memory', {}, /content is required/],
  ['find', { query: 'tea', limit: 0 }, /limit must be at least 1, not 0/],
  ['find', { query: 'tea', limit: 2.5 }, /limit must be a whole number, not 2\.5/],
  ['find', { query: 'tea', limit: 101 }, /limit must be at most 100, not 101/],
  ['context', { query: 'tea', tokens: 0 }, /tokens must be at least 1/],
  ['context', { query: 'tea', tokens: 1_000_001 }, /tokens must be at most 1000000/],
  ['context', { query: 'tea', tokens: 1000.5 }, /tokens must be a whole number/],
  ['context', { query: '' }, /query must not be empty/],
  ['context', { query: 'tea', session: 's' }, /session is not a field/],
  ['read', { uri: 'viking://resources/x', layer: 'L3' }, /layer must be L0, L1 or L2/],
  ['ls', { uri: 42 }, /uri must be a string/],
];

/** What generateText records of a refused input: the SDK's error, or its message. */
const said = (error: unknown) => (error instanceof Error ? error.message : String(error));

describe('the AI SDK refuses bad tool input', () => {
  it.each(bad)(
    '%s %j: a tool error naming the field, nothing run, nothing written',
    async (toolName, input, words) => {
      const before = await longship.store.meta();
      const model = scriptedModel([{ calls: [{ toolName, input }] }, { text: 'sorry' }]);
      const result = await generateText({
        model,
        tools: longshipTools(longship),
        prompt: 'Remember this.',
        stopWhen: stepCountIs(2),
      });
      const [step] = result.steps;
      expect(step!.toolResults).toEqual([]);
      const errors = step!.content.filter((part) => part.type === 'tool-error');
      expect(errors).toHaveLength(1);
      // The SDK's validation failed with the LongshipError the tool's schema gave; the model reads its words.
      const refusal = said((errors[0] as { error: unknown }).error);
      expect(refusal).toMatch(new RegExp(`LongshipError: ${toolName}: `));
      expect(refusal).toMatch(words);
      expect((await longship.store.meta()).seq).toBe(before.seq);
      expect(await longship.ls('viking://user/default/memories')).toEqual([]);
      expect(await longship.ls('viking://agent/default/memories')).toEqual([]);
    },
  );

  it.each([
    ['read', { uri: 'viking://resources/missing.md' }, 'NOT_FOUND'],
    ['ls', { uri: 'resources' }, 'INVALID_URI'],
    ['find', { query: 'tea', targetUri: '/etc' }, 'INVALID_URI'],
  ])(
    '%s %j: a Longship error reaches the model as a tool error with its code',
    async (toolName, input, code) => {
      const model = scriptedModel([{ calls: [{ toolName, input }] }, { text: 'not found' }]);
      const result = await generateText({
        model,
        tools: longshipTools(longship),
        prompt: 'Read it.',
        stopWhen: stepCountIs(2),
      });
      const errors = result.steps[0]!.content.filter((part) => part.type === 'tool-error');
      expect(errors).toHaveLength(1);
      expect((errors[0] as { error: unknown }).error).toMatchObject({ code });
    },
  );
});

describe('longshipTools() options', () => {
  it('offers the reading tools and add_memory by default, and any tool asked for', () => {
    expect(Object.keys(longshipTools(longship))).toEqual(['find', 'context', 'read', 'ls', 'add_memory']);
    expect(Object.keys(longshipTools(longship, { tools: ['find', 'read'] }))).toEqual(['find', 'read']);
    expect(Object.keys(longshipTools(longship, { tools: longshipToolNames }))).toEqual([
      ...longshipToolNames,
    ]);
  });

  it.each([
    [{ tool: ['find'] }, /unknown option 'tool'; the options are tools, maxChars, session/],
    [{ tools: ['find', 'delete'] }, /option 'tools\.1' must be one of find, search, context, read, ls, tree/],
    [{ session: '' }, /option 'session' must be a non-empty session id/],
    [{ maxChars: 10 }, /option 'maxChars' must be ≥ 100/],
    ['all', /options must be an object/],
  ])('%j is INVALID_ARGUMENT', (options, message) => {
    const call = () => longshipTools(longship, options as never);
    expect(call).toThrow(LongshipError);
    expect(call).toThrow(message);
  });
});

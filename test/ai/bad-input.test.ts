// Bad input to the AI SDK tools: the model's input is refused by the SDK's validation before a tool
// runs (nothing written), and bad options to longshipTools() are INVALID_ARGUMENT.
import { generateText, stepCountIs } from 'ai';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addMemoryInput,
  contextInput,
  findInput,
  inputJson,
  lsInput,
  readInput,
} from '../../src/ai/tool-inputs.js';
import { longshipToolNames, longshipTools } from '../../src/ai/tools.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { openMemoryStore } from '../../src/store/memory-store.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import { scriptedModel } from './scripted-model.js';

let longship: Longship;

beforeEach(async () => {
  longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
});
afterEach(() => longship.close());

const bad: [string, unknown][] = [
  ['add_memory', { text: '' }],
  ['add_memory', { text: '   ' }],
  ['add_memory', { text: 'x'.repeat(4001) }],
  ['add_memory', { text: 'Likes tea.', category: 'secrets' }],
  ['add_memory', { text: 'Likes tea.', uri: 'viking://resources/x' }],
  ['add_memory', {}],
  ['find', { query: 'tea', limit: 0 }],
  ['find', { query: 'tea', limit: 2.5 }],
  ['find', { query: 'tea', limit: 21 }],
  ['find', { query: 'tea', targetUri: '/etc' }],
  ['context', { query: 'tea', tokens: 0 }],
  ['context', { query: 'tea', tokens: 99 }],
  ['context', { query: 'tea', tokens: 32_001 }],
  ['context', { query: 'tea', tokens: 1000.5 }],
  ['context', { query: '' }],
  ['context', { query: 'tea', session: 's' }],
  ['read', { uri: 'viking://resources/x', layer: 'L3' }],
  ['ls', { uri: 'resources' }],
];

describe('the AI SDK refuses bad tool input', () => {
  it.each(bad)('%s %j: a tool error, nothing run, nothing written', async (toolName, input) => {
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
    expect(String((errors[0] as { error: unknown }).error)).toMatch(/Invalid input|Type validation failed/i);
    expect((await longship.store.meta()).seq).toBe(before.seq);
    expect(await longship.ls('viking://user/memories')).toEqual([]);
    expect(await longship.ls('viking://agent/memories')).toEqual([]);
  });

  it('a Longship error in a tool (a URI that is not there) reaches the model as a tool error', async () => {
    const model = scriptedModel([
      { calls: [{ toolName: 'read', input: { uri: 'viking://resources/missing.md' } }] },
      { text: 'not found' },
    ]);
    const result = await generateText({
      model,
      tools: longshipTools(longship),
      prompt: 'Read it.',
      stopWhen: stepCountIs(2),
    });
    const errors = result.steps[0]!.content.filter((part) => part.type === 'tool-error');
    expect(errors).toHaveLength(1);
    expect((errors[0] as { error: unknown }).error).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('longshipTools() options', () => {
  it('offers only the tools asked for', () => {
    expect(Object.keys(longshipTools(longship))).toEqual([...longshipToolNames]);
    expect(Object.keys(longshipTools(longship, { tools: ['find', 'read'] }))).toEqual(['find', 'read']);
  });

  it.each([
    [{ tool: ['find'] }, /unknown option 'tool'; the options are tools, maxChars, session/],
    [{ tools: ['find', 'delete'] }, /option 'tools\.1' must be one of find, context, read, ls, add_memory/],
    [{ session: '' }, /option 'session' must be a non-empty session id/],
    [{ maxChars: 10 }, /option 'maxChars' must be ≥ 100/],
    ['all', /options must be an object/],
  ])('%j is INVALID_ARGUMENT', (options, message) => {
    const call = () => longshipTools(longship, options as never);
    expect(call).toThrow(LongshipError);
    expect(call).toThrow(message);
  });
});

describe('each input schema', () => {
  const schemas = {
    find: findInput,
    context: contextInput,
    read: readInput,
    ls: lsInput,
    add_memory: addMemoryInput,
  };

  it.each(Object.entries(schemas))(
    '%s: the JSON Schema the model sees has the fields valibot checks',
    (name, schema) => {
      const json = inputJson[name as keyof typeof inputJson];
      const entries = Object.entries(schema.entries);
      expect(Object.keys(json.properties).sort()).toEqual(entries.map(([key]) => key).sort());
      const required = entries.filter(([, field]) => field.type !== 'optional').map(([key]) => key);
      expect([...json.required].sort()).toEqual(required.sort());
      expect(json.additionalProperties).toBe(false);
      expect(
        v.safeParse(schema, { ...Object.fromEntries(required.map((key) => [key, 'viking://x'])), extra: 1 })
          .success,
      ).toBe(false);
    },
  );
});

// Each tool's JSON Schema (what MCP's tools/list and the AI SDK show a model) is derived from its
// one valibot schema: the same fields, required ones and bounds, and no field of a kind it cannot
// say in JSON Schema slips through unsaid.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { memoryCategories } from '../../src/llm/prompts.js';
import { toJsonSchema } from '../../src/tools/json-schema.js';
import { agentToolNames, agentTools } from '../../src/tools/tools.js';

describe('toJsonSchema', () => {
  it.each(agentToolNames)('%s: every field, its required ones, and no other', (name) => {
    const schema = agentTools[name].input;
    const json = toJsonSchema(schema);
    const entries = Object.entries(schema.entries);
    expect(Object.keys(json.properties)).toEqual(entries.map(([key]) => key));
    expect(json.required).toEqual(
      entries.filter(([, field]) => field.type !== 'optional').map(([key]) => key),
    );
    expect(json.additionalProperties).toBe(false);
    for (const field of Object.values(json.properties)) expect(field.description).toMatch(/\w/);
  });

  it('says the bounds, choices and defaults the valibot schema checks', () => {
    expect(toJsonSchema(agentTools.find.input).properties).toMatchObject({
      query: { type: 'string', minLength: 1, maxLength: 2000 },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      mode: { type: 'string', enum: ['quick', 'thinking'] },
    });
    expect(toJsonSchema(agentTools.add_memory.input).properties.category).toMatchObject({
      enum: [...memoryCategories],
      default: 'agent',
    });
    expect(toJsonSchema(agentTools.context.input).properties.tokens).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      default: 2000,
    });
  });

  it('throws on a piece it has no JSON Schema for, rather than leave it out', () => {
    const checked = v.strictObject({
      to: v.pipe(
        v.string(),
        v.check((to) => to !== 'me'),
      ),
    });
    expect(() => toJsonSchema(checked)).toThrow(/"check" action cannot be converted/);
    const changed = v.strictObject({ n: v.pipe(v.string(), v.transform(Number)) });
    expect(() => toJsonSchema(changed)).toThrow(/"transform" action cannot be converted/);
  });
});

// What each AI SDK tool takes (docs/ai-sdk.md): a JSON Schema the model is shown, and a strict
// valibot schema the AI SDK validates the model's input with before a tool runs. Valibot has no
// JSON Schema of its own without another package, so each tool states both, side by side, and a
// test holds them to the same fields; no new runtime dependency for apps without the AI SDK.
import * as v from 'valibot';
import { memoryCategories } from '../llm/prompts.js';

/** The longest query a model may send to find. */
const maxQuery = 2000;
/** The most hits find returns in one call. */
export const maxFindLimit = 20;
/** The longest memory add_memory writes. */
export const maxMemoryChars = 4000;
export const layers = ['L0', 'L1', 'L2'] as const;
/** The categories a model may file a memory under (docs/retrieval.md, "Context types and roots"). */
export const toolMemoryCategories = memoryCategories;

const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));
const uri = v.pipe(v.string(), v.startsWith('viking://'));

export const findInput = v.strictObject({
  query: text(maxQuery),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(maxFindLimit))),
  targetUri: v.optional(uri),
});

/** The budget range a model may ask context for. */
export const contextTokens = { min: 100, max: 32_000, default: 2000 } as const;

export const contextInput = v.strictObject({
  query: text(maxQuery),
  tokens: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(contextTokens.min), v.maxValue(contextTokens.max)),
  ),
  targetUri: v.optional(uri),
});

export const readInput = v.strictObject({ uri, layer: v.optional(v.picklist(layers)) });

export const lsInput = v.strictObject({ uri });

export const addMemoryInput = v.strictObject({
  text: text(maxMemoryChars),
  category: v.optional(v.picklist(toolMemoryCategories)),
  name: v.optional(text(80)),
});

const uriJson = { type: 'string', pattern: '^viking://', description: 'A viking:// URI.' } as const;
const queryJson = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: maxQuery, description }) as const;

/** The JSON Schema of each input, as the model sees it. */
export const inputJson = {
  find: {
    type: 'object',
    properties: {
      query: queryJson('What to look for, in words.'),
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: maxFindLimit,
        description: 'How many hits (default 5).',
      },
      targetUri: { ...uriJson, description: 'Search only under this viking:// directory.' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  context: {
    type: 'object',
    properties: {
      query: queryJson('What the context is for, in words.'),
      tokens: {
        type: 'integer',
        minimum: contextTokens.min,
        maximum: contextTokens.max,
        description: `The most tokens the context may take (default ${contextTokens.default}).`,
      },
      targetUri: { ...uriJson, description: 'Only context under this viking:// directory.' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  read: {
    type: 'object',
    properties: {
      uri: uriJson,
      layer: {
        type: 'string',
        enum: [...layers],
        description: 'L0: one line; L1: an overview; L2: the full text (default).',
      },
    },
    required: ['uri'],
    additionalProperties: false,
  },
  ls: {
    type: 'object',
    properties: { uri: { ...uriJson, description: 'The viking:// directory to list.' } },
    required: ['uri'],
    additionalProperties: false,
  },
  add_memory: {
    type: 'object',
    properties: {
      text: { type: 'string', minLength: 1, maxLength: maxMemoryChars, description: 'What to remember.' },
      category: {
        type: 'string',
        enum: [...toolMemoryCategories],
        description:
          "About the user: preferences, entities, events, or profile (one file); the agent's own notes: agent (default).",
      },
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 80,
        description: 'A short name; the same name updates it.',
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
} as const;

export type FindInput = v.InferOutput<typeof findInput>;
export type ContextInput = v.InferOutput<typeof contextInput>;
export type ReadInput = v.InferOutput<typeof readInput>;
export type LsInput = v.InferOutput<typeof lsInput>;
export type AddMemoryInput = v.InferOutput<typeof addMemoryInput>;

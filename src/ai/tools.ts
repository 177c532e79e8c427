// Longship as tools for the Vercel AI SDK (`longship/ai`, docs/ai-sdk.md): `generateText({ model,
// tools: longshipTools(longship) })` lets a model find, read and list viking:// context and add a
// memory. Only this folder imports `ai`, an optional peer dependency; the root export never does.
import { jsonSchema, type Tool, tool } from 'ai';
import * as v from 'valibot';
import { checkOptions, wholeNumber } from '../options.js';
import {
  addMemoryAction,
  contextAction,
  findAction,
  lsAction,
  readAction,
  type ToolsLongship,
} from './tool-actions.js';
import { addMemoryInput, contextInput, findInput, inputJson, lsInput, readInput } from './tool-inputs.js';

/** The tools there are. */
export const longshipToolNames = ['find', 'context', 'read', 'ls', 'add_memory'] as const;
export type LongshipToolName = (typeof longshipToolNames)[number];

export interface LongshipToolsOptions<N extends LongshipToolName = LongshipToolName> {
  /** Which tools to offer; default all. Leave out `add_memory` for a model that may only read. */
  tools?: readonly N[];
  /** The longest text one tool result carries (read's text); default 4000 characters. */
  maxChars?: number;
  /**
   * The conversation's session id: the `context` tool then leaves out what it already gave this
   * session, unless it changed. Default: none (every call stands alone).
   */
  session?: string;
}

const longshipToolsOptionsSchema = v.strictObject({
  tools: v.optional(v.array(v.picklist(longshipToolNames, `must be one of ${longshipToolNames.join(', ')}`))),
  maxChars: v.optional(wholeNumber(100)),
  session: v.optional(v.pipe(v.string(), v.minLength(1, 'must be a non-empty session id'))),
});

/** The AI SDK tool of each name, with its input and result types. */
export interface LongshipToolSet {
  find: Tool<v.InferOutput<typeof findInput>, Awaited<ReturnType<typeof findAction>>>;
  context: Tool<v.InferOutput<typeof contextInput>, Awaited<ReturnType<typeof contextAction>>>;
  read: Tool<v.InferOutput<typeof readInput>, Awaited<ReturnType<typeof readAction>>>;
  ls: Tool<v.InferOutput<typeof lsInput>, Awaited<ReturnType<typeof lsAction>>>;
  add_memory: Tool<v.InferOutput<typeof addMemoryInput>, Awaited<ReturnType<typeof addMemoryAction>>>;
}

/**
 * AI SDK tools over `longship` (a Longship, or any object with its find, context, read, overview,
 * abstract, ls, stat and write). Inputs are validated by the AI SDK before a tool runs; a bad one never
 * reaches Longship. Unknown options are INVALID_ARGUMENT.
 *
 * @example
 * const { text } = await generateText({ model, tools: longshipTools(longship), stopWhen: stepCountIs(5), prompt });
 */
export function longshipTools<N extends LongshipToolName = LongshipToolName>(
  longship: ToolsLongship,
  options?: LongshipToolsOptions<N>,
): Pick<LongshipToolSet, N> {
  const checked = checkOptions(longshipToolsOptionsSchema, options, 'longshipTools()');
  const limits = { maxChars: checked.maxChars ?? 4000 };
  const all: LongshipToolSet = {
    find: tool({
      description:
        'Search the context database (documents, memories, skills). Returns viking:// URIs to cite, scores and one-line abstracts.',
      inputSchema: validated(inputJson.find, findInput),
      execute: (input, { abortSignal }) => findAction(longship, input, abortSignal),
    }),
    context: tool({
      description:
        'Get the context for a task as one block within a token budget: the best matching documents, memories ' +
        'and skills, each shown whole where it fits, else summarised, each with its viking:// URI to cite.',
      inputSchema: validated(inputJson.context, contextInput),
      execute: (input, { abortSignal }) => contextAction(longship, input, checked.session, abortSignal),
    }),
    read: tool({
      description: 'Read one viking:// node at a layer: L0 a line, L1 an overview, L2 the full text.',
      inputSchema: validated(inputJson.read, readInput),
      execute: (input) => readAction(longship, input, limits),
    }),
    ls: tool({
      description: 'List a viking:// directory: each child with its URI, kind and one-line abstract.',
      inputSchema: validated(inputJson.ls, lsInput),
      execute: (input) => lsAction(longship, input),
    }),
    add_memory: tool({
      description:
        'Remember something for later conversations. The same category and name add to one memory. Returns its URI.',
      inputSchema: validated(inputJson.add_memory, addMemoryInput),
      execute: (input, { abortSignal }) => addMemoryAction(longship, input, abortSignal),
    }),
  };
  const chosen: readonly LongshipToolName[] = checked.tools ?? longshipToolNames;
  return Object.fromEntries(chosen.map((name) => [name, all[name]])) as Pick<LongshipToolSet, N>;
}

/** A JSON Schema for the model, checked by a strict valibot schema when the model answers. */
function validated<S extends v.GenericSchema>(json: object, schema: S) {
  return jsonSchema<v.InferOutput<S>>(json, {
    validate: (value) => {
      const result = v.safeParse(schema, value);
      if (result.success) return { success: true, value: result.output };
      return { success: false, error: new v.ValiError(result.issues) };
    },
  });
}

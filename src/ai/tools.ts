// Longship as tools for the Vercel AI SDK (`longship/ai`, docs/guide/ai-sdk.md): `generateText({ model,
// tools: longshipTools(longship) })` lets a model find, read and list viking:// context and add a
// memory. Each tool is the one definition in src/tools/ that the MCP server and the CLI share; this
// file only wraps it in the SDK's `tool()`. Only this folder imports `ai`, an optional peer
// dependency; the root export never does.
import { jsonSchema, type Tool, tool } from 'ai';
import * as v from 'valibot';
import { checkOptions, wholeNumber } from '../options.js';
import { toJsonSchema } from '../tools/json-schema.js';
import type { AgentTool, ToolContext, ToolInput, ToolOutput } from '../tools/tool.js';
import { checkToolInput, invalidInput, parseToolInput } from '../tools/tool-input.js';
import { agentToolNames, agentTools } from '../tools/tools.js';
import type { ToolsLongship } from '../tools/tools-longship.js';

/**
 * The name of each tool there is: the MCP server's (docs/guide/mcp.md, "Tools"). Written out for
 * the reader; the compiler holds it to src/tools/ both ways (`longshipToolNames`, `SdkTools`).
 */
export type LongshipToolName =
  | 'find'
  | 'search'
  | 'context'
  | 'read'
  | 'ls'
  | 'tree'
  | 'add_resource'
  | 'add_memory'
  | 'session_add_message'
  | 'session_commit';

/** The tools there are, in the order MCP's tools/list gives them. */
export const longshipToolNames: readonly LongshipToolName[] = agentToolNames;

/** The tools offered when `tools` is not given: reading context and keeping memories. */
export type DefaultToolName = 'find' | 'context' | 'read' | 'ls' | 'add_memory';
const defaultToolNames: readonly DefaultToolName[] = ['find', 'context', 'read', 'ls', 'add_memory'];

/** The most nodes one call of ls or tree gives a model; `hasMore` and a cursor lead to the rest. */
const maxEntries = 100;

export interface LongshipToolsOptions<N extends LongshipToolName = DefaultToolName> {
  /**
   * Which tools to offer; default find, context, read, ls and add_memory. Leave out `add_memory`
   * for a model that may only read; add `search`, `tree`, `add_resource` or the session tools.
   */
  tools?: readonly N[];
  /** The longest text one tool result carries (read's text, cut at a line); default 4000 characters. */
  maxChars?: number;
  /**
   * The conversation's session id: the `context` tool then leaves out what it already gave this
   * session, unless it changed, and `search` reads its messages, when the model names no
   * `sessionId`. Default: none (every call stands alone).
   */
  session?: string;
}

const longshipToolsOptionsSchema = v.strictObject({
  tools: v.optional(v.array(v.picklist(agentToolNames, `must be one of ${agentToolNames.join(', ')}`))),
  maxChars: v.optional(wholeNumber(100)),
  session: v.optional(v.pipe(v.string(), v.minLength(1, 'must be a non-empty session id'))),
});

/** The AI SDK tool of each name, with its input and result types. */
export type LongshipToolSet = SdkTools;

/**
 * Each tool's types, read from its definition. Inlined in the API reference, which shows each
 * tool's input and result rather than the definitions they are read from.
 *
 * @inline
 */
type SdkTools = {
  [N in LongshipToolName]: Tool<ToolInput<(typeof agentTools)[N]>, ToolOutput<(typeof agentTools)[N]>>;
};

/**
 * AI SDK tools over `longship` (a Longship, or a page's RemoteLongship). The SDK validates the
 * model's input before a tool runs, and `execute` checks it again, so a bad input never reaches
 * Longship: it is a LongshipError INVALID_ARGUMENT naming the field. Unknown options are
 * INVALID_ARGUMENT.
 *
 * @example
 * const { text } = await generateText({ model, tools: longshipTools(longship), stopWhen: stepCountIs(5), prompt });
 */
export function longshipTools<N extends LongshipToolName = DefaultToolName>(
  longship: ToolsLongship,
  options?: LongshipToolsOptions<N>,
): Pick<LongshipToolSet, N> {
  const checked = checkOptions(longshipToolsOptionsSchema, options, 'longshipTools()');
  const context = {
    maxChars: checked.maxChars ?? 4000,
    maxEntries,
    ...(checked.session === undefined ? {} : { session: checked.session }),
  };
  const chosen: readonly LongshipToolName[] = checked.tools ?? defaultToolNames;
  return Object.fromEntries(
    chosen.map((name) => [name, sdkTool(agentTools[name] as unknown as AgentTool, longship, context)]),
  ) as Pick<LongshipToolSet, N>;
}

/** One agent tool as the SDK's: its JSON Schema for the model, its valibot schema to check the answer. */
function sdkTool(agentTool: AgentTool, longship: ToolsLongship, context: Omit<ToolContext, 'signal'>): Tool {
  return tool({
    title: agentTool.title,
    description: agentTool.description,
    inputSchema: jsonSchema<object>(toJsonSchema(agentTool.input), {
      validate: (value) => {
        const parsed = parseToolInput(agentTool, value);
        if (parsed.ok) return { success: true, value: parsed.input };
        return { success: false, error: invalidInput(agentTool.name, parsed.problems) };
      },
    }),
    // Checked here too: an app may call execute() itself, with no SDK validation before it.
    execute: async (input, { abortSignal }) =>
      agentTool.run(longship, checkToolInput(agentTool, input), {
        ...context,
        ...(abortSignal ? { signal: abortSignal } : {}),
      }),
  });
}

// One agent tool, defined once (docs/guide/mcp.md, "Tools"): its name, what it tells the model, its input
// as one strict valibot schema, and what it does. The MCP server, the AI SDK tools and the CLI are
// built from these definitions, so a field, a default or a result cannot differ between them.

import type * as v from 'valibot';
import type { ToolsLongship } from './tools-longship.js';

/** A tool's input: a strict object, so a missing or an unknown field is refused before it runs. */
export type ToolInputSchema = v.StrictObjectSchema<v.ObjectEntries, undefined>;

/** What a surface gives a tool besides its input. */
export interface ToolContext {
  /** Stops the call: ABORTED. */
  signal?: AbortSignal;
  /**
   * The longest text one result carries (read's text); longer text is cut at a line and marked
   * `truncated`. Default: no limit.
   */
  maxChars?: number;
  /** The most nodes one call of ls or tree gives; `hasMore` and a cursor lead to the rest. Default 1,000. */
  maxEntries?: number;
  /** The session of context and search when the input names none. */
  session?: string;
  /** How session_add_message commits and caps a session (session-tools.ts has the defaults). */
  sessions?: SessionPolicy;
  /** The largest pack export_pack gives and import_pack takes, in bytes (pack-tools.ts has the default). */
  maxPackBytes?: number;
}

/** A session's auto-commit and the most it may hold uncommitted (docs/guide/mcp.md, "Sessions"). */
export interface SessionPolicy {
  /** Commit in the background once this many messages, or tokens, are pending; `false`: never. */
  autoCommit?: { messages?: number; tokens?: number } | false;
  /** Past either, session_add_message is refused (INPUT_TOO_LARGE) until the session is committed. */
  maxPending?: { messages?: number; bytes?: number };
}

/**
 * A tool. `L` is what it needs of a Longship: the ToolsLongship every surface has, by default; the
 * pack tools need export() and import(), which only the MCP server offers (pack-tools.ts).
 */
export interface AgentTool<
  S extends ToolInputSchema = ToolInputSchema,
  O extends object = object,
  L extends object = ToolsLongship,
> {
  /** snake_case, as MCP clients and models know tools. */
  name: string;
  title: string;
  /** What the model is told the tool does. */
  description: string;
  input: S;
  /** True for tools that only read: clients may run them without asking. */
  readOnly: boolean;
  /** Runs on input the schema accepted; the output is plain JSON. */
  run(longship: L, input: v.InferOutput<S>, context: ToolContext): Promise<O>;
  /** The output as the text a model reads where a result is text (MCP); default its JSON. */
  text?(output: O): string;
}

/** The input a tool takes and the output it gives, as types. */
export type ToolInput<T> = T extends AgentTool<infer S> ? v.InferInput<S> : never;
export type ToolOutput<T> = T extends AgentTool<ToolInputSchema, infer O> ? O : never;

/** Keeps a tool's input and output types tied to its schema (the identity, typed). */
export function defineTool<S extends ToolInputSchema, O extends object, L extends object = ToolsLongship>(
  tool: AgentTool<S, O, L>,
): AgentTool<S, O, L> {
  return tool;
}

/** The text of an output for a model that reads text. */
export function outputText<O extends object, L extends object>(
  tool: AgentTool<ToolInputSchema, O, L>,
  output: O,
): string {
  return tool.text ? tool.text(output) : JSON.stringify(output, null, 2);
}

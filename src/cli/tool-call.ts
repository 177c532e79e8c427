// A command that is an agent tool (src/tools/: find, context, ls, tree, read): the command line
// made into the tool's input, checked before the store opens (a refusal is a usage error naming the
// option, and costs no model load), then the tool run as MCP and the AI SDK run it.

import type * as v from 'valibot';
import type { AgentTool, ToolInputSchema } from '../tools/tool.js';
import { parseToolInput } from '../tools/tool-input.js';
import { UsageError } from './args.js';
import type { CommandContext } from './command.js';

/**
 * Runs `tool` on `args` (its input's fields, from the command line). `flags` names the option or
 * argument each field came from, for the message of a refused input.
 */
export async function runToolCommand<S extends ToolInputSchema, O extends object>(
  tool: AgentTool<S, O>,
  args: Record<string, unknown>,
  flags: Readonly<Record<string, string>>,
  { open, signal }: Pick<CommandContext, 'open' | 'signal'>,
  command: string,
): Promise<O> {
  const defined = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
  const parsed = parseToolInput(tool, defined);
  if (!parsed.ok) {
    const said = parsed.problems.map(({ field, problem }) => `${flags[field] ?? field} ${problem}`);
    throw new UsageError(said.join('; '), command);
  }
  const input: v.InferOutput<S> = parsed.input;
  return tool.run(await open(), input, { signal });
}

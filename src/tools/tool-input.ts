// Checking a tool's input against its schema, the same way on every surface: INVALID_ARGUMENT
// naming each field that is missing, unknown or wrong, before the tool runs (docs/guide/mcp.md, "Bad input").

import * as v from 'valibot';
import { LongshipError } from '../errors.js';
import type { AgentTool, ToolInputSchema } from './tool.js';

/** One thing wrong with an input: the field (`''` for the input itself) and what is wrong with it. */
export interface InputProblem {
  field: string;
  problem: string;
}

type Parsed<S extends ToolInputSchema> =
  | { ok: true; input: v.InferOutput<S> }
  | { ok: false; problems: InputProblem[] };

/** `args` as the tool's input (defaults and trims applied), or every problem with it. */
export function parseToolInput<S extends ToolInputSchema>(tool: AgentTool<S>, args: unknown): Parsed<S> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return {
      ok: false,
      problems: [{ field: '', problem: `must be an object of fields, not ${kindOf(args)}` }],
    };
  }
  const result = v.safeParse(tool.input, args);
  if (result.success) return { ok: true, input: result.output };
  return { ok: false, problems: result.issues.map((issue) => explain(tool.input, issue)) };
}

/**
 * `args` as the tool's input; INVALID_ARGUMENT naming every problem otherwise, e.g.
 * `add_memory: content is required; text is not a field (the fields are content, category, name)`.
 */
export function checkToolInput<S extends ToolInputSchema>(
  tool: AgentTool<S>,
  args: unknown,
): v.InferOutput<S> {
  const parsed = parseToolInput(tool, args);
  if (parsed.ok) return parsed.input;
  throw invalidInput(tool.name, parsed.problems);
}

/** The INVALID_ARGUMENT of a refused input. */
export function invalidInput(toolName: string, problems: readonly InputProblem[]): LongshipError {
  const said = problems.map(({ field, problem }) => `${field || 'the input'} ${problem}`);
  return new LongshipError('INVALID_ARGUMENT', `${toolName}: ${said.join('; ')}`);
}

function explain(schema: ToolInputSchema, issue: v.BaseIssue<unknown>): InputProblem {
  const field = (issue.path ?? []).map((step) => String(step.key)).join('.');
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    return { field, problem: `is not a field (the fields are ${Object.keys(schema.entries).join(', ')})` };
  }
  if (issue.received === 'undefined') return { field, problem: 'is required' };
  // Valibot's own messages ("Invalid type: …") are reworded; the schemas' own say "must be …".
  const rule = issue.message.startsWith('Invalid') ? `must be ${issue.expected}` : issue.message;
  // A length's `received` is the length, which says less than the rule does.
  if (issue.type === 'min_length' || issue.type === 'max_length') return { field, problem: rule };
  return { field, problem: `${rule}, not ${issue.received}` };
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

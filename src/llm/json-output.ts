// What models really send back when asked for JSON: the object alone, the object in a ```json
// fence, or the object after a sentence of preamble. Whatever is found is checked against the
// prompt's schema; anything else is an LLM_OUTPUT error the caller falls back from.
import * as v from 'valibot';
import { LongshipError } from '../errors.js';
import { firstJsonSpan } from './json-scan.js';

/**
 * The first JSON value in a model's answer: the whole text, else a fenced block, else the first
 * balanced `{…}` (or `[…]`) that parses. `undefined` when there is none.
 *
 * @example
 * extractJson('Sure!\n```json\n{"queries": []}\n```'); // { queries: [] }
 */
export function extractJson(text: string): unknown {
  const whole = tryParse(text.trim());
  if (whole !== undefined) return whole;
  for (const match of text.matchAll(/```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    const fenced = tryParse(match[1]!.trim());
    if (fenced !== undefined) return fenced;
  }
  const span = firstJsonSpan(text);
  return span ? tryParse(text.slice(span.start, span.end + 1)) : undefined;
}

/**
 * The longest answer read, in characters. Prompts ask for a few kilobytes; reading more only gives a
 * hostile or broken server time to keep the engine busy (docs/guide/reliability.md).
 */
export const maxAnswerLength = 256 * 1024;

/**
 * Extracts JSON from `text` and checks it against `schema`; `LLM_OUTPUT` names what was wrong,
 * quoting at most 200 characters of the answer.
 *
 * @example
 * const plan = parseOutput(intentPrompt.schema, completion.text, 'intent analysis');
 */
export function parseOutput<const S extends v.GenericSchema>(
  schema: S,
  text: string,
  what: string,
): v.InferOutput<S> {
  if (text.length > maxAnswerLength) {
    throw new LongshipError(
      'LLM_OUTPUT',
      `${what}: the answer is ${text.length} characters long, more than the ${maxAnswerLength} read`,
    );
  }
  const value = extractJson(text);
  if (value === undefined) {
    throw new LongshipError('LLM_OUTPUT', `${what}: the answer holds no JSON: ${excerpt(text)}`);
  }
  const result = v.safeParse(schema, value);
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue.path?.map((step) => String(step.key)).join('.') ?? '';
    throw new LongshipError(
      'LLM_OUTPUT',
      `${what}: the answer does not fit the schema${path ? ` at ${path}` : ''}: ${issue.message}`,
    );
  }
  return result.output;
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty)';
}

function tryParse(text: string): unknown {
  if (text === '' || (text[0] !== '{' && text[0] !== '[')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

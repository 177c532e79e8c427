// How every public method checks its options (docs/guide/reliability.md, "Options"): one strict valibot
// schema per method, kept next to the options' type, run once where the call enters. An unknown
// key, a misspelt one or a bad value is INVALID_ARGUMENT naming it; nothing is silently ignored.
import * as v from 'valibot';
import { LongshipError } from './errors.js';

/** A schema of a method's options: a strict object whose entries are every option there is. */
export type OptionsSchema = v.StrictObjectSchema<v.ObjectEntries, undefined>;

/**
 * `options` checked against `schema` (`undefined` is `{}`); INVALID_ARGUMENT names the first
 * unknown or bad option, and for an unknown one lists those there are.
 *
 * @example
 * const { limit } = checkOptions(grepOptionsSchema, options, 'grep()');
 */
export function checkOptions<S extends OptionsSchema>(
  schema: S,
  options: unknown,
  what: string,
): v.InferOutput<S> {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `${what}: options must be an object, not ${describe(options)}`,
    );
  }
  const result = v.safeParse(schema, options);
  if (result.success) return result.output;
  // An unknown key first: a misspelt `baseURL` says more than the `baseUrl` it leaves missing.
  const unknown = result.issues.find((i) => i.type === 'strict_object' && i.expected === 'never');
  throw new LongshipError('INVALID_ARGUMENT', `${what}: ${explain(schema, unknown ?? result.issues[0])}`);
}

/** The names of a schema's options, for messages and for tests that every one is accepted. */
export function optionNames(schema: OptionsSchema): string[] {
  return Object.keys(schema.entries);
}

function explain(schema: OptionsSchema, issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((step) => String(step.key));
  const name = keys.join('.');
  // Nothing where an option must be; a value of another kind (`budget: 500` for an object) is not that.
  if (issue.received === 'undefined' && issue.expected !== 'never') return `option '${name}' is required`;
  if (issue.type === 'strict_object' && issue.expected === 'Object') {
    return `option '${name}' must be an object, not ${issue.received}`;
  }
  if (issue.type === 'strict_object' && keys.length > 0) {
    const known = optionNames(parentSchema(schema, keys.slice(0, -1)) ?? schema);
    const where = keys.length > 1 ? `${keys.slice(0, -1).join('.')} takes` : 'the options are';
    return `unknown option '${name}'; ${where} ${known.join(', ') || 'none'}`;
  }
  // Valibot's own messages ("Invalid type: Expected …") are reworded; ours already say "must be …".
  const rule = issue.message.startsWith('Invalid') ? `must be ${issue.expected}` : issue.message;
  return `option '${name || '(options)'}' ${rule}, not ${issue.received}`;
}

/** The strict object schema at `path` inside `schema`, looking through optional and union wrappers. */
function parentSchema(schema: OptionsSchema, path: readonly string[]): OptionsSchema | undefined {
  let current: unknown = schema;
  for (const key of path) {
    current = objectOf(current)?.entries[key];
    if (current === undefined) return undefined;
  }
  return objectOf(current);
}

function objectOf(schema: unknown): OptionsSchema | undefined {
  const s = schema as { type?: string; wrapped?: unknown; options?: unknown[]; entries?: unknown };
  if (s?.type === 'strict_object') return s as OptionsSchema;
  if (s?.wrapped) return objectOf(s.wrapped);
  for (const option of s?.options ?? []) {
    const found = objectOf(option);
    if (found) return found;
  }
  return undefined;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

// ---- pieces the methods' schemas share ----

/** An AbortSignal; checked by shape, so that one from another realm (a worker, a test) passes. @internal */
export const signalSchema = v.custom<AbortSignal>(
  (x) => typeof x === 'object' && x !== null && typeof (x as AbortSignal).aborted === 'boolean',
  'must be an AbortSignal',
);

/** A whole number ≥ `min` (finite: NaN, Infinity and 1.5 are refused). */
export const wholeNumber = (min: number) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(min, `must be ≥ ${min}`),
  );

/** @internal */
export const metaSchema = v.record(v.string(), v.unknown(), 'must be an object of metadata');

/** A function option (a callback); its arguments are not checked here. @internal */
export const functionSchema = v.custom<(...args: never[]) => unknown>(
  (x) => typeof x === 'function',
  'must be a function',
);

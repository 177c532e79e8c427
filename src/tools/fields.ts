// The fields several tools share, each with the words the model is shown. Every message says
// "must be …" so that a refusal reads `limit must be at most 100, not 500`.

import * as v from 'valibot';

/** The longest query or name a model may send. */
export const maxQueryChars = 2000;

/**
 * A `viking://` URI. Whether it is one, and names a node, is the tree's to say: INVALID_URI or
 * NOT_FOUND, with the same words as every other call that takes a URI.
 */
export const uri = (description: string) =>
  v.pipe(v.string('must be a string'), v.description(description), v.minLength(1, 'must not be empty'));

export const query = (description: string) =>
  v.pipe(
    v.string('must be a string'),
    v.description(description),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(maxQueryChars, `must be at most ${maxQueryChars} characters`),
  );

/** A whole number in [min, max]. */
export const count = (min: number, max: number, description: string) =>
  v.pipe(
    v.number('must be a number'),
    v.description(description),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

export const layer = (description: string) =>
  v.pipe(v.picklist(['L0', 'L1', 'L2'], 'must be L0, L1 or L2'), v.description(description));

/** A session id: any stable id the agent chooses, one path segment (docs/guide/sessions.md). */
export const sessionId = (description: string) =>
  v.pipe(
    v.string('must be a string'),
    v.description(description),
    v.minLength(1, 'must not be empty'),
    v.maxLength(128, 'must be at most 128 characters'),
  );

export const targetUri = v.optional(uri('Search only under this viking:// directory (default: everywhere)'));

import { LongshipError } from '../errors.js';
import type { LexicalField, LexicalIndexOptions } from './lexical-index.js';

export const FIELDS: readonly LexicalField[] = ['title', 'headings', 'body'];
export const DEFAULT_WEIGHTS: Readonly<Record<LexicalField, number>> = { title: 2, headings: 1.5, body: 1 };
const MAX_WEIGHT = 8;
const WEIGHT_STEPS = 20;

export interface Bm25Settings {
  k1: number;
  b: number;
  fieldWeights: Record<LexicalField, number>;
}

/** Checked settings: `options` over `baseWeights` and the BM25 defaults. Throws `INVALID_ARGUMENT`. */
export function settingsFrom(
  options: LexicalIndexOptions,
  baseWeights: Readonly<Record<LexicalField, number>>,
): Bm25Settings {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  if (!(Number.isFinite(k1) && k1 >= 0)) {
    throw new LongshipError('INVALID_ARGUMENT', `k1 must be a finite number ≥ 0, not ${k1}.`);
  }
  if (!(b >= 0 && b <= 1)) throw new LongshipError('INVALID_ARGUMENT', `b must be within [0, 1], not ${b}.`);
  const fieldWeights = { ...baseWeights };
  for (const field of FIELDS) {
    const weight = options.fieldWeights?.[field] ?? baseWeights[field];
    fieldWeights[field] = weight;
    if (!(weight >= 0 && weight <= MAX_WEIGHT)) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `The ${field} weight must be within [0, 8], not ${weight}.`,
      );
    }
  }
  if (FIELDS.every((field) => fieldWeights[field] === 0)) {
    throw new LongshipError('INVALID_ARGUMENT', 'At least one field weight must be above 0.');
  }
  weightScale(fieldWeights);
  return { k1, b, fieldWeights };
}

/**
 * The smallest whole factor that turns every weight into a whole number. Term frequencies and
 * lengths are kept in units of 1/scale, so they stay integers and sums of them stay exact
 * through any sequence of adds and removes.
 */
export function weightScale(weights: Readonly<Record<LexicalField, number>>): number {
  for (let scale = 1; scale <= WEIGHT_STEPS; scale++) {
    if (
      FIELDS.every((field) => Math.abs(weights[field] * scale - Math.round(weights[field] * scale)) < 1e-9)
    ) {
      return scale;
    }
  }
  throw new LongshipError('INVALID_ARGUMENT', `Field weights must be multiples of 1/${WEIGHT_STEPS}.`);
}

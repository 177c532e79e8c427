// A tool's input as JSON Schema, derived from its valibot schema by valibot's own converter: what
// MCP's tools/list and the AI SDK show the model. The converter throws on a piece it cannot say in
// JSON Schema, so a new kind of field fails the tools' tests instead of vanishing from what the
// model is shown; only `trim` is let through, a transformation (the model may send spaces; they are
// taken off).

import { toJsonSchema as convert, type JsonSchema } from '@valibot/to-json-schema';
import type { ToolInputSchema } from './tool.js';

/**
 * The JSON Schema of a tool's input: an object of exactly its fields. (A type, not an interface:
 * the SDKs take a JSON Schema as an open record, which an interface is not assignable to.)
 */
export type JsonObjectSchema = {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
  additionalProperties: false;
};

/** The JSON Schema of `schema`, without `$schema` (the SDKs say which draft they speak). */
export function toJsonSchema(schema: ToolInputSchema): JsonObjectSchema {
  const { $schema: _, ...json } = convert(schema, { ignoreActions: ['trim'] });
  return json as JsonObjectSchema;
}

// A tool's input as JSON Schema, derived from its valibot schema: what MCP's tools/list and the AI
// SDK show the model. Valibot has no JSON Schema of its own without another package, and the tools
// use a handful of its pieces, so this knows exactly those and throws on any other: a new kind of
// field fails the tools' tests instead of vanishing from what the model is shown.

import type * as v from 'valibot';
import type { ToolInputSchema } from './tool.js';

/** The JSON Schema of one field. */
export type JsonField = {
  type: 'string' | 'number' | 'integer';
  description?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  default?: string | number;
};

/**
 * The JSON Schema of a tool's input: an object of exactly its fields. (Types, not interfaces: the
 * SDKs take a JSON Schema as an open record, which an interface is not assignable to.)
 */
export type JsonObjectSchema = {
  type: 'object';
  properties: Record<string, JsonField>;
  required: string[];
  additionalProperties: false;
};

type Piece = { kind: string; type: string; requirement?: unknown; description?: string };
type Node = v.GenericSchema & {
  wrapped?: Node;
  pipe?: readonly Piece[];
  options?: unknown[];
  default?: unknown;
};

/** The JSON Schema of `schema`. Throws (a bug in a tool's definition) on a piece it does not know. */
export function toJsonSchema(schema: ToolInputSchema): JsonObjectSchema {
  const properties: Record<string, JsonField> = {};
  const required: string[] = [];
  for (const [name, entry] of Object.entries(schema.entries)) {
    let node = entry as Node;
    const optional = node.type === 'optional';
    if (optional) node = node.wrapped!;
    else required.push(name);
    properties[name] = field(name, node);
    const fallback = (entry as Node).default;
    if (optional && fallback !== undefined) properties[name]!.default = fallback as JsonField['default'];
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function field(name: string, node: Node): JsonField {
  const json = base(name, node);
  for (const piece of node.pipe?.slice(1) ?? []) {
    const { requirement } = piece;
    switch (piece.type) {
      case 'description':
        json.description = piece.description;
        break;
      case 'min_length':
        json.minLength = requirement as number;
        break;
      case 'max_length':
        json.maxLength = requirement as number;
        break;
      case 'regex':
        json.pattern = (requirement as RegExp).source;
        break;
      case 'integer':
        json.type = 'integer';
        break;
      case 'min_value':
        json.minimum = requirement as number;
        break;
      case 'max_value':
        json.maximum = requirement as number;
        break;
      case 'trim':
        // A transformation: the model may send spaces; they are taken off.
        break;
      default:
        throw new Error(`toJsonSchema: field ${name} uses ${piece.type}, which has no JSON Schema here`);
    }
  }
  return json;
}

function base(name: string, node: Node): JsonField {
  switch (node.type) {
    case 'string':
      return { type: 'string' };
    case 'number':
      return { type: 'number' };
    case 'picklist':
      return { type: 'string', enum: [...(node.options as string[])] };
    default:
      throw new Error(`toJsonSchema: field ${name} is a ${node.type}, which has no JSON Schema here`);
  }
}

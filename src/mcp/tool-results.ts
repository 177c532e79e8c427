// How tool outcomes travel: data as JSON text (what every MCP client shows the model) plus the same
// object as structuredContent; a LongshipError as an error result that names its code.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LongshipError } from '../errors.js';

/** A tool's answer: `text` for the model, `data` (an object) for programs. */
export function toolResult(
  data: Record<string, unknown>,
  text = JSON.stringify(data, null, 2),
): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/**
 * A failed call as an MCP tool error: `isError`, the text `CODE: message`, and
 * `structuredContent.error` = `{ code, message }`. Errors that are not Longship's are INTERNAL.
 */
export function toolError(error: unknown): CallToolResult {
  const code = error instanceof LongshipError ? error.code : 'INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  return {
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { error: { code, message } },
    isError: true,
  };
}

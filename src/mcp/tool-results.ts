// How a failed tool call travels: an error result that names the LongshipError's code.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LongshipError } from '../errors.js';

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

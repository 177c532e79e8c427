// A JSON-RPC 2.0 error response, for what the transports refuse before the server sees it: a
// message too large, not JSON, or an HTTP request that may not pass (docs/guide/mcp.md, "Security").

/** JSON-RPC's codes, and the server-defined one the SDK uses for a refused HTTP request. */
export const jsonRpcCodes = { parseError: -32700, invalidRequest: -32600, serverError: -32000 } as const;

export interface JsonRpcError {
  jsonrpc: '2.0';
  /** The refused request's id; null when it could not be read (JSON-RPC 2.0, section 5). */
  id: string | number | null;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/**
 * The error response to a message that was refused.
 *
 * @example
 * jsonRpcError(null, jsonRpcCodes.parseError, 'Parse error: not JSON');
 */
export function jsonRpcError(
  id: string | number | null,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): JsonRpcError {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * An HTTP refusal: `status`, with the JSON-RPC error (id null: the body was not read) as its body.
 *
 * @example
 * return jsonRpcErrorResponse(403, jsonRpcError(null, jsonRpcCodes.serverError, 'Forbidden: …'));
 */
export function jsonRpcErrorResponse(
  status: number,
  error: JsonRpcError,
  headers: HeadersInit = {},
): Response {
  return Response.json(error, { status, headers });
}

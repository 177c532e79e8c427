// An MCP request's body, read with the message limit (docs/guide/mcp.md, "Limits") before any server
// is made: a declared Content-Length over it is refused unread, and a body streamed without one is
// cancelled as soon as it passes it, so a client cannot make the handler buffer more.

import { jsonRpcCodes, jsonRpcError, jsonRpcErrorResponse } from './json-rpc-error.js';
import { messageTooLarge } from './message-limit.js';

/** The body as JSON, or the refusal to answer with (413 over the limit, 400 when it is not JSON). */
export type RequestBody = { ok: true; json: unknown } | { ok: false; refusal: Response };

/**
 * Reads `request`'s body, at most `maxBytes` of it, and parses it as JSON.
 *
 * @example
 * const body = await readRequestBody(request, defaultMaxMessageBytes);
 * if (!body.ok) return body.refusal;
 */
export async function readRequestBody(request: Request, maxBytes: number): Promise<RequestBody> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return tooLarge(declared, maxBytes);
  }
  const text = await readText(request, maxBytes);
  if (text === undefined) return tooLarge(undefined, maxBytes);
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch (error) {
    const message = `Parse error: ${(error as Error).message}`;
    return {
      ok: false,
      refusal: jsonRpcErrorResponse(400, jsonRpcError(null, jsonRpcCodes.parseError, message)),
    };
  }
}

/** The body as text; undefined (and the stream cancelled) once it passes `maxBytes`. */
async function readText(request: Request, maxBytes: number): Promise<string | undefined> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let byteLength = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    byteLength += value.byteLength;
    if (byteLength > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

function tooLarge(byteLength: number | undefined, maxBytes: number): RequestBody {
  const error = jsonRpcError(null, jsonRpcCodes.invalidRequest, messageTooLarge(byteLength, maxBytes), {
    code: 'INPUT_TOO_LARGE',
    maxBytes,
  });
  return { ok: false, refusal: jsonRpcErrorResponse(413, error) };
}

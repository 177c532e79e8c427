// Who may talk to the MCP fetch handler (docs/guide/mcp.md, "Security"): the Host and Origin checks that
// MCP's Streamable HTTP asks of servers against DNS rebinding (a page on evil.example whose name
// is made to resolve to 127.0.0.1 must not reach a local server), and an optional bearer token.
// Not the SDK's enableDnsRebindingProtection: it is off by default, deprecated, and matches Host
// with its port, so a server on any port would have to list each. Web standards only.

import * as v from 'valibot';
import { jsonRpcCodes, jsonRpcError, jsonRpcErrorResponse } from './json-rpc-error.js';

export interface McpHttpGuardOptions {
  /**
   * The hosts (`Host` header, or the URL's host without one) served: a name or address, on any
   * port, or `name:port`. Default: `localhost`, `127.0.0.1` and `[::1]`; a list replaces it.
   */
  allowedHosts?: string[];
  /**
   * The origins (`Origin` header, sent by browsers) served, as `scheme://host[:port]`. Default:
   * http and https on localhost, 127.0.0.1 and [::1], any port; a list replaces it. A request
   * without an Origin (a program, not a page) passes this check.
   */
  allowedOrigins?: string[];
  /** When set, every request must carry `Authorization: Bearer <token>`; others get 401. */
  token?: string;
}

/** A host as a Host header carries it: a name, IPv4 or a bracketed IPv6 address, and a port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;
/** A bearer token as RFC 6750 (section 2.1) lets it be written in the header. */
const TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;
/** An origin: scheme, host, port; no path (a trailing slash is forgiven). */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]+\/?$/i;

export const mcpHttpGuardEntries = {
  allowedHosts: v.optional(v.array(v.pipe(v.string(), v.regex(HOST, 'must be hosts, as name or name:port')))),
  allowedOrigins: v.optional(
    v.array(v.pipe(v.string(), v.regex(ORIGIN, 'must be origins, as scheme://host[:port]'))),
  ),
  token: v.optional(v.pipe(v.string(), v.regex(TOKEN, 'must be a bearer token: letters, digits, -._~+/'))),
};

const loopback = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A check of each request's Host, Origin and token: a refusal (403, or 401 with
 * `WWW-Authenticate`) with a JSON-RPC error body, or undefined to let it through.
 *
 * @example
 * const guard = createHttpGuard({ token });
 * const refused = await guard(request);
 * if (refused) return refused;
 */
export function createHttpGuard(
  options: McpHttpGuardOptions,
): (request: Request) => Promise<Response | undefined> {
  const hosts = options.allowedHosts?.map((host) => host.toLowerCase());
  const origins = options.allowedOrigins?.map((origin) => origin.toLowerCase().replace(/\/$/, ''));
  const expected = options.token === undefined ? undefined : digest(options.token);
  return async (request) => {
    const host = request.headers.get('host') ?? new URL(request.url).host;
    if (!hostAllowed(host, hosts)) return forbidden(`Forbidden: Host ${host} is not an allowed host`);
    const origin = request.headers.get('origin');
    if (origin !== null && !originAllowed(origin, origins)) {
      return forbidden(`Forbidden: Origin ${origin} is not an allowed origin`);
    }
    if (expected !== undefined) return checkToken(request, await expected);
    return undefined;
  };
}

function hostAllowed(host: string, allowed: readonly string[] | undefined): boolean {
  const name = hostname(host);
  if (name === undefined) return false;
  if (allowed === undefined) return loopback.has(name);
  return allowed.includes(host.toLowerCase()) || allowed.includes(name);
}

function originAllowed(origin: string, allowed: readonly string[] | undefined): boolean {
  if (allowed !== undefined) return allowed.includes(origin.toLowerCase());
  if (!URL.canParse(origin)) return false; // `null`, from a sandboxed page or a file
  const url = new URL(origin);
  return (url.protocol === 'http:' || url.protocol === 'https:') && loopback.has(url.hostname);
}

/** The name or address of a `host[:port]`, lowercased; undefined when it is no host. */
function hostname(host: string): string | undefined {
  if (!HOST.test(host)) return undefined;
  return URL.canParse(`http://${host}`) ? new URL(`http://${host}`).hostname : undefined;
}

async function checkToken(request: Request, expected: Uint8Array): Promise<Response | undefined> {
  const authorization = request.headers.get('authorization');
  if (authorization === null) return unauthorized('Unauthorized: a bearer token is required', undefined);
  const given = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
  if (given !== undefined && sameBytes(await digest(given), expected)) return undefined;
  return unauthorized('Unauthorized: the bearer token is not valid', 'invalid_token');
}

/** SHA-256 of `text`: tokens are compared by digest, so the comparison's time tells nothing of them. */
async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** Constant time: every byte is looked at, whatever the first difference. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.byteLength ^ b.byteLength;
  for (let i = 0; i < a.byteLength; i++) difference |= (a[i] as number) ^ (b[i] ?? 0);
  return difference === 0;
}

function forbidden(message: string): Response {
  return jsonRpcErrorResponse(403, jsonRpcError(null, jsonRpcCodes.serverError, message));
}

/** 401 with the challenge of RFC 6750, section 3: `error` only when a token was given. */
function unauthorized(message: string, error: 'invalid_token' | undefined): Response {
  const challenge = `Bearer realm="longship"${error === undefined ? '' : `, error="${error}"`}`;
  return jsonRpcErrorResponse(401, jsonRpcError(null, jsonRpcCodes.serverError, message), {
    'WWW-Authenticate': challenge,
  });
}

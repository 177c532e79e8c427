// How large one MCP message may be, on either transport (docs/guide/mcp.md, "Limits"). Large enough to
// carry a document at the ingestion limit: JSON escapes a quote, a backslash, a newline or a tab
// as two characters, so a text of n bytes is at most 2n in a message (other control characters
// are refused as binary long before they could matter), plus the request around it.

import * as v from 'valibot';
import { defaultMaxBytes } from '../context/text-checks.js';
import { wholeNumber } from '../options.js';

/** Room for the JSON-RPC envelope and the tool's other arguments (name, target, reason). */
const FRAMING_BYTES = 64 * 1024;

/** 20 MiB + 64 KiB: twice the document limit (10 MiB), plus the envelope. */
export const defaultMaxMessageBytes = 2 * defaultMaxBytes + FRAMING_BYTES;

/** The `maxMessageBytes` option: at least 1 KiB, so that a client's handshake always fits. */
export const maxMessageBytesSchema = v.optional(wholeNumber(1024));

/** What a refused message is told (JSON-RPC error `message`), and what is logged. */
export function messageTooLarge(byteLength: number | undefined, maxBytes: number): string {
  const size = byteLength === undefined ? `more than ${maxBytes} bytes` : `${byteLength} bytes`;
  return `message too large: ${size}; the limit is ${maxBytes} bytes (maxMessageBytes)`;
}

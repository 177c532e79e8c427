// MCP's stdio transport, ours rather than the SDK's StdioServerTransport: that one buffers at most
// 10 MiB and, past it, closes itself without a word, so a document at the ingestion limit could not
// be sent and one large message ended the server (issue 33). This one answers every line: a
// message, or a JSON-RPC error for a line too large, not JSON or not JSON-RPC, and goes on.

import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { type JsonRpcError, jsonRpcCodes, jsonRpcError } from './json-rpc-error.js';
import { type Line, LineReader } from './line-reader.js';
import { messageTooLarge } from './message-limit.js';

export interface StdioTransportOptions {
  stdin: Readable;
  stdout: Writable;
  /** The largest line taken, in bytes (docs/guide/mcp.md, "Limits"). */
  maxMessageBytes: number;
  /** Where a refused line is reported (a line of text; stdout is the protocol's). */
  log: (line: string) => void;
}

/**
 * Newline-delimited JSON-RPC on a pair of Node streams, with a limit on a message's size.
 *
 * @example
 * await server.connect(new StdioTransport({ stdin, stdout, maxMessageBytes, log }));
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: StdioTransportOptions;
  readonly #lines: LineReader;

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.#lines = new LineReader(options.maxMessageBytes);
  }

  async start(): Promise<void> {
    this.#options.stdin.on('data', this.#ondata);
    this.#options.stdin.on('error', this.#onerror);
  }

  async close(): Promise<void> {
    const { stdin } = this.#options;
    stdin.off('data', this.#ondata);
    stdin.off('error', this.#onerror);
    // Paused, so that the process can exit; unless someone else reads it too.
    if (stdin.listenerCount('data') === 0) stdin.pause();
    this.onclose?.();
  }

  send(message: JSONRPCMessage | JsonRpcError): Promise<void> {
    return new Promise((resolve) => {
      if (this.#options.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#options.stdout.once('drain', resolve);
    });
  }

  readonly #ondata = (chunk: Uint8Array): void => {
    for (const line of this.#lines.push(chunk)) this.#receive(line);
  };

  readonly #onerror = (error: Error): void => {
    this.onerror?.(error);
  };

  #receive(line: Line): void {
    if (line.kind === 'too-long') {
      const { maxMessageBytes } = this.#options;
      this.#refuse(
        jsonRpcError(
          recoverMessageId(line.head, line.tail),
          jsonRpcCodes.invalidRequest,
          messageTooLarge(line.byteLength, maxMessageBytes),
          { code: 'INPUT_TOO_LARGE', maxBytes: maxMessageBytes },
        ),
      );
      return;
    }
    if (line.text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      this.#refuse(jsonRpcError(null, jsonRpcCodes.parseError, `Parse error: ${(error as Error).message}`));
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.#refuse(
        jsonRpcError(
          typeof id === 'string' || typeof id === 'number' ? id : null,
          jsonRpcCodes.invalidRequest,
          'Invalid Request: not a JSON-RPC 2.0 message',
        ),
      );
      return;
    }
    try {
      this.onmessage?.(message.data);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  #refuse(response: JsonRpcError): void {
    this.#options.log(`longship: refused a message: ${response.error.message}`);
    void this.send(response);
  }
}

// The id of a JSON-RPC request too large to parse, read from the two ends of its line that were
// kept (line-reader.ts), so that its refusal reaches the call that is waiting for it.

/** A JSON-RPC id: a whole number or a JSON string. */
const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/** The id among the object's first members, after `jsonrpc` and `method` (as Python's SDK writes). */
const LEADING = new RegExp(
  String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*${STRING}\s*,)*\s*"id"\s*:\s*${ID}\s*[,}]`,
);
// The id as the object's last member (the TypeScript SDK puts it there). Only the top-level
// object's brace may follow it: an `"id"` nested in params would be followed by two. A quote
// inside a string is escaped, so `,"id"` is always a member, never text.
const TRAILING = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The id of the message whose line starts with `head` and ends with `tail`, or null when neither
 * end shows it (JSON-RPC then answers with id null).
 *
 * @example
 * recoverMessageId('{"method":"tools/call","params":{"a', 'zz"}},"jsonrpc":"2.0","id":4}'); // 4
 */
export function recoverMessageId(head: string, tail: string): string | number | null {
  const match = LEADING.exec(head) ?? TRAILING.exec(tail);
  return match?.[1] === undefined ? null : (JSON.parse(match[1]) as string | number);
}

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

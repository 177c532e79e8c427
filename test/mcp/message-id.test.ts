// The id of a message too large to parse, from the ends of its line: first among the leading
// members, or last in the top-level object; never an "id" nested in params or inside a string.

import { expect, it } from 'vitest';
import { recoverMessageId } from '../../src/mcp/stdio-transport.js';

it('reads an id written first, after jsonrpc and method, or last', () => {
  expect(recoverMessageId('{"id":3,"jsonrpc":"2.0","method":"tools/call","params":{"a', '')).toBe(3);
  expect(recoverMessageId('{"jsonrpc":"2.0", "method":"tools/call", "id":"a\\"b","params":{"x', '')).toBe(
    'a"b',
  );
  expect(
    recoverMessageId('{"method":"tools/call","params":{"arguments', 'zz"}},"jsonrpc":"2.0","id":-4}\r'),
  ).toBe(-4);
});

it('answers null when neither end shows the top-level id', () => {
  expect(recoverMessageId('xxxx', 'xxxx')).toBeNull();
  // An id inside params: after it come two closing braces, not one.
  expect(recoverMessageId('{"jsonrpc":"2.0","method":"m","params":{"a', '"b","id":5}}')).toBeNull();
  // Inside a string a quote is escaped, so text that looks like an id is not one.
  expect(recoverMessageId('{"params":{"text":"a', 'b,\\"id\\":5}"}}')).toBeNull();
  // A member before the id whose value is an object: the head cannot tell where it ends.
  expect(recoverMessageId('{"params":{"id":1},"id":2', '')).toBeNull();
  // A notification has no id.
  expect(recoverMessageId('{"jsonrpc":"2.0","method":"notifications/x","params":{"a', '"b"}}')).toBeNull();
});

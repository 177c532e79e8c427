// Lines out of a byte stream with a limit on their size: split anywhere, kept whole up to the
// limit, and past it only their two ends.

import { expect, it } from 'vitest';
import { LineReader } from '../../src/mcp/line-reader.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `text` to `reader` in pieces of `size` bytes and collects the lines. */
function feed(reader: LineReader, text: string, size: number) {
  const all = bytes(text);
  const lines = [];
  for (let at = 0; at < all.byteLength; at += size) lines.push(...reader.push(all.subarray(at, at + size)));
  return lines;
}

it('splits lines across chunks of any size, multi-byte characters and CRLF included', () => {
  const text = '{"a":"é"}\r\n\n{"b":"€𝄞"}\npartial';
  for (const size of [1, 2, 3, 5, 64]) {
    expect(feed(new LineReader(100), text, size)).toEqual([
      { kind: 'text', text: '{"a":"é"}' },
      { kind: 'text', text: '' },
      { kind: 'text', text: '{"b":"€𝄞"}' },
    ]);
  }
});

it('keeps a line of exactly maxBytes bytes and refuses one byte more, keeping its ends', () => {
  const reader = new LineReader(10);
  expect(reader.push(bytes('0123456789\n'))).toEqual([{ kind: 'text', text: '0123456789' }]);
  expect(reader.push(bytes('0123456789a\n'))).toEqual([
    { kind: 'too-long', byteLength: 11, head: '0123456789a', tail: '0123456789a' },
  ]);
  // The reader is whole again for the next line.
  expect(reader.push(bytes('ok\n'))).toEqual([{ kind: 'text', text: 'ok' }]);
});

it('keeps only the first and last KiB of a long line, however it arrives', () => {
  const line = `${'h'.repeat(1024)}${'m'.repeat(50_000)}${'t'.repeat(1024)}`;
  for (const size of [7, 1000, 4096, 60_000]) {
    expect(feed(new LineReader(2048), `${line}\nnext\n`, size)).toEqual([
      { kind: 'too-long', byteLength: line.length, head: 'h'.repeat(1024), tail: 't'.repeat(1024) },
      { kind: 'text', text: 'next' },
    ]);
  }
});

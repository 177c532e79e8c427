import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { normalisePath, readInput } from '../../src/ingest/input.js';
import { decodeText } from '../../src/ingest/parse/decode.js';
import { rejectsWith } from './fixtures.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A fetch stand-in answering every request with `body` and `init`. */
function fakeFetch(body: BodyInit | null, init: ResponseInit = {}) {
  const calls: URL[] = [];
  const fetch = async (url: URL, request?: RequestInit) => {
    calls.push(url);
    request?.signal?.throwIfAborted();
    return new Response(body, init);
  };
  return { fetch, calls };
}

describe('readInput: strings, bytes and Blobs', () => {
  it('reads a named string and detects its format from the name', async () => {
    const { documents, skipped } = await readInput('# Notes\n\nHello.', { name: 'notes.md' });
    expect(documents).toEqual([{ path: 'notes.md', content: '# Notes\n\nHello.', format: 'markdown' }]);
    expect(skipped).toEqual([]);
  });

  it('leaves an unnamed string without a path and sniffs its format', async () => {
    const { documents } = await readInput('<!doctype html><title>x</title><p>y</p>');
    expect(documents[0]).toMatchObject({ path: '', format: 'html' });
  });

  it('reads a File by its own name and a Blob by options.name', async () => {
    const file = new File(['{"a": 1}'], 'data.json', { type: 'application/json' });
    expect((await readInput(file)).documents[0]).toMatchObject({ path: 'data.json', format: 'json' });
    const blob = new Blob(['def f():\n    pass\n']);
    expect((await readInput(blob, { name: 'tool.py' })).documents[0]).toMatchObject({
      path: 'tool.py',
      content: 'def f():\n    pass\n',
      format: 'code',
    });
  });

  it('decodes UTF-8 bytes, drops a BOM, and honours a UTF-16 byte-order mark', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('héllo')]);
    expect((await readInput(bom, { name: 'a.txt' })).documents[0]!.content).toBe('héllo');
    const utf16 = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
    expect((await readInput(utf16, { name: 'b.txt' })).documents[0]!.content).toBe('hi');
  });

  it('refuses binary input: NUL bytes, invalid UTF-8, mostly control characters', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    await rejectsWith(() => readInput(png, { name: 'x.png' }), 'BINARY_INPUT');
    await rejectsWith(() => readInput(new Uint8Array([0x68, 0xc3, 0x28, 0x69])), 'BINARY_INPUT');
    await rejectsWith(() => readInput('text\u0000more'), 'BINARY_INPUT');
    await rejectsWith(() => readInput('\u0001\u0002\u0003\u0004abc'), 'BINARY_INPUT');
    // Tabs, newlines, form feeds and escapes are text.
    await expect(readInput('a\tb\r\nc\fd\u001b[0m')).resolves.toBeDefined();
  });

  it('refuses oversized input before reading it, with the sizes in the message', async () => {
    const error = await rejectsWith(() => readInput('x'.repeat(101), { maxBytes: 100 }), 'INPUT_TOO_LARGE');
    expect(error.message).toMatch(/101 bytes; the limit is 100/);
    // Multi-byte characters count in UTF-8 bytes: 40 × 'é' is 80 bytes.
    await rejectsWith(() => readInput('é'.repeat(40), { maxBytes: 79 }), 'INPUT_TOO_LARGE');
    await expect(readInput('é'.repeat(40), { maxBytes: 80 })).resolves.toBeDefined();
    const big = new Blob([new Uint8Array(2048)]);
    await rejectsWith(() => readInput(big, { maxBytes: 1024 }), 'INPUT_TOO_LARGE');
  });

  it('refuses what it cannot read, and a non-positive limit', async () => {
    await rejectsWith(() => readInput(42 as never), 'UNSUPPORTED_INPUT');
    await rejectsWith(() => readInput('x', { maxBytes: 0 }), 'INVALID_ARGUMENT');
    await rejectsWith(
      () => Promise.resolve(decodeText('x', utf8('x'), 10, 'no-such-charset')),
      'UNSUPPORTED_INPUT',
    );
  });

  it('reports an abort as ABORTED with the reason as cause', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const error = await rejectsWith(() => readInput('x', { signal: controller.signal }), 'ABORTED');
    expect((error.cause as Error).message).toBe('stop');
  });
});

describe('readInput: folders', () => {
  it('tells of each file read, skipped ones too, in order', async () => {
    const heard: string[] = [];
    const folder = [
      { path: 'a.md', content: '# A\n' },
      { path: 'image.png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) },
      { path: 'b.md', content: '# B\n' },
    ];
    const { skipped } = await readInput(folder, {}, (done, total) => heard.push(`${done}/${total}`));
    expect(skipped.map((s) => s.path)).toEqual(['image.png']);
    expect(heard).toEqual(['1/3', '2/3', '3/3']);
  });

  it('normalises paths, prefixes options.name, and skips binary and oversized files', async () => {
    const { documents, skipped } = await readInput(
      [
        { path: './docs\\guide.md', content: '# Guide' },
        { path: 'img/logo.png', content: new Uint8Array([0x89, 0x50, 0, 0]) },
        { path: 'big.txt', content: 'x'.repeat(200) },
        { path: 'src/a.ts', content: new Blob(['export const a = 1;\n']) },
      ],
      { name: 'repo', maxBytes: 100 },
    );
    expect(documents.map((d) => [d.path, d.format])).toEqual([
      ['repo/docs/guide.md', 'markdown'],
      ['repo/src/a.ts', 'code'],
    ]);
    expect(skipped.map((s) => [s.path, s.error.code])).toEqual([
      ['repo/img/logo.png', 'BINARY_INPUT'],
      ['repo/big.txt', 'INPUT_TOO_LARGE'],
    ]);
  });

  it('throws the first refusal when nothing in the folder is readable', async () => {
    await rejectsWith(() => readInput([{ path: 'a.bin', content: new Uint8Array([0, 1]) }]), 'BINARY_INPUT');
  });

  it('refuses empty folders, duplicate paths and paths leaving the folder', async () => {
    await rejectsWith(() => readInput([]), 'INVALID_ARGUMENT');
    await rejectsWith(
      () =>
        readInput([
          { path: 'a/b.md', content: 'x' },
          { path: 'a//b.md', content: 'y' },
        ]),
      'INVALID_ARGUMENT',
    );
    await rejectsWith(() => readInput([{ path: '../etc/passwd', content: 'x' }]), 'INVALID_ARGUMENT');
    expect(() => normalisePath('a/../../b')).toThrow(LongshipError);
    expect(normalisePath('/a/./b//c/')).toBe('a/b/c');
  });
});

describe('readInput: URLs', () => {
  const url = new URL('https://example.test/docs/Getting%20Started.md');

  it('needs a fetch function', async () => {
    const error = await rejectsWith(() => readInput(url), 'UNSUPPORTED_INPUT');
    expect(error.message).toMatch(/no fetch function/);
  });

  it('fetches, names the document after the URL, and uses the Content-Type', async () => {
    const { fetch, calls } = fakeFetch('# Start\n\nHi.', {
      headers: { 'content-type': 'text/markdown; charset=utf-8' },
    });
    const { documents } = await readInput(url, { fetch });
    expect(calls).toEqual([url]);
    expect(documents[0]).toEqual({
      path: 'Getting Started.md',
      content: '# Start\n\nHi.',
      format: 'markdown',
    });
    const page = fakeFetch('<h1>Hi</h1>', { headers: { 'content-type': 'text/html' } });
    const home = await readInput(new URL('https://example.test/'), { fetch: page.fetch });
    expect(home.documents[0]).toMatchObject({ path: 'example.test', format: 'html' });
  });

  it('decodes a declared charset', async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    const { fetch } = fakeFetch(latin1, { headers: { 'content-type': 'text/plain; charset=iso-8859-1' } });
    expect((await readInput(url, { fetch })).documents[0]!.content).toBe('café');
  });

  it('turns HTTP errors, network errors and aborts into typed errors', async () => {
    await rejectsWith(() => readInput(url, { fetch: fakeFetch('no', { status: 404 }).fetch }), 'REMOTE_HTTP');
    const failing = async () => {
      throw new TypeError('network down');
    };
    const error = await rejectsWith(() => readInput(url, { fetch: failing }), 'REMOTE_HTTP');
    expect((error.cause as Error).message).toBe('network down');
    const controller = new AbortController();
    const aborting = async () => {
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    };
    await rejectsWith(() => readInput(url, { fetch: aborting, signal: controller.signal }), 'ABORTED');
    const broken = new ReadableStream<Uint8Array>({
      pull(stream) {
        stream.error(new TypeError('connection reset'));
      },
    });
    const cut = await rejectsWith(() => readInput(url, { fetch: fakeFetch(broken).fetch }), 'REMOTE_HTTP');
    expect(cut.message).toMatch(/reading https:\/\/example.test/);
  });

  it('refuses binary content types and bodies over the limit, declared or streamed', async () => {
    const image = fakeFetch(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } });
    await rejectsWith(() => readInput(url, { fetch: image.fetch }), 'BINARY_INPUT');
    const declared = fakeFetch('x'.repeat(10), { headers: { 'content-length': '5000' } });
    await rejectsWith(() => readInput(url, { fetch: declared.fetch, maxBytes: 100 }), 'INPUT_TOO_LARGE');
    const chunks = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64).fill(0x61));
      },
    });
    const endless = fakeFetch(chunks, { headers: { 'content-type': 'text/plain' } });
    await rejectsWith(() => readInput(url, { fetch: endless.fetch, maxBytes: 1000 }), 'INPUT_TOO_LARGE');
  });
});

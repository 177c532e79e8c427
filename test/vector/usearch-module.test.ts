import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createVectorIndex, loadUsearch, type UsearchModule } from '../../src/exports/vector.js';
import { LongshipError } from '../../src/index.js';

const wasmUrl = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

/** Adds three vectors and returns the nearest key to a query: proof that the module really works. */
function nearest(usearch: UsearchModule): number {
  const index = createVectorIndex(usearch, { dimensions: 3 });
  index.add(10, new Float32Array([1, 0, 0]));
  index.add(20, new Float32Array([0, 1, 0]));
  index.add(30, new Float32Array([0, 0, 1]));
  const key = index.search(new Float32Array([0.1, 0.9, 0.2]), 1)[0]!.key;
  index.dispose();
  return key;
}

describe('loadUsearch', () => {
  it('loads from every kind of source', async () => {
    const bytes = await readFile(wasmUrl);
    const copy = () => new Uint8Array(bytes);
    const sources = {
      default: undefined,
      'file URL': wasmUrl,
      Uint8Array: copy(),
      ArrayBuffer: copy().buffer,
      'WebAssembly.Module': await WebAssembly.compile(copy()),
      'Response (application/wasm, streamed)': new Response(copy(), {
        headers: { 'content-type': 'application/wasm' },
      }),
      'Response (no content type)': new Response(copy()),
    };
    for (const [name, source] of Object.entries(sources)) {
      const usearch = await loadUsearch(source);
      expect(usearch.memory, name).toBeInstanceOf(WebAssembly.Memory);
      expect(nearest(usearch), name).toBe(20);
    }
  });

  it('gives each module its own heap', async () => {
    const [a, b] = await Promise.all([loadUsearch(), loadUsearch()]);
    expect(a.memory).not.toBe(b.memory);
    const index = createVectorIndex(a, { dimensions: 2 });
    const before = b.exports._longship_heap_used();
    index.reserve(10_000);
    expect(b.exports._longship_heap_used()).toBe(before);
    index.dispose();
  });

  it('fails with WASM_LOAD and keeps the cause, instead of hanging', { timeout: 10_000 }, async () => {
    const notOurs = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    const sources: Record<string, () => Parameters<typeof loadUsearch>[0]> = {
      'bad bytes': () => new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 255]),
      'not wasm': () => new TextEncoder().encode('<html>'),
      'missing file': () => new URL('file:///nonexistent/usearch.wasm'),
      'HTTP 404': () => new Response('not found', { status: 404 }),
      // The glue's receiveInstance() throws on it: this load used to hang forever.
      'a module without our exports': () => notOurs,
    };
    for (const [name, source] of Object.entries(sources)) {
      const error = await loadUsearch(source()).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(LongshipError);
      expect((error as LongshipError).code, name).toBe('WASM_LOAD');
      expect((error as LongshipError).cause, name).toBeDefined();
    }
  });
});

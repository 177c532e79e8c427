import createUsearchModule, { type UsearchExports } from '../../wasm/dist/usearch.js';
import { cspAdvice } from '../csp.js';
import { readPackageFile } from '../env/runtime.js';
import { type ErrorCode, LongshipError } from '../errors.js';
import type { WasmMemory, WasmModule } from '../web-types.js';

/** What the WASM module can be made from: its bytes, a compiled module, a response or a URL to fetch. */
export type WasmSource = ArrayBuffer | ArrayBufferView | WasmModule | Response | URL;

/** One instantiated USearch module. Many indexes share it (and its heap, which never shrinks). */
export interface UsearchModule {
  readonly exports: UsearchExports;
  readonly memory: WasmMemory;
}

// Mirrors longship_status_t in wasm/binding.cpp.
const statusCodes: readonly ErrorCode[] = [
  'INVALID_ARGUMENT', // 0 is ok and never looked up
  'INVALID_ARGUMENT',
  'OUT_OF_MEMORY',
  'DUPLICATE_KEY',
  'READ_ONLY',
  'CORRUPT_INDEX',
  'INDEX_ERROR',
];

const defaultWasmUrl = () => new URL('../../wasm/dist/usearch.wasm', import.meta.url);

async function instantiate(source: WasmSource, imports: WebAssembly.Imports): Promise<WebAssembly.Instance> {
  if (source instanceof WebAssembly.Module) return WebAssembly.instantiate(source, imports);
  if (source instanceof URL) return instantiate(await readPackageFile(source), imports);
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (!source.ok) throw new Error(`HTTP ${source.status} for ${source.url}`);
    // Streaming compile needs the application/wasm content type; fall back to bytes without it.
    if (source.headers.get('content-type')?.startsWith('application/wasm')) {
      return (await WebAssembly.instantiateStreaming(source, imports)).instance;
    }
    return instantiate(await source.arrayBuffer(), imports);
  }
  return (await WebAssembly.instantiate(source as BufferSource, imports)).instance;
}

/**
 * Loads the USearch WebAssembly module. Without a source it reads `wasm/dist/usearch.wasm` next to this
 * package (file system on Node and Deno, `fetch` in browsers and workers). On Cloudflare Workers import the
 * `.wasm` file as a module and pass the `WebAssembly.Module`.
 *
 * @example
 * const usearch = await loadUsearch();
 * const index = createVectorIndex(usearch, { dimensions: 384 });
 */
export async function loadUsearch(source: WasmSource = defaultWasmUrl()): Promise<UsearchModule> {
  let memory: WebAssembly.Memory | undefined;
  let fail: (error: unknown) => void = () => {};
  // The glue waits forever if instantiateWasm never calls back, so a failure must win a race.
  const failure = new Promise<never>((_, reject) => {
    fail = reject;
  });
  try {
    const glue = createUsearchModule({
      // Without locateFile the glue resolves new URL('usearch.wasm', import.meta.url), which throws in
      // workerd (import.meta.url is undefined there). The name is never fetched: instantiateWasm is.
      locateFile: (file) => file,
      instantiateWasm(imports, receive) {
        // receive() throws for a module that is not ours: that must fail the load too, not hang it.
        instantiate(source, imports as WebAssembly.Imports)
          .then((instance) => {
            memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory);
            receive(instance);
          })
          .catch(fail);
        return {};
      },
    });
    const exports = await Promise.race([glue, failure]);
    if (!memory) throw new Error('the module exports no memory');
    return { exports, memory };
  } catch (error) {
    const advice = cspAdvice(error);
    throw new LongshipError(
      'WASM_LOAD',
      `Could not load the USearch WebAssembly module: ${String(error)}${advice}`,
      {
        cause: error,
      },
    );
  }
}

/** Reads a status code and the C string behind an error out-parameter, and throws if it is not ok. */
export function check(module: UsearchModule, status: number, errorSlot: number, what: string): void {
  if (status === 0) return;
  const messagePointer = new Uint32Array(module.memory.buffer, errorSlot, 1)[0]!;
  const message = messagePointer ? readCString(module, messagePointer) : 'unknown error';
  throw new LongshipError(statusCodes[status] ?? 'INDEX_ERROR', `${what}: ${message}`);
}

function readCString(module: UsearchModule, pointer: number): string {
  const heap = new Uint8Array(module.memory.buffer);
  let end = pointer;
  while (heap[end] !== 0 && end < heap.length) end++;
  return new TextDecoder().decode(heap.subarray(pointer, end));
}

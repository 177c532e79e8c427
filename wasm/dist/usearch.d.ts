// Types for the emscripten glue built by wasm/build.sh (hand-written; the glue is generated).
export interface UsearchModuleOptions {
  /** Instantiates the module ourselves, so the glue never guesses how to fetch it. */
  instantiateWasm?: (
    // Shapes, not WebAssembly's types: these declarations reach a user's project, which may have
    // no DOM lib to define them (docs/guide/package.md).
    imports: Record<string, Record<string, unknown>>,
    receive: (instance: { readonly exports: object }, module?: object) => void,
  ) => object;
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where the glue would fetch a file from; given, it skips `new URL(file, import.meta.url)`. */
  locateFile?: (file: string, scriptDirectory: string) => string;
}

export interface UsearchExports {
  readonly HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  // Signatures in wasm/binding.cpp; pointers and sizes are numbers.
  _longship_index_new(...args: number[]): number;
  _longship_index_free(...args: number[]): number;
  _longship_reserve(...args: number[]): number;
  _longship_add(...args: number[]): number;
  _longship_search(...args: number[]): number;
  _longship_filtered_search(...args: number[]): number;
  _longship_score_keys(...args: number[]): number;
  _longship_f32_distances(...args: number[]): number;
  _longship_remove(...args: number[]): number;
  _longship_contains(...args: number[]): number;
  _longship_get(...args: number[]): number;
  _longship_size(...args: number[]): number;
  _longship_capacity(...args: number[]): number;
  _longship_dimensions(...args: number[]): number;
  _longship_connectivity(...args: number[]): number;
  _longship_metric(...args: number[]): number;
  _longship_scalar(...args: number[]): number;
  _longship_memory_usage(...args: number[]): number;
  _longship_change_expansion(...args: number[]): number;
  _longship_serialized_length(...args: number[]): number;
  _longship_save(...args: number[]): number;
  _longship_load(...args: number[]): number;
  _longship_adopt(...args: number[]): void;
  _longship_heap_used(...args: number[]): number;
}

export default function createUsearchModule(options?: UsearchModuleOptions): Promise<UsearchExports>;

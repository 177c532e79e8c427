/** One engine's figures: one element of the JSON array the benchmark writes. */
export interface Row {
  engine: string;
  /** Vectors indexed (may be below the run's n for a peer too slow for it; the note says so). */
  n: number;
  dims: number;
  quantization: string;
  build_s: number | null;
  search_p50_ms: number | null;
  search_p95_ms: number | null;
  recall10: number | null;
  memory_mb: number | null;
  /** Serialized size. */
  bytes: number | null;
  /** Time to open the serialized bytes into a searchable index. */
  load_ms: number | null;
  /** Why a figure is null, and anything else a reader must know about this row. */
  note?: string;
  /** How memory_mb was measured. */
  memory_how?: string;
  /** Longship: load of a fresh WASM module's heap is cold; this is a load into an already-grown heap. */
  load_warm_ms?: number | null;
  /** Longship and native USearch: open the bytes in place, read-only. */
  view_ms?: number | null;
  view_warm_ms?: number | null;
  /** Longship, in place: writing the bytes into a fresh instance's heap (allocateIndexBytes, 1 MiB pieces). */
  fill_ms?: number | null;
  /** Longship, in place: opening bytes already written into the heap, as a writable copy or as a view. */
  open_load_ms?: number | null;
  open_view_ms?: number | null;
  /** Longship, in place: the same open in the instance whose heap the build already grew (no page faults). */
  open_load_warm_ms?: number | null;
  open_view_warm_ms?: number | null;
  /** Recall@k of the index opened from its serialized bytes (the same queries). */
  load_recall10?: number | null;
  view_recall10?: number | null;
  save_ms?: number | null;
  /** Quantized rows: recall and latency before rescoring with f32 vectors. */
  recall10_no_rescore?: number | null;
  search_p50_ms_no_rescore?: number | null;
  /** WASM engines: the module's whole linear memory after the build (it never shrinks). */
  wasm_heap_mb?: number | null;
  adds_per_s?: number | null;
  /** CPU time of the engine's process (all threads) for the build and per query: robust to other work on the cores. */
  build_cpu_s?: number | null;
  search_cpu_p50_ms?: number | null;
  search_cpu_p95_ms?: number | null;
  /** Longship: growth of the process's resident memory over the build, measured as for usearch-native. */
  rss_mb?: number | null;
  /** Wall time of the engine's child process, seconds. */
  wall_s?: number;
  /** The machine's 1-minute load average when the engine started and when it ended (other work shares the cores). */
  load_avg?: [number, number];
}

export type Measured = Omit<Row, 'engine' | 'n' | 'dims' | 'note'> & { notes: string[] };

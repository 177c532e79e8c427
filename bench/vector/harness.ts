import { median, quantile, recallAtK } from '../lib/stats.js';
import type { Measured } from './row.js';

/** The HNSW parameters every graph engine gets. */
export const graph = { connectivity: 16, expansionAdd: 128, expansionSearch: 64 } as const;

/** What a child process hands its engine adapter. */
export interface EngineContext {
  engine: string;
  n: number;
  dims: number;
  k: number;
  seed: number;
  /** `n × dims` f32, row-major, L2-normalised; the key of row i is i. */
  base: Float32Array;
  /** `queries × dims`. */
  queries: Float32Array;
  queryCount: number;
  /** Exact top-k keys, `queries × k`. */
  truth: Int32Array;
  /** A scratch directory for engines that save to files. */
  scratch: string;
  /** Reports how far a long step got (the parent keeps the last one for a timeout's note). */
  progress(message: string): void;
}

export function row(ctx: EngineContext, i: number): Float32Array {
  return ctx.base.subarray(i * ctx.dims, (i + 1) * ctx.dims);
}

export function query(ctx: EngineContext, q: number): Float32Array {
  return ctx.queries.subarray(q * ctx.dims, (q + 1) * ctx.dims);
}

export interface SearchFigures {
  p50: number;
  p95: number;
  /** The same from this process's CPU time, which other processes' work on shared cores does not inflate. */
  cpuP50: number;
  cpuP95: number;
  recall: number;
  found: number[][];
}

/** Queries answered untimed first, to warm the JIT and caches, before the timed pass over all queries. */
const warmup = 20;

/**
 * Times every query one at a time (k nearest, keys only) and scores recall against the exact answer.
 * The same queries, in the same order, for every engine.
 */
export async function measureSearch(
  ctx: EngineContext,
  search: (query: Float32Array) => number[] | Promise<number[]>,
): Promise<SearchFigures> {
  for (let q = 0; q < Math.min(warmup, ctx.queryCount); q++) await search(query(ctx, q));
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const found: number[][] = [];
  for (let q = 0; q < ctx.queryCount; q++) {
    const vector = query(ctx, q);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const keys = await search(vector);
    times.push(performance.now() - started);
    cpuTimes.push(cpuMs(process.cpuUsage(cpu)));
    found.push(keys);
  }
  return {
    p50: median(times),
    p95: quantile(times, 0.95),
    cpuP50: median(cpuTimes),
    cpuP95: quantile(cpuTimes, 0.95),
    recall: recallAtK(found, ctx.truth, ctx.k),
    found,
  };
}

/** Recall of an index opened from bytes, untimed. */
export async function measureRecall(
  ctx: EngineContext,
  search: (query: Float32Array) => number[] | Promise<number[]>,
): Promise<number> {
  const found: number[][] = [];
  for (let q = 0; q < ctx.queryCount; q++) found.push(await search(query(ctx, q)));
  return recallAtK(found, ctx.truth, ctx.k);
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

export interface Timed<T> {
  value: T;
  /** Wall-clock milliseconds. */
  ms: number;
  /** Milliseconds of this process's CPU time (all its threads). */
  cpuMs: number;
}

export async function timed<T>(run: () => T | Promise<T>): Promise<Timed<T>> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started, cpuMs: cpuMs(process.cpuUsage(cpu)) };
}

/** The figures every engine reports the same way: its build and its timed search pass. */
export function buildAndSearch(n: number, built: Timed<unknown>, searched: SearchFigures) {
  return {
    build_s: built.ms / 1000,
    build_cpu_s: built.cpuMs / 1000,
    adds_per_s: n / (built.ms / 1000),
    search_p50_ms: searched.p50,
    search_p95_ms: searched.p95,
    search_cpu_p50_ms: searched.cpuP50,
    search_cpu_p95_ms: searched.cpuP95,
    recall10: searched.recall,
  };
}

declare const gc: (() => void) | undefined;

/** Collects garbage (the child runs with --expose-gc) so that heap figures mean live objects. */
export function collect(): void {
  if (typeof gc === 'function') {
    gc();
    gc();
  }
}

/** Live JS heap plus off-heap buffers (ArrayBuffers, WASM memories), after a collection. */
export function jsBytes(): number {
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

export function rssBytes(): number {
  collect();
  return process.memoryUsage().rss;
}

export const MB = 1024 * 1024;

/**
 * The top of a WASM module's malloc heap: the address of a fresh 1 MB block, which no freed hole holds
 * in a heap that only grew, so it comes from the top. Its difference across a build is what the build
 * took from the heap (finer than the growth of the linear memory, which grows in large steps).
 */
export function heapTop(malloc: (bytes: number) => number, free: (pointer: number) => void): number {
  const pointer = malloc(MB) >>> 0;
  free(pointer);
  return pointer;
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** An engine adapter: builds, searches, serializes and reloads one engine, and reports what it measured. */
export type EngineRun = (ctx: EngineContext) => Promise<Measured>;

// `longship/cloudflare`: a Longship's store in a SQLite-backed Durable Object's storage
// (docs/guide/durable-objects.md). Nothing of the engine: `openLongship` comes from `longship`.

export type { DurableObjectStore } from '../store/durable-object/durable-object-store.js';
export { openDurableObjectStore } from '../store/durable-object/open-durable-object-store.js';
export type {
  DurableObjectSqlStorage,
  SqlCursor,
  SqlStorage,
  SqlValue,
} from '../store/durable-object/sql-storage.js';

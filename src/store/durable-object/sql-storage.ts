// What the Durable Object store needs of `ctx.storage`: the SQL handle and one synchronous
// transaction. Declared here rather than taken from @cloudflare/workers-types, so the package needs
// no Cloudflare types and a test can hand in anything of this shape (docs/guide/durable-objects.md).

/** A value SQLite stores: BLOBs are bound as `Uint8Array`s and come back as `ArrayBuffer`s. */
export type SqlValue = string | number | null | ArrayBuffer | Uint8Array;

/** The rows of one statement, as `ctx.storage.sql.exec()` returns them. */
export interface SqlCursor {
  toArray(): Record<string, SqlValue>[];
  [Symbol.iterator](): Iterator<Record<string, SqlValue>>;
}

/** `ctx.storage.sql`: synchronous SQLite, private to one Durable Object. */
export interface SqlStorage {
  exec(query: string, ...bindings: SqlValue[]): SqlCursor;
}

/** The part of a SQLite-backed Durable Object's `ctx.storage` the store uses. */
export interface DurableObjectSqlStorage {
  readonly sql: SqlStorage;
  /** Runs `fn` in one transaction: rolled back if it throws. */
  transactionSync<T>(fn: () => T): T;
}

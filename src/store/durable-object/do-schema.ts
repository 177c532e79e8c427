// The tables a Durable Object store keeps in the object's SQLite database, each prefixed so they sit
// beside the object's own. Records are tagged JSON (tagged-json.ts) beside the columns that are
// looked up; vectors are little-endian Float32 BLOBs. A row holds at most 2 MB (Cloudflare's limit
// on a row, a string and a BLOB), so snapshot chunks are stored in parts of SNAPSHOT_PART_BYTES
// (docs/guide/durable-objects.md).

import { LongshipError } from '../../errors.js';
import { storeError } from './do-errors.js';
import type { DurableObjectSqlStorage } from './sql-storage.js';

/** The version of these tables; a database written by a newer one is refused. */
export const DO_SCHEMA_VERSION = 1;

/** Bytes of a snapshot in one row: well under the 2 MB a row may hold. */
export const SNAPSHOT_PART_BYTES = 1024 * 1024;

export const TABLES = [
  'longship_meta',
  'longship_nodes',
  'longship_vectors',
  'longship_postings',
  'longship_relations',
  'longship_changes',
  'longship_snapshots',
  'longship_snapshot_parts',
] as const;

const CREATE = `
CREATE TABLE IF NOT EXISTS longship_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  next_key INTEGER NOT NULL,
  embedder TEXT
);
CREATE TABLE IF NOT EXISTS longship_nodes (
  uri TEXT PRIMARY KEY,
  key INTEGER NOT NULL,
  parent TEXT,
  record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS longship_nodes_key ON longship_nodes (key);
CREATE INDEX IF NOT EXISTS longship_nodes_parent ON longship_nodes (parent, uri);
CREATE TABLE IF NOT EXISTS longship_vectors (
  key INTEGER PRIMARY KEY,
  node_key INTEGER NOT NULL,
  chunk INTEGER NOT NULL,
  vector BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS longship_vectors_node ON longship_vectors (node_key, key);
CREATE TABLE IF NOT EXISTS longship_postings (key INTEGER PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS longship_relations (
  from_uri TEXT NOT NULL,
  to_uri TEXT NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (from_uri, to_uri)
);
CREATE INDEX IF NOT EXISTS longship_relations_to ON longship_relations (to_uri, from_uri);
CREATE TABLE IF NOT EXISTS longship_changes (seq INTEGER PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS longship_snapshots (name TEXT PRIMARY KEY, header TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS longship_snapshot_parts (
  name TEXT NOT NULL,
  generation TEXT NOT NULL,
  chunk INTEGER NOT NULL,
  part INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (name, generation, chunk, part)
);
INSERT OR IGNORE INTO longship_meta (id, version, seq, next_key) VALUES (1, ${DO_SCHEMA_VERSION}, 0, 1);
`;

/**
 * Creates the tables where they are missing, in one transaction, and checks their version.
 * Fails with `SCHEMA_MISMATCH` for tables a newer Longship wrote.
 */
export function createSchema(storage: DurableObjectSqlStorage): void {
  let version: number;
  try {
    storage.transactionSync(() => storage.sql.exec(CREATE));
    const [row] = storage.sql.exec('SELECT version FROM longship_meta WHERE id = 1').toArray();
    version = Number(row?.version);
  } catch (error) {
    throw storeError(error, "creating the store's tables");
  }
  if (version > DO_SCHEMA_VERSION) {
    throw new LongshipError(
      'SCHEMA_MISMATCH',
      `this Durable Object's store was written by a newer Longship (tables version ${version}; this one reads ${DO_SCHEMA_VERSION})`,
    );
  }
}

/** Drops every table: what destroy() leaves is what an object that never held a store has. */
export function dropSchema(storage: DurableObjectSqlStorage): void {
  storage.transactionSync(() => {
    for (const table of TABLES) storage.sql.exec(`DROP TABLE IF EXISTS ${table}`);
  });
}

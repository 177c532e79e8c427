// `longship/store`: for writing a Store of your own (docs/internals/store.md): the nine-method
// interface, the change log a store may add, the records they keep, and the options and faces of
// the stores the package ships. `longship/testing` runs the contracts a store must pass.

export type {
  ChangeLog,
  Snapshot,
  SnapshotBytes,
  SnapshotInput,
  SnapshotRanges,
  SnapshotSink,
} from '../store/change-log.js';
export type { FileStoreOptions } from '../store/file/file-open.js';
export type { FileStore } from '../store/file/file-store.js';
export type { FullStore } from '../store/full-store.js';
export type { IdbStoreOptions } from '../store/idb/open-idb-store.js';
export type { MemoryStoreOptions } from '../store/memory/memory-store.js';
export type {
  ChangeRecord,
  CommittedChange,
  ContextType,
  EmbedderInfo,
  EmbedderMismatch,
  NodeKind,
  NodeRecord,
  NodeRef,
  NodeUse,
  OpenStoreOptions,
  PostingRecord,
  RecordTables,
  RelationKey,
  RelationRecord,
  Store,
  StoreKeys,
  StoreLookups,
  StoreMeta,
  StoreOperations,
  StoreStats,
  StoreTables,
  StoreWrites,
  SummaryKind,
  VectorRecord,
  VerifyReport,
  WriteBatch,
} from '../store/store.js';

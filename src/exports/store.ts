// `longship/store`: for writing a Store of your own (docs/internals/store.md): the interface, the
// records it keeps, and the options and faces of the stores the package ships. `longship/testing`
// runs the contract every Store must pass.

export type { FileStoreOptions } from '../store/file-open.js';
export type { FileStore } from '../store/file-store.js';
export type { IdbStoreOptions } from '../store/open-idb-store.js';
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
  RelationKey,
  RelationRecord,
  Snapshot,
  SnapshotBytes,
  SnapshotInput,
  SnapshotRanges,
  SnapshotSink,
  Store,
  StoreMeta,
  StoreStats,
  StoreTables,
  SummaryKind,
  VectorRecord,
  VerifyReport,
  WriteBatch,
} from '../store/store.js';
